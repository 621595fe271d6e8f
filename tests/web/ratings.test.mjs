// ratings.test.mjs: the web client's ratings (issue 25; api.md "Ratings and leaderboards")
// in a real browser. The real server (build/tilehall, or TILEHALL_BIN) on a fresh database
// (tilehall_webratings) serving web/, every request through the spec's validating proxy;
// ratings written into the database as the rating update leaves them (people, computer
// players, one person's history), then read by the page in headless Chromium:
//   - a profile: ratings per pool with the provisional mark, the history as a chart and a
//     table, another pool's history on choosing it, at desktop and phone widths;
//   - a leaderboard: ranks in order, paged forward and back (by keyboard too), the
//     computer players on asking, a name leading to that player's profile;
//   - the computer players' page; a computer player's rating beside its seat in a game,
//     a person's when the game's state carries one, and each seat's change when the
//     game_finished event carries them (these two added to the server's answers, as the
//     server of this branch does not send them yet);
//   - a rated game asked for at creation: the request, and the server's refusal shown;
//   - axe-core finds no violation on any of these pages; no page is wider than a phone.
// Screenshots go to build/web-artifacts/ratings-*.png (WEB_ARTIFACTS).
//
//   node --test tests/web/     (make test-web)
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
const serverLog = path.join(logDir, 'web-ratings-server.log');
const proxyLog = path.join(logDir, 'web-ratings-proxy.log');
const artifacts = process.env.WEB_ARTIFACTS || path.join(top, 'build', 'web-artifacts');
const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let api, server, browser, proxyPid, dbUrl;

test.before(async () => {
    assert.ok(fs.existsSync(bin), `${bin} is missing (make ${path.relative(top, bin)})`);
    fs.mkdirSync(artifacts, { recursive: true });
    const pg = spawnSync(path.join(top, 'scripts', 'pg-start.sh'), ['--fast', '--fresh', 'tilehall_webratings'],
        { cwd: top, encoding: 'utf8', timeout: 30000 });
    assert.equal(pg.status, 0, `pg-start failed: ${pg.stderr}`);
    dbUrl = pg.stdout.trim();
    const env = { ...process.env, DATABASE_URL: dbUrl, THREADS: '4', LOG_LEVEL: 'warn', CREATE_LIMIT_PER_MINUTE: '0',
        MAX_CONNECTIONS_PER_IP: '0', BOT_WORKERS: '2', JOBS_POLL_MS: '50', WEB_DIR: path.join(top, 'web') };
    const log = fs.openSync(serverLog, 'w');
    let port;
    ({ child: server, port } = await spawnServer(bin, { cwd: top, stdio: ['ignore', log, log], env }, 0));
    const direct = `http://127.0.0.1:${port}`;
    const pr = spawnSync(path.join(top, 'scripts', 'spec-proxy.sh'), ['0', direct, proxyLog],
        { cwd: top, encoding: 'utf8', timeout: 40000 });
    assert.equal(pr.status, 0, `spec-proxy failed: ${pr.stderr}`);
    const [pid, proxyPort] = pr.stdout.trim().split(' ').map(Number);
    proxyPid = pid;
    api = `http://127.0.0.1:${proxyPort}`;
    seedBoard();
    browser = await chromium.launch({ executablePath: browserPath, headless: true, timeout: 20000,
        args: process.getuid && process.getuid() === 0 ? ['--no-sandbox'] : [] });
});

