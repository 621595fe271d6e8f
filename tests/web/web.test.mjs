// web.test.mjs: the reference web client (web/) in a real browser. Starts the real server
// (build/tilehall, or TILEHALL_BIN) on a fresh database (tilehall_webclient) serving web/,
// and a tiny static server of the same files on another port (another origin, the API
// named by ?api=). In headless Chromium (Debian's, driven by playwright-core):
//   - the files: content types, ETag and 304, no directory traversal (raw HTTP);
//   - whole games against computer players to their end, one per ruleset and option
//     that changes the play (classic, hills, discovery with hands of two), short decks;
//   - a two-person game through an invite link in two browser contexts (the guest's page
//     on the other origin, on a phone-sized screen, in Traditional Chinese from its
//     locale, then switched to Swedish), each seeing the other's moves live, to its end.
// Screenshots go to build/web-artifacts/ (WEB_ARTIFACTS). Bounded: about a minute.
//
//   node --test tests/web/     (make test-web)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { spawnServer, waitHealthy } from '../common/node.cjs';

const top = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const bin = process.env.TILEHALL_BIN || path.join(top, 'build', 'tilehall');
const browserPath = process.env.CHROMIUM || '/usr/bin/chromium';
const serverLog = process.env.WEB_SERVER_LOG || path.join(top, 'build', 'web-server.log');
const artifacts = process.env.WEB_ARTIFACTS || path.join(top, 'build', 'web-artifacts');
const webDir = path.join(top, 'web');

let api, server, browser, pageServer, otherOrigin, direct, proxyPid, serverEnv, apiPort;
let evil, listed; // two recorders on other ports: an origin nobody configured, and WEB_API_ORIGINS's

// A server on a loopback port of its own that records every request it receives (method,
// URL, headers, body) and welcomes any origin (CORS, preflights), so that only the page's
// own rules keep a token from it. {origin, seen, close()}.
async function recorder() {
    const seen = [];
    const srv = http.createServer((req, res) => {
        let body = '';
        req.on('data', (d) => { body += d; });
        req.on('end', () => {
            seen.push({ method: req.method, url: req.url, headers: req.headers, body });
            const cors = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': '*',
                'Access-Control-Allow-Methods': 'GET, POST, DELETE', 'Access-Control-Expose-Headers': '*' };
            if (req.method === 'OPTIONS') { res.writeHead(204, cors); res.end(); return; }
            res.writeHead(404, { ...cors, 'Content-Type': 'application/problem+json' });
            res.end(JSON.stringify({ status: 404, code: 'not_found', title: 'Not Found', detail: 'recorded' }));
        });
    });
    await new Promise((ok) => srv.listen(0, '127.0.0.1', ok));
    return { origin: `http://127.0.0.1:${srv.address().port}`, seen, close: () => srv.close() };
}

// Starts the server (port 0 the first time: one the kernel gives it; then the same port).
async function startServer(mode, port) {
    const log = fs.openSync(serverLog, mode);
    let got;
    ({ child: server, port: got } = await spawnServer(bin, { cwd: top, stdio: ['ignore', log, log], env: serverEnv },
        port));
    return got;
}

// Stops the server (cleanly: every stream ends) and starts it again on the same port.
async function restartServer() {
    quietUntil = Date.now() + 15000;
    const old = server;
    old.kill('SIGTERM');
    const code = await new Promise((ok) => (old.exitCode !== null ? ok(old.exitCode) : old.on('exit', (c) => ok(c))));
    assert.equal(code, 0, `the server exited with ${code}; see ${serverLog}`);
    await startServer('a', apiPort);
    await waitHealthy(direct, server, 10000, serverLog);
}

