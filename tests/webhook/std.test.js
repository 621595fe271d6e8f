// std.test.js: webhook deliveries checked by the `standardwebhooks` npm library's own
// verifier (Webhook.verify), as a receiver using an off-the-shelf library would.
//
// Run by `make test-webhook-std` (mk/api.mk): starts PostgreSQL (scripts/pg-start.sh
// --fast --fresh tilehall_stdwh) and the real server (TILEHALL_BIN, default
// build/tilehall; its output to STDWH_SERVER_LOG) with WEBHOOK_ALLOW_PRIVATE=1, a
// receiver on 127.0.0.1, creates a game with the creator's webhook, sets seat 0's, plays
// a turn, and checks every delivery of both webhooks: the library accepts it with the
// `standard_secret` (whsec_) the answers show and with the secret's text as a raw key,
// and refuses a tampered body, timestamp or id and another webhook's secret; webhook-id is
// unique per message and the same on the retry of one (the receiver fails the first
// request); the X-Tilehall headers are still there and still right. Last, the server must
// exit 0 on SIGTERM (a sanitizer build's report makes it fail).
'use strict';
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { Webhook, WebhookVerificationError } = require('standardwebhooks');
const { spawnServer } = require('../common/node.cjs');

const top = path.resolve(__dirname, '..', '..');
const bin = path.resolve(top, process.env.TILEHALL_BIN || 'build/tilehall');
const logPath = path.resolve(top, process.env.STDWH_SERVER_LOG || 'build/webhook-std-server.log');

let server = null; // the tilehall process
let base = ''; // its URL
let receiver = null; // the webhook receiver
let hookBase = ''; // its URL
const got = []; // every request the receiver got: {path, headers, body, status}
let failNext = 1; // answer 500 to this many more requests (one retry to look at)

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function api(method, p, body, token) {
    const headers = {};
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (token) headers.Authorization = `Bearer ${token}`;
    const r = await fetch(base + p, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    return { status: r.status, json: text ? JSON.parse(text) : null, text };
}

before(async () => {
    fs.mkdirSync(path.dirname(logPath), { recursive: true });
    const db = execFileSync(path.join(top, 'scripts/pg-start.sh'), ['--fast', '--fresh', 'tilehall_stdwh'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
    }).trim();
    receiver = http.createServer((req, res) => {
        const chunks = [];
        req.on('data', (c) => chunks.push(c));
        req.on('end', () => {
            const status = failNext > 0 ? (failNext--, 500) : 204;
            got.push({ path: req.url, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), status });
            res.writeHead(status, { 'Content-Length': '0' });
            res.end();
        });
    });
    await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
    hookBase = `http://127.0.0.1:${receiver.address().port}`;
    const log = fs.openSync(logPath, 'w');
    let port;
    ({ child: server, port } = await spawnServer(bin, {
        env: {
            ...process.env,
            DATABASE_URL: db,
            WEBHOOK_ALLOW_PRIVATE: '1',
            WEBHOOK_BACKOFF_MS: '100',
            WEBHOOK_POLL_MS: '100',
            LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', log, log],
    }));
    base = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 100; i++) {
        if (server.exitCode !== null) break;
        try {
            if ((await fetch(`${base}/healthz`)).ok) return;
        } catch {
            // not listening yet
        }
        await sleep(100);
    }
    throw new Error(`the server did not start (see ${logPath})`);
});

after(async () => {
    if (server && server.exitCode === null) {
        const done = new Promise((r) => server.once('exit', r));
        server.kill('SIGTERM');
        await done;
    }
    if (receiver) receiver.close();
});

// Plays one turn of the game (draw if needed, then the first legal placement).
async function playTurn(game, tokens) {
    let g = (await api('GET', `/v1/games/${game}`)).json;
    const seat = g.turn.seat;
    if (g.turn.phase === 'draw') {
        const d = await api('POST', `/v1/games/${game}/draw`, undefined, tokens[seat]);
        assert.equal(d.status, 200, d.text);
    }
    const p = await api('GET', `/v1/games/${game}/placements`);
    assert.equal(p.status, 200, p.text);
    const { x, y, rotation } = p.json.placements[0];
    const r = await api('POST', `/v1/games/${game}/placements`, { x, y, rotation }, tokens[seat]);
    assert.equal(r.status, 201, r.text);
}

// The receiver's 2xx-answered requests to `p`, once `n` of them arrived (10 s at most).
async function delivered(p, n) {
    for (let i = 0; i < 100; i++) {
        const ok = got.filter((r) => r.path === p && r.status < 300);
        if (ok.length >= n) return ok;
        await sleep(100);
    }
    throw new Error(`${got.filter((r) => r.path === p && r.status < 300).length} of ${n} deliveries to ${p}`);
}

