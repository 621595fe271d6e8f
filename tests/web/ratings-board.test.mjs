// ratings-board.test.mjs: the leaderboards and the computer players' page in the web
// client (issue 25; api.md "Ratings and leaderboards") in headless Chromium, on ratings
// written into a fresh database (tilehall_webratings; ratings-harness.mjs): 30 people and
// one more, computer players. A leaderboard: ranks best first, paged forward and back (by
// keyboard too), the computer players on asking, a name leading to that player's
// profile; the computer players' page; both on a 360-pixel phone in Traditional Chinese,
// no wider than the screen; axe-core finds no violation.
// Screenshots: build/web-artifacts/ratings-*.png (WEB_ARTIFACTS).
//
//   node --test tests/web/     (make test-web)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { artifacts, axe, DESKTOP, makePlayer, noSideways, PHONE, ratingsServer, seedAnn, watchedPage } from './ratings-harness.mjs';

const env = ratingsServer('tilehall_webratings');

test('a leaderboard and the computer players, on a desktop', { timeout: 120000 }, async () => {
    const { api } = env;
    const { ctx, page, lines } = await watchedPage(env, DESKTOP);
    const ann = await makePlayer(page, api, 'Ann');
    seedAnn(env.sql, ann);
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
    await page.waitForFunction(() => document.querySelector('#board tbody tr')?.dataset.rank === '26', null, { timeout: 5000 });
    assert.deepEqual(await ranks(), [26, 27, 28, 29, 30, 31]);
    assert.equal(await page.isDisabled('#board-next'), true);
    assert.equal(await page.evaluate(() => document.activeElement.id), 'board-prev', 'focus kept on the pager');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('#board tbody tr')?.dataset.rank === '1', null, { timeout: 5000 });
    // With the computer players: greedy (1585) among the people, random (1210) last, mcts
    // (provisional) not at all.
    await page.check('#board-bots');
    await page.waitForFunction(() => document.querySelector('#board tbody tr:nth-child(4) .badge.bot'), null, { timeout: 5000 });
    assert.match(await page.textContent('#board tbody tr:nth-child(4) th'), /greedy.*fast/);
    await page.click('#board-next');
    await page.waitForFunction(() => document.querySelector('#board tbody tr')?.dataset.rank === '26', null, { timeout: 5000 });
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
    assert.deepEqual(lines, []);
    await ctx.close();
    assert.deepEqual(lines, []);
    await ctx.close();
});

test('a leaderboard and the computer players on a phone, in Traditional Chinese', { timeout: 60000 }, async () => {
    const { api } = env;
    const { ctx, page, lines } = await watchedPage(env, PHONE);
    await page.goto(api + '/#/leaderboard/classic');
    await page.waitForSelector('#board tbody tr');
    assert.equal(await page.textContent('#board-title'), '排行榜：卡卡頌');
    assert.ok(await noSideways(page), 'the leaderboard is wider than the phone');
    await axe(page, 'a leaderboard on a phone');
    await page.screenshot({ path: path.join(artifacts, 'ratings-leaderboard-phone.png'), fullPage: true });
    await page.goto(api + '/#/bots');
    await page.waitForSelector('#bots-table tbody tr');
    assert.equal(await page.textContent('#bots-title'), '電腦玩家');
    assert.ok(await noSideways(page), 'the computer players\' page is wider than the phone');
    await page.screenshot({ path: path.join(artifacts, 'ratings-bots-phone.png'), fullPage: true });
    assert.deepEqual(lines, []);
    await ctx.close();
});