// A raw GET with the path exactly as given (no normalisation by a client library).
function rawGet(port, target, headers = {}) {
    return new Promise((resolve, reject) => {
        const s = net.connect(port, '127.0.0.1', () => {
            const extra = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
            s.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n${extra}Connection: close\r\n\r\n`);
        });
        let data = '';
        s.on('data', (d) => { data += d.toString('latin1'); });
        s.on('end', () => {
            const [head, ...rest] = data.split('\r\n\r\n');
            const lines = head.split('\r\n');
            const hs = {};
            for (const l of lines.slice(1)) {
                const i = l.indexOf(':');
                hs[l.slice(0, i).toLowerCase()] = l.slice(i + 1).trim();
            }
            resolve({ status: Number(lines[0].split(' ')[1]), headers: hs, body: rest.join('\r\n\r\n') });
        });
        s.on('error', reject);
    });
}

test.before(async () => {
    assert.ok(fs.existsSync(bin), `${bin} is missing (make ${path.relative(top, bin)})`);
    assert.ok(fs.existsSync(browserPath), `${browserPath} is missing (apt-get install chromium)`);
    fs.mkdirSync(artifacts, { recursive: true });
    const pg = spawnSync(path.join(top, 'scripts', 'pg-start.sh'), ['--fast', '--fresh', 'tilehall_webclient'],
        { cwd: top, encoding: 'utf8', timeout: 30000 });
    assert.equal(pg.status, 0, `pg-start failed: ${pg.stderr}`);
    evil = await recorder();
    listed = await recorder();
    serverEnv = { ...process.env, DATABASE_URL: pg.stdout.trim(), THREADS: '4',
        LOG_LEVEL: 'warn', CREATE_LIMIT_PER_MINUTE: '0', MAX_CONNECTIONS_PER_IP: '0', BOT_WORKERS: '2',
        JOBS_POLL_MS: '50', WEB_DIR: webDir, WEB_API_ORIGINS: listed.origin };
    apiPort = await startServer('w', 0);
    direct = `http://127.0.0.1:${apiPort}`;
    await waitHealthy(direct, server, 10000, serverLog);
    // Every request of the pages goes through the spec's validating proxy (an answer that
    // breaks openapi.yaml comes back 500), unless WEB_PROXY= is empty.
    if (process.env.WEB_PROXY !== '') {
        const pr = spawnSync(path.join(top, 'scripts', 'spec-proxy.sh'),
            ['0', direct, path.join(path.dirname(serverLog), 'web-spec-proxy.log')],
            { cwd: top, encoding: 'utf8', timeout: 40000 });
        assert.equal(pr.status, 0, `spec-proxy failed: ${pr.stderr}`);
        const [pid, proxyPort] = pr.stdout.trim().split(' ').map(Number);
        proxyPid = pid;
        api = `http://127.0.0.1:${proxyPort}`;
    } else {
        api = direct;
    }
    // The other origin: the same files, / and /web/<name>, from a static server of node,
    // without any security header; its operator points the page at the API in its
    // <meta name="tilehall-api">. /frame.html frames the API server's page.
    pageServer = http.createServer((req, res) => {
        const u = new URL(req.url, 'http://x');
        if (u.pathname === '/frame.html') {
            res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
            res.end(`<!doctype html><title>frame</title><iframe id="f" src="${api}/"></iframe>`);
            return;
        }
        const name = u.pathname === '/' ? 'index.html' : u.pathname.replace(/^\/web\//, '');
        // The page's files and its word tables (web/i18n/<lang>.json), nothing else.
        const words = /^i18n\/[a-z0-9][a-z0-9._-]*$/i.test(name);
        const file = path.join(webDir, words ? 'i18n' : '', path.basename(name));
        if (!(words || /^[a-z0-9][a-z0-9._-]*$/i.test(name)) || !fs.existsSync(file)) { res.writeHead(404); res.end(); return; }
        const type = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json' }[path.extname(file)] || 'text/plain';
        res.writeHead(200, { 'Content-Type': type + '; charset=utf-8', 'Cache-Control': 'no-store' });
        let data = fs.readFileSync(file);
        if (name === 'index.html') {
            data = data.toString('utf8').replace('<meta name="tilehall-api" content="">',
                `<meta name="tilehall-api" content="${api}">`);
        }
        res.end(data);
    });
    await new Promise((ok) => pageServer.listen(0, '127.0.0.1', ok));
    otherOrigin = `http://127.0.0.1:${pageServer.address().port}`;
    browser = await chromium.launch({ executablePath: browserPath, headless: true, timeout: 20000,
        args: process.getuid && process.getuid() === 0 ? ['--no-sandbox'] : [] });
});

test.after(async () => {
    if (browser) await browser.close();
    if (pageServer) pageServer.close();
    if (evil) evil.close();
    if (listed) listed.close();
    if (proxyPid) {
        try { process.kill(proxyPid, 'SIGTERM'); } catch { /* gone */ }
        const plog = fs.readFileSync(path.join(path.dirname(serverLog), 'web-spec-proxy.log'), 'utf8');
        const bad = plog.split('\n').filter((l) => /VIOLATION/.test(l));
        assert.deepEqual(bad, [], 'answers that break openapi.yaml');
    }
    if (server && server.exitCode === null) {
        server.kill('SIGTERM');
        const code = await new Promise((ok) => server.on('exit', (c) => ok(c)));
        assert.equal(code, 0, `the server exited with ${code}; see ${serverLog}`);
    }
});

let quietUntil = 0; // console errors until then come from the server's restart (on purpose)

function watch(page, lines) {
    page.on('console', (m) => {
        if (m.type() === 'error' && Date.now() > quietUntil) lines.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => lines.push(`pageerror: ${e.message}`));
}

// Saves `name` as the page's player at the client's start and waits for the lobby's
// "my turn" count (the player exists on the server then).
async function saveName(page, name) {
    await page.fill('#myname', name);
    await page.click('button:has-text("Save")');
    await page.waitForSelector('#my-turn-count');
}

// What the page's game view is at: 'over', 'draw', 'place' (my turn), or 'wait'.
const phaseOf = () => {
    const v = window.tilehall.view;
    const g = v && v.state && v.state.game;
    if (!g) return 'none';
    if (g.status === 'finished' || g.status === 'aborted') return 'over';
    if (v.state.busy) return 'wait';
    if (document.querySelector('#draw')) return 'draw';
    if (document.querySelector('.cand')) return 'place';
    return 'wait';
};

// Plays this page's turn if it is one: draw, pick a square, turn the tile, pick a
// follow-up, confirm. Returns the phase found ('over', 'wait', 'draw', 'place').
async function playStep(page, n) {
    const phase = await page.evaluate(phaseOf);
    if (phase === 'draw') {
        await page.click('#draw');
        await page.waitForFunction(() => document.querySelector('.cand') ||
            ['over', 'wait'].includes(window.tilehall.view.state.game.status === 'active' ? 'x' : 'over'), null,
        { timeout: 10000 });
    } else if (phase === 'place') {
        // The page may draw the board again between the count and the click (a refresh
        // after another seat's move): then the step is tried again.
        const count = await page.locator('.cand').count();
        if (!count) return 'wait';
        try {
            if (n % 4 === 3 && (await page.$('#hint'))) {
                // The server's suggestion, chosen on the board: confirmed as it is.
                await page.click('#hint', { timeout: 2000 });
                await page.waitForFunction(() => window.tilehall.view.state.sel, null, { timeout: 10000 });
            } else if (n % 4 === 1) {
                // By keyboard: focus a square, Enter picks it, R turns the tile.
                await page.locator('.cand').nth(n % count).focus({ timeout: 2000 });
                await page.keyboard.press('Enter');
            } else {
                await page.locator('.cand').nth(n % count).click({ force: true, timeout: 2000 });
            }
            if (n % 2 && n % 4 !== 3) await page.keyboard.press('r'); // turn it with the key
            const fus = await page.locator('input[name=fu]').count();
            if (fus > 1 && n % 3 !== 2 && n % 4 !== 3) await page.locator('input[name=fu]').nth(1 + (n % (fus - 1))).check({ timeout: 2000 });
        } catch {
            return 'wait';
        }
        const before = await page.evaluate(() => window.tilehall.view.state.game.version);
        if (!(await page.$('#confirm'))) return 'wait';
        await page.click('#confirm', { timeout: 2000 });
        // 20 s: the first move after the invite test's restart of the server is this page's
        // first request to the new process (a move after the restart timed out at 10 s once
        // in a loaded CI run; which of its waits, the log did not say).
        await page.waitForFunction((v) => window.tilehall.view.state.game.version > v, before, { timeout: 20000 });
        const err = await page.$eval('#err', (e) => (e.hidden ? '' : e.textContent));
        const why = await page.evaluate(() => JSON.stringify(window.tilehall.view.state.lastErr));
        assert.equal(err, '', `a legal move was refused: ${err} ${why} (step ${n})`);
        return 'placed';
    }
    return phase;
}

async function untilOver(page, ms) {
    const until = Date.now() + ms;
    for (let n = 0; Date.now() < until; n++) {
        const phase = await playStep(page, n);
        if (phase === 'over') return;
        if (phase === 'wait' || phase === 'none') await page.waitForTimeout(100);
    }
    throw new Error('the game did not end in time');
}

test('the web files: types, ETag and 304, no traversal', async () => {
    const port = new URL(direct).port;
    const root = await rawGet(port, '/');
    assert.equal(root.status, 200);
    assert.match(root.headers['content-type'], /^text\/html; charset=utf-8$/);
    assert.match(root.headers.etag, /^"[0-9a-f]{16}"$/);
    assert.equal(root.headers['cache-control'], 'no-cache');
    assert.match(root.body, /<script type="module" src="web\/app.js">/);
    const js = await rawGet(port, '/web/app.js');
    assert.equal(js.status, 200);
    assert.match(js.headers['content-type'], /^text\/javascript/);
    assert.match((await rawGet(port, '/web/style.css')).headers['content-type'], /^text\/css/);
    const again = await rawGet(port, '/web/app.js', { 'If-None-Match': js.headers.etag });
    assert.equal(again.status, 304);
    assert.equal(again.body, '');
    assert.equal((await rawGet(port, '/web/app.js', { 'If-None-Match': '"0000000000000000"' })).status, 200);
    for (const bad of ['/web/../openapi.yaml', '/web/..', '/web/%2e%2e', '/web/.%2e/README.md', '/web/../../etc/passwd',
        '/web/./app.js', '/web/.hidden', '/web/nope.js', '/web/', '/web/api.js/x', '/web/%2e%2e%2fopenapi.yaml',
        '/web/..%2fopenapi.yaml', '/web/..%5cREADME.md', '/web/index.html%00.js', '/../openapi.yaml']) {
        const r = await rawGet(port, bad);
        assert.ok(r.status === 404 || r.status === 400, `${bad}: ${r.status}`);
        assert.doesNotMatch(r.body, /openapi: |root:|tilehall$/m, `${bad} leaked a file`);
    }
    // The same answers through the spec proxy: each as openapi.yaml says (else a 500).
    if (api !== direct) {
        const pport = new URL(api).port;
        assert.equal((await rawGet(pport, '/')).status, 200);
        assert.equal((await rawGet(pport, '/web/app.js')).status, 200);
        assert.equal((await rawGet(pport, '/web/style.css')).status, 200);
        assert.equal((await rawGet(pport, '/web/app.js', { 'If-None-Match': js.headers.etag })).status, 304);
        assert.equal((await rawGet(pport, '/web/nope.js')).status, 404);
        assert.equal((await rawGet(pport, '/web/..')).status, 404);
    }
});

test('whole games against computer players, every ruleset, to the end', { timeout: 60000 }, async () => {
    const cats = {};
    for (const r of ['classic', 'hills', 'discovery']) cats[r] = (await (await fetch(`${api}/v1/rulesets/${r}/tiles`)).json()).tiles;
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 860 }, locale: 'en-GB' });
    const page = await ctx.newPage();
    const lines = [];
    watch(page, lines);
    await page.goto(api + '/');
    await saveName(page, 'Ann');
    const games = [
        { ruleset: 'classic', options: {}, deck: ['U', 'V', 'E', 'K', 'L', 'B'] },
        { ruleset: 'hills', options: {}, deck: cats.hills.slice(0, 6).map((x) => x.id) },
        { ruleset: 'discovery', options: { 'opt-draw': 'hand' }, deck: cats.discovery.slice(0, 8).map((x) => x.id) },
    ];
    for (const g of games) {
        await page.goto(api + '/#/');
        await page.waitForSelector('#ruleset option', { state: 'attached' });
        await page.selectOption('#ruleset', g.ruleset);
        for (const [id, v] of Object.entries(g.options)) await page.selectOption('#' + id, v);
        const rows = await page.$$('.seat');
        await (await rows[1].$('.seat-kind')).selectOption('bot');
        await (await rows[1].$('.seat-level')).selectOption(g.ruleset === 'hills' ? 'greedy' : 'random');
        await (await rows[1].$('.seat-think')).fill('10');
        await page.click('#add-seat');
        const third = (await page.$$('.seat'))[2];
        await (await third.$('.seat-kind')).selectOption('bot');
        await (await third.$('.seat-level')).selectOption('greedy');
        await (await third.$('.seat-think')).fill('10');
        await page.fill('#deck', g.deck.join(' '));
        await page.click('#create');
        await page.waitForSelector('#turn-line');
        await page.waitForFunction(() => window.tilehall.view && window.tilehall.view.state && window.tilehall.view.state.game);
        if (g.ruleset === 'classic') {
            await page.waitForFunction(() => document.querySelector('#draw'), null, { timeout: 10000 });
            await page.screenshot({ path: path.join(artifacts, 'bots-classic-start.png') });
        }
        await untilOver(page, 25000);
        await page.waitForFunction(() => document.querySelector('#history li[data-type=game_finished]'), null, { timeout: 10000 });
        await page.waitForSelector('#rematch');
        const line = await page.textContent('#turn-line');
        assert.match(line, /Game over/);
        const scores = await page.$$eval('#scores tbody tr', (trs) => trs.length);
        assert.equal(scores, 3);
        await page.screenshot({ path: path.join(artifacts, `bots-${g.ruleset}-end.png`), fullPage: true });
    }
    // Abort on the first turn, and resign: the page's buttons, the server's verdicts.
    page.on('dialog', (d) => d.accept());
    for (const how of ['abort', 'resign']) {
        await page.goto(api + '/#/');
        await page.waitForSelector('#ruleset option', { state: 'attached' });
        const r = await page.$$('.seat');
        await (await r[1].$('.seat-think')).fill('10');
        await page.click('#create');
        await page.waitForSelector('#' + how);
        await page.click('#' + how);
        await page.waitForFunction((want) => window.tilehall.view.state.game.status === want,
            how === 'abort' ? 'aborted' : 'finished', { timeout: 10000 });
        if (how === 'resign') {
            await page.waitForFunction(() => /by resignation/.test(document.querySelector('#turn-line')?.textContent ?? '') &&
                document.querySelector('#history li[data-type=seat_resigned]'), null, { timeout: 10000 });
        } else {
            await page.waitForFunction(() => document.querySelector('#history li[data-type=game_aborted]'), null,
                { timeout: 10000 });
        }
    }
    // The list of my games shows the three, finished.
    await page.goto(api + '/#/');
    await page.waitForFunction(() => document.querySelectorAll('#my-games li a').length >= 3, null, { timeout: 10000 });
    assert.deepEqual(lines, []);
    await ctx.close();
});

test('two people through an invite link, live, the guest on another origin and a phone', { timeout: 60000 }, async () => {
    const host = await browser.newContext({ viewport: { width: 1280, height: 860 }, locale: 'en-US' });
    const guest = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'zh-TW',
        isMobile: true, hasTouch: true });
    const a = await host.newPage();
    const b = await guest.newPage();
    const lines = [];
    watch(a, lines);
    watch(b, lines);
    await a.goto(api + '/');
    await a.fill('#myname', 'Ann');
    await a.waitForSelector('#ruleset option', { state: 'attached' });
    const rows = await a.$$('.seat');
    await (await rows[1].$('.seat-kind')).selectOption('open');
    await a.selectOption('#clock-kind', 'turn');
    await a.fill('#clock-secs', '600');
    await a.fill('#deck', 'U V E K L B J W');
    await a.click('#create');
    await a.waitForSelector('input.invite');
    const link = await a.inputValue('input.invite');
    assert.match(link, /#\/join\/[0-9a-f-]+\/.+/);
    await a.screenshot({ path: path.join(artifacts, 'invite-host-waiting.png') });
    // The guest opens the link on the other origin, its page pointed at the API.
    const u = new URL(link);
    await b.goto(`${otherOrigin}/?api=${encodeURIComponent(api)}${u.hash}`);
    await b.waitForSelector('#join-name');
    await b.fill('#join-name', 'Bo');
    await b.click('#join-me');
    await b.waitForFunction(() => document.querySelector('#game-title') &&
        document.querySelector('#game-title').textContent !== '', null, { timeout: 10000 });
    assert.equal(await b.textContent('#game-title'), '卡卡頌');
    // The invite is used now: a third browser gets the server's refusal, in words.
    const third = await browser.newContext({ locale: 'en-US' });
    const c = await third.newPage();
    await c.goto(api + '/' + u.hash);
    await c.waitForSelector('#join-name');
    await c.fill('#join-name', 'Cy');
    await c.click('#join-name-btn');
    await c.waitForFunction(() => document.querySelector('.join .err')?.hidden === false, null, { timeout: 10000 });
    assert.match(await c.textContent('.join .err'), /^Refused: .*invite/i);
    await c.screenshot({ path: path.join(artifacts, 'invite-used-refused.png') });
    await third.close();
    // The host sees the game start without reloading (live), with a deadline counting down.
    await a.waitForFunction(() => window.tilehall.view.state.game.status === 'active', null, { timeout: 10000 });
    await a.waitForFunction(() => /\d:\d\d/.test(document.querySelector('#countdown')?.textContent ?? ''), null, { timeout: 5000 });
    await a.waitForFunction(() => /It is your turn/.test(document.querySelector('#announce')?.textContent ?? ''), null,
        { timeout: 10000 });
    const placed = (p) => p.$$eval('#history li[data-type=tile_placed]', (l) => l.length);
    let shots = 0, moves = 0, cutDone = false;
    const until = Date.now() + 40000;
    for (let n = 0; ; n++) {
        if (Date.now() >= until) {
            await a.screenshot({ path: path.join(artifacts, 'stuck-host.png') });
            await b.screenshot({ path: path.join(artifacts, 'stuck-guest.png') });
            const st = (p) => p.evaluate(() => { const v = window.tilehall.view.state; return JSON.stringify({
                phase: v.game && v.game.turn, status: v.game && v.game.status, version: v.game && v.game.version,
                busy: v.busy, sel: v.sel, pl: !!v.pl, plVersion: v.plVersion, err: v.lastErr,
                box: document.querySelector('#err').textContent }); });
            assert.fail(`the two-person game did not end in time: host ${await st(a)} guest ${await st(b)}`);
        }
        const pa = await a.evaluate(phaseOf), pb = await b.evaluate(phaseOf);
        if (pa === 'over' && pb === 'over') break;
        let mover = null, other = null;
        if (pa === 'draw' || pa === 'place') [mover, other] = [a, b];
        else if (pb === 'draw' || pb === 'place') [mover, other] = [b, a];
        if (!mover) { await a.waitForTimeout(100); continue; }
        const before = await placed(other);
        if ((await mover.evaluate(phaseOf)) === 'draw') await playStep(mover, n);
        await mover.waitForSelector('.cand', { timeout: 10000 }).catch(() => {});
        if (shots < 2 && (await mover.$('.cand'))) {
            await mover.locator('.cand').first().click({ force: true, timeout: 2000 }).catch(() => {});
            await mover.screenshot({ path: path.join(artifacts, `invite-${mover === a ? 'host-desktop' : 'guest-phone'}-placing.png`) });
            shots++;
        }
        // Once, the server restarts before the host moves: both streams end, reconnect
        // (Last-Event-ID, or opened again from the last event seen) and bring the move.
        const cut = moves === 1 && mover === a && !cutDone;
        if (cut) {
            cutDone = true;
            await restartServer();
        }
        const res = (await mover.evaluate(phaseOf)) === 'place' ? await playStep(mover, n) : 'wait';
        if (res !== 'placed') continue;
        // The other seat's page shows the placement without being asked (the stream; after
        // the restart, once its stream is open again, which takes the browser's retries of a
        // server not up yet: 30 s then, see playStep).
        await other.waitForFunction((k) => document.querySelectorAll('#history li[data-type=tile_placed]').length > k,
            before, { timeout: cut ? 30000 : 10000 });
        if (++moves === 3) {
            // Switch the guest to Swedish: the words change, the game goes on.
            await b.selectOption('#lang', 'sv');
            await b.waitForSelector('#turn-line');
            await b.waitForFunction(() => document.querySelector('#scores h2') &&
                document.querySelector('#scores h2').textContent === 'Poäng', null, { timeout: 10000 });
        }
    }
    await a.waitForSelector('#rematch');
    await b.waitForSelector('#rematch');
    assert.match(await a.textContent('#turn-line'), /Game over/);
    assert.match(await b.textContent('#turn-line'), /Spelet är slut/);
    const hist = await a.$$eval('#history li', (l) => l.map((x) => x.textContent));
    assert.ok(hist.some((x) => /Bo placed tile/.test(x)), 'the host\'s history names the guest\'s moves');
    await a.screenshot({ path: path.join(artifacts, 'invite-host-desktop-end.png'), fullPage: true });
    await b.screenshot({ path: path.join(artifacts, 'invite-guest-phone-end.png'), fullPage: true });
    // A rematch from the guest's side: the next game opens for it.
    await b.click('#rematch');
    await b.waitForFunction((old) => !location.hash.includes(old), u.hash.split('/')[2], { timeout: 10000 });
    assert.deepEqual(lines, []);
    await host.close();
    await guest.close();
});

// Issue 29, findings 1 and 11. A link that names an API (`/?api=https://evil.example`) must
// not hand it the player's token: the page follows only its own origin and the operator's
// (WEB_API_ORIGINS, <meta name="tilehall-api">), keeps tokens per API and sends each only
// there, and its Content-Security-Policy lets no request reach anywhere else. Two
// recorders on loopback ports of their own, welcoming any origin, see what arrives: the
// unlisted one nothing at all, the listed one no token. The page is framed by no page, and
// runs under its CSP without a violation (every securitypolicyviolation event of the page
// is kept) while it creates a game and plays a move (issue 30 item 9).
test('tokens go only to their API, whatever a link names; the CSP; no framing', { timeout: 120000 }, async () => {
    const pageCsp = `default-src 'self'; connect-src 'self' ${listed.origin}; img-src 'self' data:; ` +
        "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
    const ctx = await browser.newContext({ locale: 'en-GB' });
    await ctx.addInitScript(() => {
        window.cspViolations = [];
        document.addEventListener('securitypolicyviolation', (e) =>
            window.cspViolations.push(`${e.effectiveDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
    });
    const page = await ctx.newPage();
    const lines = [];
    watch(page, lines);
    const first = await page.goto(api + '/');
    assert.equal(first.headers()['content-security-policy'], pageCsp);
    assert.equal(first.headers()['x-content-type-options'], 'nosniff');
    assert.equal(first.headers()['referrer-policy'], 'no-referrer');
    assert.equal(first.headers()['x-frame-options'], 'DENY');
    await saveName(page, 'Eve');
    // A game against a computer player: the browser holds a seat of it too, and plays a move.
    await page.waitForSelector('#ruleset option', { state: 'attached' });
    await (await (await page.$$('.seat'))[1].$('.seat-think')).fill('10');
    await page.click('#create');
    await page.waitForSelector('#turn-line');
    const gid = await page.evaluate(() => location.hash.split('/')[2]);
    const moveBy = Date.now() + 20000;
    for (let n = 0; (await playStep(page, n)) !== 'placed'; n++) {
        assert.ok(Date.now() < moveBy, 'no move played in 20 s');
        await page.waitForTimeout(100);
    }
    assert.deepEqual(await page.evaluate(() => window.cspViolations), [], 'the page broke its CSP');
    assert.deepEqual(lines, [], 'console errors while creating and playing');
    const kept = await page.evaluate(() => ({ ...localStorage }));
    const token = JSON.parse(kept[`tilehall.player@${api}`]).token;
    assert.match(token, /^[A-Za-z0-9_-]{43}$/, `the player under its API: ${JSON.stringify(kept)}`);
    assert.ok(!('tilehall.player' in kept), 'a token kept for no API in particular');
    const secrets = [token, ...Object.values(JSON.parse(kept[`tilehall.seats@${api}`] || '{}'))
        .map((x) => x.token).filter(Boolean)];
    const leaks = (seen) => seen.filter((r) => r.headers.authorization ||
        secrets.some((x) => r.url.includes(x) || r.body.includes(x) || JSON.stringify(r.headers).includes(x)));

    // The link to an API nobody configured: said, not followed; the page goes on with its own.
    for (const hash of ['#/', `#/game/${gid}`, `#/join/${gid}/someinvite`]) {
        await page.goto(`${api}/?api=${encodeURIComponent(evil.origin)}${hash}`);
        await page.waitForTimeout(700);
        assert.deepEqual(leaks(evil.seen), [], `the unlisted origin was sent a token (${hash})`);
        assert.deepEqual(evil.seen, [], `the unlisted origin was sent requests (${hash})`);
        await page.waitForSelector('#api-refused', { timeout: 2000 });
        if (hash === '#/') {
            await page.waitForFunction(() => (document.querySelector('#my-turn-count')?.textContent ?? '') !== '', null,
                { timeout: 10000 });
            assert.equal(await page.inputValue('#myname'), 'Eve');
        } else if (hash.startsWith('#/game')) {
            await page.waitForSelector('#turn-line');
        }
    }
    assert.equal(await page.evaluate(() => window.tilehall.api), api);
    assert.deepEqual(lines, [], 'console errors (a CSP violation among them?)');
    assert.deepEqual(evil.seen, [], 'the unlisted origin was sent requests');
    // The second wall: a script on the page (say, injected) cannot reach it either.
    const tried = await page.evaluate(async (u) => {
        try { await fetch(u + '/v1/players/me'); return 'reached'; } catch { return 'blocked'; }
    }, evil.origin);
    assert.equal(tried, 'blocked');
    assert.ok(lines.some((l) => /Content Security Policy/.test(l) && /connect-src/.test(l)),
        `no CSP report of the blocked request: ${lines.join(' | ')}`);
    assert.deepEqual(evil.seen, [], 'the CSP let a request through');
    lines.length = 0;

    // An API the operator listed (WEB_API_ORIGINS): followed, and allowed by the CSP, but
    // this API's tokens are not sent there: that API has a player of its own, or none.
    await page.goto(`${api}/?api=${encodeURIComponent(listed.origin)}#/game/${gid}`);
    const until = Date.now() + 10000;
    while (!listed.seen.some((r) => r.method === 'GET') && Date.now() < until) await page.waitForTimeout(100);
    assert.ok(listed.seen.length > 0, 'the listed API was never asked (the page did not follow ?api=)');
    await page.goto(`${api}/?api=${encodeURIComponent(listed.origin)}#/`);
    await page.waitForTimeout(500);
    assert.equal(await page.evaluate(() => window.tilehall.api), listed.origin);
    assert.equal(await page.$('#api-refused'), null);
    assert.deepEqual(leaks(listed.seen), [], 'a token went to another API');

    // A page of before kept its player unscoped: it is taken over by the page's own API
    // only, never by the API a link names.
    const old = await browser.newContext({ locale: 'en-GB' });
    const op = await old.newPage();
    await op.goto(api + '/web/style.css');
    await op.evaluate((v) => localStorage.setItem('tilehall.player', v), kept[`tilehall.player@${api}`]);
    const before = listed.seen.length;
    await op.goto(`${api}/?api=${encodeURIComponent(listed.origin)}#/`);
    await op.waitForSelector('#myname');
    await op.waitForTimeout(500);
    assert.equal(await op.inputValue('#myname'), '', 'the old player was taken to the API a link named');
    assert.deepEqual(leaks(listed.seen.slice(before)), [], 'the old token went to the API a link named');
    await op.goto(api + '/#/');
    await op.waitForFunction(() => (document.querySelector('#my-turn-count')?.textContent ?? '') !== '', null, { timeout: 10000 });
    assert.equal(await op.inputValue('#myname'), 'Eve');
    assert.equal(await op.evaluate(() => localStorage.getItem('tilehall.player')), null);
    await old.close();

    // The page on a static host that sends no CSP (the first wall alone), pointed at the
    // API by its meta: a link to the unlisted origin is not followed either.
    const host = await browser.newContext({ locale: 'en-GB' });
    const hp = await host.newPage();
    const hlines = [];
    watch(hp, hlines);
    await hp.goto(otherOrigin + '/');
    await saveName(hp, 'Dee');
    const dee = await hp.evaluate((a) => JSON.parse(localStorage.getItem(`tilehall.player@${a}`)).token, api);
    secrets.push(dee);
    await hp.goto(`${otherOrigin}/?api=${encodeURIComponent(evil.origin)}#/`);
    await hp.waitForTimeout(700);
    assert.deepEqual(leaks(evil.seen), [], 'the unlisted origin was sent a token by the static host\'s page');
    assert.deepEqual(evil.seen, [], 'the unlisted origin was sent requests by the static host\'s page');
    await hp.waitForSelector('#api-refused', { timeout: 2000 });
    await hp.waitForFunction(() => (document.querySelector('#my-turn-count')?.textContent ?? '') !== '', null, { timeout: 10000 });
    assert.deepEqual(hlines, []);

    // Framed by another page (clickjacking Resign, Abort): the browser refuses to show it.
    const fp = await host.newPage();
    const flines = [];
    fp.on('console', (m) => flines.push(m.text()));
    await fp.goto(otherOrigin + '/frame.html');
    const funtil = Date.now() + 5000;
    while (!flines.some((l) => /frame-ancestors/.test(l)) && Date.now() < funtil) await fp.waitForTimeout(100);
    assert.ok(flines.some((l) => /frame-ancestors/.test(l)), `no frame-ancestors refusal: ${flines.join(' | ')}`);
    const child = fp.frames().find((f) => f !== fp.mainFrame());
    const inside = child ? await child.evaluate(() => !!document.querySelector('#top')).catch(() => false) : false;
    assert.equal(inside, false, 'the page was shown in a frame');
    await host.close();
    await ctx.close();
    assert.deepEqual(evil.seen, []);
});