test('every delivery verifies with the standardwebhooks library', async () => {
    const c = await api('POST', '/v1/games', {
        ruleset: 'classic',
        players: [{ name: 'Ann' }, { name: 'Bob' }],
        webhook: { url: `${hookBase}/creator` },
    });
    assert.equal(c.status, 201, c.text);
    const game = c.json.id;
    const tokens = c.json.players.map((p) => p.token);
    const creator = c.json.webhook;
    assert.match(creator.secret, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(creator.standard_secret, 'whsec_' + Buffer.from(creator.secret).toString('base64'));

    const s = await api('POST', `/v1/games/${game}/webhook`, { url: `${hookBase}/seat0` }, tokens[0]);
    assert.equal(s.status, 200, s.text);
    const seat0 = s.json;
    assert.equal(seat0.standard_secret, 'whsec_' + Buffer.from(seat0.secret).toString('base64'));
    assert.notEqual(seat0.secret, creator.secret);

    const before = (await api('GET', `/v1/games/${game}/events`)).json.events.length;
    await playTurn(game, tokens);
    const evs = (await api('GET', `/v1/games/${game}/events`)).json.events;
    assert.ok(evs.length > before, `${evs.length} events, ${before} before the turn`);

    const hooks = [
        { p: '/creator', hook: creator, other: seat0, n: evs.length },
        { p: '/seat0', hook: seat0, other: creator, n: evs.length - before },
    ];
    let checked = 0;
    for (const { p, hook, other, n } of hooks) {
        const reqs = await delivered(p, n);
        const std = new Webhook(hook.standard_secret);
        const raw = new Webhook(hook.secret, { format: 'raw' });
        const wrong = new Webhook(other.standard_secret);
        const ids = new Set();
        for (const r of reqs) {
            const h = r.headers;
            const what = `${p} ${h['webhook-id']}`;
            assert.ok(h['webhook-id'] && h['webhook-timestamp'] && h['webhook-signature'], what);
            assert.match(h['webhook-signature'], /^v1,[A-Za-z0-9+/]{43}=$/, what);
            const payload = std.verify(r.body, h);
            assert.deepEqual(payload, JSON.parse(r.body), what);
            assert.deepEqual(raw.verify(r.body, h), payload, what);
            assert.equal(h['webhook-timestamp'], String(payload.timestamp), what);
            assert.equal(h['webhook-timestamp'], h['x-tilehall-timestamp'], what);
            assert.equal(payload.game, game, what);
            assert.equal(h['x-tilehall-delivery'], `${game}:${payload.event.seq}`, what);
            const mac = crypto.createHmac('sha256', hook.secret).update(r.body).digest('hex');
            assert.equal(h['x-tilehall-signature'], `sha256=${mac}`, what);
            assert.ok(!ids.has(h['webhook-id']), `${what}: the id of another message`);
            ids.add(h['webhook-id']);

            // What must fail: a tampered body, timestamp or id, another webhook's secret.
            const tampered = r.body.replace(`"seq":${payload.event.seq}`, `"seq":${payload.event.seq + 1}`);
            assert.notEqual(tampered, r.body);
            assert.throws(() => std.verify(tampered, h), WebhookVerificationError, what);
            assert.throws(() => std.verify(r.body + ' ', h), WebhookVerificationError, what);
            const ts = Number(h['webhook-timestamp']);
            assert.throws(
                () => std.verify(r.body, { ...h, 'webhook-timestamp': String(ts - 1) }),
                WebhookVerificationError,
                what,
            );
            assert.throws(
                () => std.verify(r.body, { ...h, 'webhook-id': h['webhook-id'] + 'x' }),
                WebhookVerificationError,
                what,
            );
            assert.throws(() => wrong.verify(r.body, h), WebhookVerificationError, what);
            checked++;
        }
        assert.equal(reqs.length, n, `${p}: one delivery per event`);
    }

    // The first request was answered 500: its retry carries the same webhook-id, and each
    // attempt is signed with its own timestamp.
    const failed = got.filter((r) => r.status >= 300);
    assert.equal(failed.length, 1);
    const retry = got.find(
        (r) => r.status < 300 && r.path === failed[0].path && r.headers['x-tilehall-delivery'] === failed[0].headers['x-tilehall-delivery'],
    );
    assert.ok(retry, 'the failed delivery was retried');
    assert.equal(retry.headers['webhook-id'], failed[0].headers['webhook-id']);
    assert.equal(retry.headers['x-tilehall-attempt'], '2');
    new Webhook(creator.standard_secret).verify(failed[0].body, failed[0].headers);
    // Messages of the two webhooks have ids of their own.
    const idsOf = (p) => new Set(got.filter((r) => r.path === p).map((r) => r.headers['webhook-id']));
    const common = [...idsOf('/creator')].filter((id) => idsOf('/seat0').has(id));
    assert.deepEqual(common, []);
    assert.ok(checked > evs.length, `${checked} deliveries checked`);
});

test('the server stops cleanly on SIGTERM', async () => {
    const done = new Promise((r) => server.once('exit', (code, signal) => r({ code, signal })));
    server.kill('SIGTERM');
    const { code, signal } = await done;
    assert.deepEqual({ code, signal }, { code: 0, signal: null }, `see ${logPath}`);
});
