// ratings-game.test.mjs: ratings where games are made and played, in the web client
// (issue 25; api.md "Ratings and leaderboards"), in headless Chromium, on a fresh database
// (tilehall_webratings_game; ratings-harness.mjs) with computer players' ratings written
// into it:
//   - a computer player's rating beside its seat, none beside a person's seat while she
//     has none, hers once she has one (from her profile); a person's when the state
//     carries one, each seat's change when the game_finished event carries them, and the
//     rated mark (these three added to the server's answers, in openapi's shapes);
//   - axe-core finds no violation on the pages.
// Screenshots: build/web-artifacts/ratings-*.png (WEB_ARTIFACTS).
//
//   node --test tests/web/     (make test-web)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { artifacts, axe, DESKTOP, makePlayer, ratingsServer, seedAnn, watchedPage } from './ratings-harness.mjs';

const env = ratingsServer('tilehall_webratings_game');

test('ratings beside the seats of a game', { timeout: 140000 }, async () => {
    const { api } = env;
    const { ctx, page, lines } = await watchedPage(env, DESKTOP);
    const ann = await makePlayer(page, api, 'Ann');

    // A game against greedy thinking 10 ms (fast): its classic rating beside its seat, none
    // beside Ann's (she has none, the state carries none); Ann's own once she has one (her
    // profile); the state's when it carries one.
    await page.goto(api + '/#/');
    await page.waitForSelector('#ruleset option', { state: 'attached' });
    await (await (await page.$$('.seat'))[1].$('.seat-think')).fill('10');
    await page.click('#create');
    await page.waitForSelector('#scores tbody tr');
    await page.waitForSelector('.seat-rating[data-seat="1"]', { timeout: 10000 });
    assert.equal(await page.textContent('.seat-rating[data-seat="1"] .rating'), '1585');
    assert.equal(await page.$('.seat-rating[data-seat="0"]'), null);
    const gid = await page.evaluate(() => location.hash.split('/')[2]);
    seedAnn(env.sql, ann);
    await page.reload();
    await page.waitForSelector('.seat-rating[data-seat="0"]', { timeout: 10000 });
    assert.equal(await page.textContent('.seat-rating[data-seat="0"] .rating'), '1642');
    await page.route(`**/v1/games/${gid}`, async (route) => {
        const res = await route.fetch();
        const g = await res.json();
        g.players[0].rating = { rating: 1650, deviation: 80, provisional: false, games: 13 };
        await route.fulfill({ response: res, json: g });
    });
    await page.reload();
    await page.waitForSelector('.seat-rating[data-seat="0"]', { timeout: 10000 });
    assert.equal(await page.textContent('.seat-rating[data-seat="0"] .rating'), '1650');
    // Waiting for handlers still running: the page may still be reading (after its history
    // it reads an active game's state again), and a handler cut off fails the file later.
    await page.unrouteAll({ behavior: 'wait' });
    // Resigned, the game is over: its game_finished event given each seat's rating before
    // and after (`ratings`, openapi's SeatRatingChange) and the state `rated`, the changes
    // stand beside the seats, Ann's name leads to her profile, the title says rated.
    page.on('dialog', (d) => d.accept());
    await page.click('#resign');
    await page.waitForFunction(() => document.querySelector('#history li[data-type=game_finished]'), null,
        { timeout: 10000 });
    await page.route(`**/v1/games/${gid}/events?*`, async (route) => {
        const res = await route.fetch();
        const b = await res.json();
        for (const ev of b.events) {
            if (ev.type !== 'game_finished') continue;
            ev.ratings = [{ seat: 0, player_id: ann, bot: null, think_class: null, place: 2,
                before: { rating: 1642, deviation: 74 }, after: { rating: 1630, deviation: 73 } },
            { seat: 1, player_id: null, bot: 'greedy', think_class: 'fast', place: 1,
                before: { rating: 1585, deviation: 90 }, after: { rating: 1597, deviation: 89 } }];
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
    assert.equal(await page.getAttribute('#scores tr[data-seat="0"] th a', 'href'), '#/player/' + ann);
    await axe(page, 'a finished game');
    await page.screenshot({ path: path.join(artifacts, 'ratings-game-seats.png') });
    await page.unrouteAll({ behavior: 'wait' });
    assert.deepEqual(lines, []);
    await ctx.close();
});
