// ratings-harness.mjs: what the web client's ratings tests (ratings-*.test.mjs) share: the
// real server (build/tilehall, or TILEHALL_BIN) on a fresh database of the test file's
// own, serving web/, every request through the spec's validating proxy (an answer that
// breaks openapi.yaml fails the file), headless Chromium; ratings written into the
// database as the rating update leaves them (0023_ratings.sql); axe-core run in a page.
// Each file has its own server so that each stays within make test-web's 150 s a file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { spawnServer } from '../common/node.cjs';

const top = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const bin = process.env.TILEHALL_BIN || path.join(top, 'build', 'tilehall');
const browserPath = process.env.CHROMIUM || '/usr/bin/chromium';
const logDir = path.dirname(process.env.WEB_SERVER_LOG || path.join(top, 'build', 'web-server.log'));
export const artifacts = process.env.WEB_ARTIFACTS || path.join(top, 'build', 'web-artifacts');
const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

// The hooks that start and stop it all for database `db` (logs build/<db>-server.log and
// -proxy.log). Returns {api, browser, sql} (filled in once the hooks ran).
export function ratingsServer(db) {
    const serverLog = path.join(logDir, `${db}-server.log`);
    const proxyLog = path.join(logDir, `${db}-proxy.log`);
    const env = { api: null, browser: null, sql: null };
    let server, proxyPid, dbUrl;
    test.before(async () => {
        assert.ok(fs.existsSync(bin), `${bin} is missing (make ${path.relative(top, bin)})`);
        fs.mkdirSync(artifacts, { recursive: true });
        const pg = spawnSync(path.join(top, 'scripts', 'pg-start.sh'), ['--fast', '--fresh', db],
            { cwd: top, encoding: 'utf8', timeout: 30000 });
        assert.equal(pg.status, 0, `pg-start failed: ${pg.stderr}`);
        dbUrl = pg.stdout.trim();
        env.sql = (text) => sql(dbUrl, text);
        const senv = { ...process.env, DATABASE_URL: dbUrl, THREADS: '4', LOG_LEVEL: 'warn', CREATE_LIMIT_PER_MINUTE: '0',
            MAX_CONNECTIONS_PER_IP: '0', BOT_WORKERS: '2', JOBS_POLL_MS: '50', WEB_DIR: path.join(top, 'web'),
            // A game's analysis as make test-itest has it: the pages are under test, not its
            // strength, and the defaults' seconds of CPU a game are many on a busy machine.
            ANALYSIS_ITERATIONS: '20', ANALYSIS_DEALS: '4' };
        const log = fs.openSync(serverLog, 'w');
        let port;
        ({ child: server, port } = await spawnServer(bin, { cwd: top, stdio: ['ignore', log, log], env: senv }, 0));
        const pr = spawnSync(path.join(top, 'scripts', 'spec-proxy.sh'), ['0', `http://127.0.0.1:${port}`, proxyLog],
            { cwd: top, encoding: 'utf8', timeout: 60000 }); // the script gives up by itself after 30 s
        assert.equal(pr.status, 0, `spec-proxy failed: ${pr.stderr}`);
        const [pid, proxyPort] = pr.stdout.trim().split(' ').map(Number);
        proxyPid = pid;
        env.api = `http://127.0.0.1:${proxyPort}`;
        seedBoard(env.sql);
        env.browser = await chromium.launch({ executablePath: browserPath, headless: true, timeout: 20000,
            args: process.getuid && process.getuid() === 0 ? ['--no-sandbox'] : [] });
    });
    test.after(async () => {
        if (env.browser) await env.browser.close();
        if (proxyPid) {
            try { process.kill(proxyPid, 'SIGTERM'); } catch { /* gone */ }
            const bad = fs.readFileSync(proxyLog, 'utf8').split('\n').filter((l) => /VIOLATION/.test(l));
            assert.deepEqual(bad, [], 'answers that break openapi.yaml');
        }
        if (server && server.exitCode === null) {
            server.kill('SIGTERM');
            const code = await new Promise((ok) => server.on('exit', (c) => ok(c)));
            assert.equal(code, 0, `the server exited with ${code}; see ${serverLog}`);
        }
    });
    return env;
}

function sql(dbUrl, text) {
    const r = spawnSync('psql', [dbUrl, '-v', 'ON_ERROR_STOP=1', '-qAt', '-c', text], { encoding: 'utf8', timeout: 20000 });
    assert.equal(r.status, 0, `psql: ${r.stderr}`);
    return r.stdout.trim();
}

// A page's console errors and failed requests, into `lines`. A 404 of the finished-games
// list is expected while the server does not have that endpoint (the page then leaves it
// out).
export function watch(page, lines) {
    page.on('console', (m) => {
        if (m.type() !== 'error') return;
        const url = (m.location() && m.location().url) || '';
        if (/Failed to load resource.*404/.test(m.text()) && /\/games\?status=finished/.test(url)) return;
        lines.push(`console: ${m.text()} ${url}`);
    });
    page.on('pageerror', (e) => lines.push(`pageerror: ${e.message}`));
}