test.after(async () => {
    if (browser) await browser.close();
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

function sql(text) {
    const r = spawnSync('psql', [dbUrl, '-v', 'ON_ERROR_STOP=1', '-qAt', '-c', text], { encoding: 'utf8', timeout: 20000 });
    assert.equal(r.status, 0, `psql: ${r.stderr}`);
    return r.stdout.trim();
}

// Console errors and failed requests of a page. A 404 of the finished-games list is
// expected while the server does not have that endpoint (the page then leaves it out).
function watch(page, lines) {
    page.on('console', (m) => {
        if (m.type() !== 'error') return;
        const url = (m.location() && m.location().url) || '';
        if (/Failed to load resource.*404/.test(m.text()) && /\/games\?status=finished/.test(url)) return;
        lines.push(`console: ${m.text()} ${url}`);
    });
    page.on('pageerror', (e) => lines.push(`pageerror: ${e.message}`));
}

// axe-core's violations on the page as it is now (WCAG 2.x A and AA, best practices).
async function axe(page, what) {
    if (!(await page.evaluate(() => !!window.axe))) await page.evaluate(axeSource);
    const res = await page.evaluate(() => window.axe.run(document,
        { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } }));
    const v = res.violations.map((x) => `${x.id}: ${x.nodes.slice(0, 3).map((n) => `${n.target.join(' ')} ` +
        `(${n.failureSummary.replace(/\s+/g, ' ')})`).join(', ')}${x.nodes.length > 3 ? ` and ${x.nodes.length - 3} more` : ''}`);
    assert.deepEqual(v, [], `axe on ${what}`);
}

const noSideways = (page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);

// The ratings that rated games leave (0023_ratings.sql): 30 people ranked by a rating
// from 1310 to 1600, three computer players (two ranked, one provisional).
function seedBoard() {
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
function seedAnn(annId) {
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

test('ratings in the web client: profile, leaderboard, computer players, seats, rated games', { timeout: 120000 }, async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
    const page = await ctx.newPage();
    const lines = [];
    watch(page, lines);
    await page.goto(api + '/');
    await page.fill('#myname', 'Ann');
    await page.click('button:has-text("Save")');
    await page.waitForSelector('#my-profile');
    const ann = await page.evaluate((a) => JSON.parse(localStorage.getItem(`tilehall.player@${a}`)).id, api);
    seedAnn(ann);
    await axe(page, 'the home page');

    // A rated game asked for: hints and a chosen deck are set aside; without a clock the
    // server refuses, and the page says so where the button is, staying on the form.
    await page.fill('#deck', 'U V E');
    await page.check('#rated');
    assert.equal(await page.isDisabled('#hints'), true);
    assert.equal(await page.isChecked('#hints'), false);
    assert.equal(await page.isDisabled('#deck'), true);
    const sent = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/v1/games'));
    await page.click('#create');
    const body = JSON.parse((await sent).postData());
    assert.equal(body.rated, true);
    assert.ok(!('deck' in body) && !('hints' in body), `a rated game's request: ${JSON.stringify(body)}`);
    await page.waitForFunction(() => !document.querySelector('#new-h').parentElement.querySelector('.err').hidden, null,
        { timeout: 10000 });
    const refusal = await page.textContent('#new-h ~ .err');
    assert.match(refusal, /^(Refused: |This game cannot be rated: ).+/);
    assert.match(await page.evaluate(() => location.hash), /^(#\/?)?$/);
    await page.screenshot({ path: path.join(artifacts, 'ratings-rated-refused.png') });
    // The browser logs the refused request itself: that one line, and nothing else.
    assert.deepEqual(lines.filter((l) => !/status of 400 .*\/v1\/games$/.test(l)), []);
    lines.length = 0;
    await page.uncheck('#rated');
    assert.equal(await page.isDisabled('#hints'), false);

    // Ann's profile: the ratings per pool, classic's history (the pool played most).
    await page.click('#nav-me');
    await page.waitForSelector('#ratings-table');
    assert.equal(await page.textContent('#profile-name'), 'Ann (you)');
    const cells = await page.$$eval('#ratings-table tbody tr', (trs) => trs.map((tr) => ({ pool: tr.dataset.pool,
        rating: tr.querySelector('.rating').textContent, provisional: tr.querySelector('.rating').classList.contains('provisional') })));
    assert.deepEqual(cells, [{ pool: 'classic', rating: '1642', provisional: false },
        { pool: 'hills', rating: '1531? (provisional)', provisional: true }]);
    await page.waitForSelector('#history-table');
    assert.equal(await page.inputValue('#history-pool'), 'classic');
    assert.equal(await page.locator('#history-body svg .pt').count(), 13, 'the start and one point per game');
    assert.equal(await page.locator('#history-table tbody tr').count(), 12);
    const newest = await page.textContent('#history-table tbody tr:first-child .change');
    assert.match(newest, /^1600 → 1642 \(\+42\)$/);
    assert.match(await page.getAttribute('#history-body svg', 'aria-label'), /12 rated games: from 1500 to 1642/);
    // The finished games: listed when the server answers the list, else left out.
    const fg = await fetch(`${api}/v1/players/${ann}/games?status=finished`);
    await page.waitForTimeout(300);
    assert.equal(await page.isHidden('#profile-games'), fg.status !== 200, `finished games: ${fg.status}`);
    await axe(page, 'a profile');
    await page.screenshot({ path: path.join(artifacts, 'ratings-profile.png'), fullPage: true });
    await page.selectOption('#history-pool', 'hills');
    await page.waitForFunction(() => document.querySelectorAll('#history-body svg .pt').length === 4, null, { timeout: 5000 });

    // The leaderboard: Ann first, 25 a page, paged forward and back by keyboard.
    await page.click('#nav-board');
    await page.waitForSelector('#board tbody tr');
    const ranks = () => page.$$eval('#board tbody tr', (trs) => trs.map((tr) => Number(tr.dataset.rank)));
    const ratingsShown = () => page.$$eval('#board tbody .rating', (r) => r.map((x) => Number(x.textContent)));
    assert.deepEqual(await ranks(), Array.from({ length: 25 }, (_, i) => i + 1));
    const shown = await ratingsShown();
    assert.deepEqual(shown, [...shown].sort((a, b) => b - a), 'best first');
    assert.deepEqual(shown.slice(0, 3), [1642, 1600, 1590]);
    assert.equal(await page.textContent('#board tr.me th'), 'Ann');
    assert.equal(await page.isDisabled('#board-prev'), true);
    await axe(page, 'a leaderboard');
    await page.screenshot({ path: path.join(artifacts, 'ratings-leaderboard.png'), fullPage: true });
    await page.focus('#board-next');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('#board tbody tr').dataset.rank === '26', null, { timeout: 5000 });
    assert.deepEqual(await ranks(), [26, 27, 28, 29, 30, 31]);
    assert.equal(await page.isDisabled('#board-next'), true);
    assert.equal(await page.evaluate(() => document.activeElement.id), 'board-prev', 'focus kept on the pager');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('#board tbody tr').dataset.rank === '1', null, { timeout: 5000 });
    // With the computer players: greedy (1585) among the people, random (1210) last, mcts
    // (provisional) not at all.
    await page.check('#board-bots');
    await page.waitForFunction(() => document.querySelector('#board tbody tr:nth-child(4) .badge.bot'), null, { timeout: 5000 });
    assert.match(await page.textContent('#board tbody tr:nth-child(4) th'), /greedy.*fast/);
    await page.click('#board-next');
    await page.waitForFunction(() => document.querySelector('#board tbody tr').dataset.rank === '26', null, { timeout: 5000 });
    assert.deepEqual(await ranks(), [26, 27, 28, 29, 30, 31, 32, 33]);
    assert.match(await page.textContent('#board tbody tr:last-child th'), /random/);
    // A name leads to that player's profile.
    await page.click('#board tbody tr:first-child th a');
    await page.waitForSelector('#ratings-table');
    assert.match(await page.textContent('#profile-name'), /^Player \d\d$/);

    // The computer players' page.
    await page.click('#nav-bots');
    await page.waitForSelector('#bots-table tbody tr');
    assert.equal(await page.locator('#bots-table tbody tr').count(), 9);
    assert.equal(await page.textContent('tr[data-bot="greedy:fast"] td:nth-child(2) .rating'), '1585');
    assert.match(await page.textContent('tr[data-bot="mcts:normal"] td:nth-child(2) .rating'), /^1700\?/);
    assert.equal(await page.textContent('tr[data-bot="mcts:slow"] td:nth-child(2)'), '—');
    await axe(page, 'the computer players');
    await page.screenshot({ path: path.join(artifacts, 'ratings-bots.png'), fullPage: true });

    // A game against greedy thinking 10 ms (fast): its classic rating beside its seat, none
    // beside Ann's (the state carries none); then the state given one for Ann's seat.
    await page.goto(api + '/#/');
    await page.waitForSelector('#ruleset option', { state: 'attached' });
    await (await (await page.$$('.seat'))[1].$('.seat-think')).fill('10');
    await page.click('#create');
    await page.waitForSelector('#scores tbody tr');
    await page.waitForSelector('.seat-rating[data-seat="1"]', { timeout: 10000 });
    assert.equal(await page.textContent('.seat-rating[data-seat="1"] .rating'), '1585');
    assert.equal(await page.$('.seat-rating[data-seat="0"]'), null);
    await axe(page, 'a game');
    const gid = await page.evaluate(() => location.hash.split('/')[2]);
    await page.route(`**/v1/games/${gid}`, async (route) => {
        const res = await route.fetch();
        const g = await res.json();
        g.players[0].rating = { rating: 1642, deviation: 74, provisional: false, games: 12 };
        await route.fulfill({ response: res, json: g });
    });
    await page.reload();
    await page.waitForSelector('.seat-rating[data-seat="0"]', { timeout: 10000 });
    assert.equal(await page.textContent('.seat-rating[data-seat="0"] .rating'), '1642');
    await page.unroute(`**/v1/games/${gid}`);
    // Resigned, the game is over: its game_finished event given each seat's rating before
    // and after (two of the forms the page reads) and the state `rated`, the changes stand
    // beside the seats and the title says rated.
    page.on('dialog', (d) => d.accept());
    await page.click('#resign');
    await page.waitForFunction(() => document.querySelector('#history li[data-type=game_finished]'), null,
        { timeout: 10000 });
    await page.route(`**/v1/games/${gid}/events?*`, async (route) => {
        const res = await route.fetch();
        const b = await res.json();
        for (const ev of b.events) {
            if (ev.type !== 'game_finished') continue;
            ev.ratings = [{ seat: 0, before: { rating: 1642, deviation: 74 }, after: { rating: 1630, deviation: 73 } },
                { seat: 1, rating_before: 1585, rating_after: 1597 }];
        }
        await route.fulfill({ response: res, json: b });
    });
    await page.route(`**/v1/games/${gid}`, async (route) => {
        const res = await route.fetch();
        await route.fulfill({ response: res, json: { ...(await res.json()), rated: true } });
    });
    await page.reload();
    await page.waitForSelector('.seat-rating[data-seat="0"] .change', { timeout: 10000 });
    assert.equal(await page.textContent('.seat-rating[data-seat="0"] .change'), '1642 → 1630 (−12)');
    assert.equal(await page.textContent('.seat-rating[data-seat="1"] .change'), '1585 → 1597 (+12)');
    assert.equal(await page.textContent('#game-title .badge.rated'), 'rated');
    await axe(page, 'a finished game');
    await page.screenshot({ path: path.join(artifacts, 'ratings-game-seats.png') });
    await page.unrouteAll();
    assert.deepEqual(lines, []);
    await ctx.close();
});

test('ratings pages on a phone, in Traditional Chinese', { timeout: 60000 }, async () => {
    const ctx = await browser.newContext({ viewport: { width: 360, height: 740 }, locale: 'zh-TW', isMobile: true,
        hasTouch: true });
    const page = await ctx.newPage();
    const lines = [];
    watch(page, lines);
    await page.goto(api + '/#/leaderboard/classic');
    await page.waitForSelector('#board tbody tr');
    assert.equal(await page.textContent('#board-title'), '排行榜：卡卡頌');
    assert.ok(await noSideways(page), 'the leaderboard is wider than the phone');
    await axe(page, 'a leaderboard on a phone');
    await page.screenshot({ path: path.join(artifacts, 'ratings-leaderboard-phone.png'), fullPage: true });
    await page.click('#board tbody tr:first-child th a');
    await page.waitForSelector('#history-table');
    assert.ok(await noSideways(page), 'the profile is wider than the phone');
    await axe(page, 'a profile on a phone');
    await page.screenshot({ path: path.join(artifacts, 'ratings-profile-phone.png'), fullPage: true });
    await page.goto(api + '/#/bots');
    await page.waitForSelector('#bots-table tbody tr');
    assert.ok(await noSideways(page), 'the computer players\' page is wider than the phone');
    await page.screenshot({ path: path.join(artifacts, 'ratings-bots-phone.png'), fullPage: true });
    assert.deepEqual(lines, []);
    await ctx.close();
});
