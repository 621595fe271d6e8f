// cors.test.mjs: CORS in a real browser. Starts the real server (build/tilehall, or
// TILEHALL_BIN) on a fresh database (scripts/pg-start.sh --fresh tilehall_browser) and a
// tiny page server on another port (so on another origin), loads the page in headless
// Chromium (Debian's /usr/bin/chromium, or CHROMIUM, driven by playwright-core) and lets the
// page's own JavaScript play against the API: create a game (a JSON POST: a preflight),
// open an EventSource on its events, draw (Authorization: a preflight), read the ETag of a
// GET (readable only as an exposed header), place with If-Match and Idempotency-Key, and
// receive the events committed after the stream opened. Also, as a control, a fetch of
// /healthz (which sends no CORS headers) must be refused by the browser. Fails unless every
// step succeeds in the browser; bounded: the whole run gives up after 50 s.
//
//   node --test tests/browser/cors.test.mjs     (make test-browser)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { spawnServer, waitHealthy } from '../common/node.cjs';

const top = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const bin = process.env.TILEHALL_BIN || path.join(top, 'build', 'tilehall');
const browserPath = process.env.CHROMIUM || '/usr/bin/chromium';
const serverLog = process.env.BROWSER_SERVER_LOG || path.join(top, 'build', 'browser-server.log');
const TOTAL_MS = 50000;

// The page: its script plays against the API named in its query string (?api=...), and
// sets window.result to {ok, steps, error} when it is done.
const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>tilehall CORS test</title></head>
<body><pre id="log"></pre>
<script>
const api = new URLSearchParams(location.search).get('api');
const steps = [];
const step = s => { steps.push(s); document.getElementById('log').textContent += s + '\\n'; };
const within = (ms, what, p) => Promise.race([p, new Promise((_, no) =>
    setTimeout(() => no(new Error('timed out: ' + what)), ms))]);
async function expectStatus(res, want, what) {
    if (res.status !== want) throw new Error(what + ': ' + res.status + ' ' + (await res.text()).slice(0, 300));
    return res;
}
async function play() {
    // An anonymous creation key must be 32 characters at least: 128 random bits in hex.
    const createKey = Array.from(crypto.getRandomValues(new Uint8Array(16)),
                                 (b) => b.toString(16).padStart(2, '0')).join('');
    // A JSON POST is no "simple" request: the browser sends a preflight first.
    let res = await fetch(api + '/v1/games', { method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Idempotency-Key': createKey },
        body: JSON.stringify({ ruleset: 'classic', players: [{ name: 'Ann' }, { name: 'Bob' }] }) });
    await expectStatus(res, 201, 'POST /v1/games');
    const game = await res.json();
    const location = res.headers.get('Location');
    if (!location || !location.includes(game.id)) throw new Error('Location not readable: ' + location);
    if (!res.headers.get('X-Request-Id')) throw new Error('X-Request-Id not readable');
    const tokens = {};
    for (const p of game.players) tokens[p.seat] = p.token;
    step('created ' + game.id + ' (Location ' + location + ')');

    // The stream of the game's events; what came before the moves is the replay.
    const received = [];
    let wake = null;
    const es = new EventSource(api + '/v1/games/' + game.id + '/events');
    const onEvent = e => { received.push({ id: Number(e.lastEventId), type: e.type, data: JSON.parse(e.data) }); if (wake) wake(); };
    for (const t of ['game_created', 'tile_drawn', 'tile_placed', 'follower_deployed', 'feature_completed',
                     'game_finished', 'message']) es.addEventListener(t, onEvent);
    await within(10000, 'EventSource open', new Promise((ok, no) => {
        es.onopen = ok;
        es.onerror = () => no(new Error('EventSource error before it opened'));
    }));
    await new Promise(ok => setTimeout(ok, 300));
    const before = received.length ? Math.max(...received.map(e => e.id)) : 0;
    step('stream open, ' + received.length + ' event(s) replayed, last id ' + before);

    // Whose turn; the draw (Authorization: a preflight).
    res = await expectStatus(await fetch(api + '/v1/games/' + game.id + '/turn'), 200, 'GET /turn');
    let turn = await res.json();
    if (turn.phase === 'draw') {
        res = await fetch(api + '/v1/games/' + game.id + '/draw', { method: 'POST',
            headers: { Authorization: 'Bearer ' + tokens[turn.seat], 'Idempotency-Key': 'browser-draw-1' } });
        await expectStatus(res, 200, 'POST /draw');
        step('drew for seat ' + turn.seat);
    }

    // The ETag of a GET: readable only because the server exposes it.
    res = await expectStatus(await fetch(api + '/v1/games/' + game.id + '/turn'), 200, 'GET /turn after the draw');
    const etag = res.headers.get('ETag');
    if (!etag || !/^"\\d+"$/.test(etag)) throw new Error('ETag not readable: ' + etag);
    turn = await res.json();
    if (turn.phase !== 'place' || !turn.placements.length) throw new Error('no placement to make: ' + JSON.stringify(turn).slice(0, 200));
    step('ETag ' + etag + ', ' + turn.placements.length + ' placements');

    // A placement with If-Match, then one with a stale If-Match: 412, readable too.
    const p = turn.placements[0];
    const body = JSON.stringify({ x: p.x, y: p.y, rotation: p.rotation });
    const auth = 'Bearer ' + tokens[turn.seat];
    res = await fetch(api + '/v1/games/' + game.id + '/placements', { method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: auth, 'If-Match': etag,
                   'Idempotency-Key': 'browser-place-1' }, body });
    await expectStatus(res, 201, 'POST /placements');
    step('placed at (' + p.x + ', ' + p.y + ') with If-Match ' + etag);
    res = await fetch(api + '/v1/games/' + game.id + '/placements', { method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: auth, 'If-Match': etag }, body });
    if (res.status !== 412 && res.status !== 409 && res.status !== 403) throw new Error('stale If-Match: ' + res.status);
    step('the stale If-Match answered ' + res.status + ' (' + (await res.json()).code + ')');

    // The events committed after the stream opened arrive on it.
    const placedSeen = () => received.some(e => e.id > before && e.type === 'tile_placed');
    await within(10000, 'tile_placed on the stream', new Promise(ok => {
        wake = () => { if (placedSeen()) ok(); };
        wake();
    }));
    es.close();
    const after = received.filter(e => e.id > before).map(e => e.id + ':' + e.type);
    step('stream brought ' + after.join(', '));

    // The control: /healthz sends no CORS headers, so the browser refuses the page its answer.
    let refused = false;
    try { await fetch(api + '/healthz'); } catch (e) { refused = e instanceof TypeError; }
    if (!refused) throw new Error('the browser let the page read /healthz: CORS is not enforced?');
    step('/healthz refused to the page, as it should be');
}
window.result = null;
within(30000, 'the whole play', play()).then(() => { window.result = { ok: true, steps }; },
    e => { window.result = { ok: false, steps, error: String(e && e.message || e) }; });