// The two screens the tests use: a desktop in British English, a phone in Traditional
// Chinese.
export const DESKTOP = { viewport: { width: 1280, height: 900 }, locale: 'en-GB' };
export const PHONE = { viewport: { width: 360, height: 740 }, locale: 'zh-TW', isMobile: true, hasTouch: true };

// A new browser context of the server `env` (ratingsServer) on the screen `screen` (DESKTOP
// or PHONE) and a page in it whose console errors and failed requests go to `lines`
// (watch): { ctx, page, lines }.
export async function watchedPage(env, screen) {
    const ctx = await env.browser.newContext(screen);
    const page = await ctx.newPage();
    const lines = [];
    watch(page, lines);
    return { ctx, page, lines };
}

// Fails with axe-core's violations on the page as it is now (WCAG 2.x A and AA, best
// practices), if any.
export async function axe(page, what) {
    if (!(await page.evaluate(() => !!window.axe))) await page.evaluate(axeSource);
    const res = await page.evaluate(() => window.axe.run(document,
        { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } }));
    const v = res.violations.map((x) => `${x.id}: ${x.nodes.slice(0, 3).map((n) => `${n.target.join(' ')} ` +
        `(${n.failureSummary.replace(/\s+/g, ' ')})`).join(', ')}${x.nodes.length > 3 ? ` and ${x.nodes.length - 3} more` : ''}`);
    assert.deepEqual(v, [], `axe on ${what}`);
}

// True when the page is no wider than its window (nothing to scroll sideways).
export const noSideways = (page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);

// A player named `name` made through the page (Save); its id.
export async function makePlayer(page, api, name) {
    await page.goto(api + '/');
    await page.fill('#myname', name);
    await page.click('button:has-text("Save")');
    await page.waitForSelector('#my-profile');
    return page.evaluate((a) => JSON.parse(localStorage.getItem(`tilehall.player@${a}`)).id, api);
}

// The ratings that rated games leave (0023_ratings.sql): 30 people ranked by a rating
// from 1310 to 1600, three computer players (two ranked, one provisional).
function seedBoard(sql) {
    sql(`INSERT INTO people (id, name, token_hash)
           SELECT gen_random_uuid(), 'Player ' || lpad(i::text, 2, '0'), sha256(('seed' || i)::bytea)
           FROM generate_series(1, 30) i;
         INSERT INTO ratings (subject, pool, person_id, rating, deviation, volatility, games, won, drawn, lost, last_rated_at)
           SELECT id::text, 'classic', id, 1300 + 10 * substr(name, 8)::int, 60 + substr(name, 8)::int, 0.06, 20, 9, 1, 10,
                  now() - interval '1 day'
           FROM people WHERE name LIKE 'Player %';
         INSERT INTO ratings (subject, pool, bot, think_class, rating, deviation, volatility, games, won, drawn, lost, last_rated_at)
           VALUES ('bot:greedy:fast', 'classic', 'greedy', 'fast', 1585, 90, 0.06, 40, 20, 0, 20, now()),
                  ('bot:random:fast', 'classic', 'random', 'fast', 1210, 100, 0.06, 40, 5, 0, 35, now()),
                  ('bot:mcts:normal', 'classic', 'mcts', 'normal', 1700, 150, 0.06, 4, 3, 0, 1, now());`);
}

// Ann's (the page's player's) ratings: 1642 in classic with 12 games of history, a
// provisional rating in hills with 3.
export function seedAnn(sql, annId) {
    sql(`INSERT INTO ratings (subject, pool, person_id, rating, deviation, volatility, games, won, drawn, lost, last_rated_at)
           VALUES ('${annId}', 'classic', '${annId}', 1642, 74, 0.06, 12, 8, 1, 3, now() - interval '1 hour'),
                  ('${annId}', 'hills', '${annId}', 1531, 180, 0.06, 3, 2, 0, 1, now() - interval '2 hours');
         INSERT INTO rating_history (game_id, seat, subject, pool, seats, place, rating_before, deviation_before,
                                     volatility_before, rating_after, deviation_after, volatility_after, rated_at)
           WITH walk AS (SELECT i, 1500 + round(142.0 * i / 12) - CASE WHEN i % 4 = 3 THEN 30 ELSE 0 END AS r
                         FROM generate_series(0, 12) i)
           SELECT gen_random_uuid(), 0, '${annId}', 'classic', CASE WHEN a.i % 3 = 0 THEN 4 ELSE 2 END, a.i % 2,
                  b.r, 350 - 23 * b.i, 0.06, a.r, 350 - 23 * a.i, 0.06, now() - (13 - a.i) * interval '1 day'
           FROM walk a JOIN walk b ON b.i = a.i - 1;
         INSERT INTO rating_history (game_id, seat, subject, pool, seats, place, rating_before, deviation_before,
                                     volatility_before, rating_after, deviation_after, volatility_after, rated_at)
           SELECT gen_random_uuid(), 1, '${annId}', 'hills', 2, i % 2, 1500 + 10 * (i - 1), 350, 0.06, 1500 + 10 * i,
                  350 - 50 * i, 0.06, now() - (4 - i) * interval '1 hour'
           FROM generate_series(1, 3) i;`);
}
