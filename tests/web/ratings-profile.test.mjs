// ratings-profile.test.mjs: a player's profile in the web client (issue 25; api.md
// "Ratings and leaderboards") in headless Chromium, on ratings written into a fresh
// database (tilehall_webratings_profile; ratings-harness.mjs): the ratings per pool with
// the provisional mark, the history as a chart and a table, another pool's history on
// choosing it; the finished games only when the server answers their list, and a page of
// it (given to the page) shown; the same on a 360-pixel phone in Traditional Chinese, no
// wider than the screen; axe-core finds no violation.
// Screenshots: build/web-artifacts/ratings-*.png (WEB_ARTIFACTS).
//
//   node --test tests/web/     (make test-web)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { artifacts, axe, DESKTOP, makePlayer, noSideways, PHONE, ratingsServer, seedAnn, watchedPage } from './ratings-harness.mjs';

const env = ratingsServer('tilehall_webratings_profile');
let annId = null; // the player the first test makes and gives ratings

test('a profile on a desktop', { timeout: 120000 }, async () => {
    const { api } = env;
    const { ctx, page, lines } = await watchedPage(env, DESKTOP);
    const ann = await makePlayer(page, api, 'Ann');
    annId = ann;
    seedAnn(env.sql, ann);

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
    // A page of that list as openapi's PlayerGames has it (given to the page here): each
    // game, a rated one with each seat's change.
    const seats = (a, b, ra, rb) => [{ seat: 0, name: 'Ann', score: a, rating_before: ra[0], rating_after: ra[1] },
        { seat: 1, name: 'Bot (greedy)', score: b, rating_before: rb[0], rating_after: rb[1] }];
    const myGame = (id, rated, players) => ({ id, ruleset: 'classic', status: 'finished', version: 40, seat: 0,
        my_turn: false, turn: null, deadline: null, updated_at: '2026-11-30T10:00:00Z', rated, players });
    await page.route(`**/v1/players/${ann}/games?*`, (route) => route.fulfill({ status: 200, json: {
        player: ann, name: 'Ann', next_cursor: null, games: [
            myGame('6f1c2a9e-0000-4000-8000-000000000001', true, seats(31, 20, [1600, 1642], [1597, 1585])),
            myGame('6f1c2a9e-0000-4000-8000-000000000002', false, seats(12, 25, [null, null], [null, null]))] } }));
    await page.reload();
    await page.waitForSelector('#finished-games li a');
    assert.deepEqual(await page.$$eval('#finished-games li .who', (l) => l.map((x) => x.textContent)),
        ['Ann 31 (+42) · Bot (greedy) 20 (−12)', 'Ann 12 · Bot (greedy) 25']);
    assert.equal(await page.locator('#finished-games li .badge.rated').count(), 1);
    await page.unroute(`**/v1/players/${ann}/games?*`);
    await axe(page, 'a profile');
    await page.screenshot({ path: path.join(artifacts, 'ratings-profile.png'), fullPage: true });
    await page.selectOption('#history-pool', 'hills');
    await page.waitForFunction(() => document.querySelectorAll('#history-body svg .pt').length === 4, null, { timeout: 5000 });

    assert.deepEqual(lines, []);
    await ctx.close();
});

test('a profile on a phone, in Traditional Chinese', { timeout: 60000 }, async () => {
    assert.ok(annId, 'the test before made no player');
    const { api } = env;
    const { ctx, page, lines } = await watchedPage(env, PHONE);
    await page.goto(api + '/#/leaderboard/classic');
    await page.goto(`${api}/#/player/${annId}`);
    await page.waitForSelector('#history-table');
    assert.equal(await page.textContent('#rh-h'), '等級分紀錄');
    assert.ok(await noSideways(page), 'the profile is wider than the phone');
    await axe(page, 'a profile on a phone');
    await page.screenshot({ path: path.join(artifacts, 'ratings-profile-phone.png'), fullPage: true });
    assert.deepEqual(lines, []);
    await ctx.close();
});