</script></body></html>
`;

test('a page on another origin plays through CORS in headless Chromium', { timeout: TOTAL_MS }, async t => {
    assert.ok(fs.existsSync(bin), `${bin} is missing (make ${path.relative(top, bin)})`);
    assert.ok(fs.existsSync(browserPath), `${browserPath} is missing (apt-get install chromium)`);
    const pg = spawnSync(path.join(top, 'scripts', 'pg-start.sh'), ['--fast', '--fresh', 'tilehall_browser'],
        { cwd: top, encoding: 'utf8', timeout: 30000 });
    assert.equal(pg.status, 0, `pg-start failed: ${pg.stderr}`);
    const dbUrl = pg.stdout.trim();

    fs.mkdirSync(path.dirname(serverLog), { recursive: true });
    const log = fs.openSync(serverLog, 'w');
    const { child: server, port: apiPort } = await spawnServer(bin, { cwd: top, stdio: ['ignore', log, log],
        env: { ...process.env, DATABASE_URL: dbUrl, THREADS: '2', LOG_LEVEL: 'warn',
               CREATE_LIMIT_PER_MINUTE: '0' } });
    t.after(() => { if (server.exitCode === null) server.kill('SIGTERM'); });
    const api = `http://127.0.0.1:${apiPort}`;
    await waitHealthy(api, server, 10000, serverLog);

    const pageServer = http.createServer((req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
        res.end(PAGE);
    });
    await new Promise(ok => pageServer.listen(0, '127.0.0.1', ok));
    t.after(() => pageServer.close());
    const pageUrl = `http://127.0.0.1:${pageServer.address().port}/?api=${encodeURIComponent(api)}`;

    const browser = await chromium.launch({ executablePath: browserPath, headless: true, timeout: 20000,
        args: process.getuid && process.getuid() === 0 ? ['--no-sandbox'] : [] });
    t.after(() => browser.close());
    const page = await browser.newPage();
    const consoleLines = [];
    page.on('console', m => consoleLines.push(`${m.type()}: ${m.text()}`));
    page.on('pageerror', e => consoleLines.push(`pageerror: ${e.message}`));
    await page.goto(pageUrl, { timeout: 10000 });
    await page.waitForFunction(() => window.result !== null, null, { timeout: 35000 });
    const result = await page.evaluate(() => window.result);
    for (const s of result.steps) t.diagnostic(s);
    assert.ok(result.ok, `in the browser: ${result.error}\nsteps:\n  ${result.steps.join('\n  ')}\nconsole:\n  ${consoleLines.join('\n  ')}`);

    server.kill('SIGTERM');
    const code = await new Promise(ok => (server.exitCode !== null ? ok(server.exitCode) : server.on('exit', c => ok(c))));
    assert.equal(code, 0, `the server exited with ${code}; see ${serverLog}`);
});
