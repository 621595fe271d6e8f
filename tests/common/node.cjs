// node.cjs: helpers the node tests share (tests/browser, tests/web, tests/webhook).
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));
let spawned = 0;

// Starts the server binary `bin` (spawn options `opts`: env, cwd, stdio) on `port`; resolves
// { child, port } once it listens. Port 0 (the default): the server binds a port the kernel
// gives it and writes it to its PORT_FILE, read back here, so no port is picked and freed
// for another program to take first. A port given (a restart on the same port): tried again
// while something else holds it (the server exits at once), up to 5 s. Rejects when the
// server exits otherwise or does not listen within `waitMs`.
async function spawnServer(bin, opts, port = 0, waitMs = 30000) {
    const portFile = path.join(os.tmpdir(), `tilehall-port.${process.pid}.${++spawned}`);
    const tries = port ? 50 : 1;
    for (let t = 0; t < tries; t++) {
        if (t) await sleep(100);
        fs.rmSync(portFile, { force: true });
        const env = { ...(opts.env || process.env), PORT: String(port), PORT_FILE: portFile };
        const child = spawn(bin, [], { ...opts, env });
        const until = Date.now() + waitMs;
        while (Date.now() < until && child.exitCode === null && child.signalCode === null) {
            let text = '';
            try {
                text = fs.readFileSync(portFile, 'utf8');
            } catch {
                // not listening yet
            }
            const got = Number.parseInt(text, 10);
            if (got > 0) {
                fs.rmSync(portFile, { force: true });
                return { child, port: got };
            }
            await sleep(20);
        }
        fs.rmSync(portFile, { force: true });
        if (child.exitCode === null && child.signalCode === null) {
            child.kill('SIGKILL');
            throw new Error(`the server did not listen within ${waitMs} ms`);
        }
    }
    throw new Error(port ? `the server could not listen on port ${port}` : 'the server exited before it listened');
}

// Resolves once `base`/healthz answers 200; rejects when the server `child` exits first or
// `ms` pass, naming its log `logName` in the error.
async function waitHealthy(base, child, ms, logName) {
    const until = Date.now() + ms;
    while (Date.now() < until) {
        if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}); see ${logName}`);
        try {
            const r = await fetch(base + '/healthz', { signal: AbortSignal.timeout(1000) });
            if (r.status === 200) return;
        } catch {
            // not yet
        }
        await sleep(100);
    }
    throw new Error(`the server did not answer /healthz within ${ms} ms; see ${logName}`);
}

module.exports = { spawnServer, waitHealthy };
