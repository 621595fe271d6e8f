// ratings-rated.test.mjs: rated games in the web client (issue 25; api.md "Ratings and
// leaderboards"), in headless Chromium, on a fresh database (tilehall_webratings_rated;
// ratings-harness.mjs) with ratings written into it. Asked for without a clock: hints and
// a fixed deck set aside, the request says "rated", the server's refusal is shown where
// the button is (axe-core finds no violation on the page). Where the server makes rated
// games, one made from the page (a clock, the server deals, the computer player fast)
// ends by resignation, the changes stand beside the seats and the player's profile lists
// the game with its change; a server without rated games refuses the field, in words.
// Screenshots: build/web-artifacts/ratings-rated-*.png.
//
//   node --test tests/web/     (make test-web)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { artifacts, axe, DESKTOP, makePlayer, ratingsServer, seedAnn, watchedPage } from './ratings-harness.mjs';

const env = ratingsServer('tilehall_webratings_rated');

test('a rated game refused without a clock; one made, resigned and shown with its changes', { timeout: 120000 }, async () => {
    const { api } = env;
    const { ctx, page, lines } = await watchedPage(env, DESKTOP);
    page.on('dialog', (d) => d.accept());
    const ann = await makePlayer(page, api, 'Ann');
    seedAnn(env.sql, ann);

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
    await page.waitForFunction(() => document.querySelector('#new-h')?.parentElement.querySelector('.err')?.hidden === false, null,
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

    // Ann (1642 in classic) against greedy thinking 10 ms (1585): she resigns at once, the
    // end's ratings stand beside the seats (hers down, greedy's up), and her profile lists
    // the game with its change. A server without rated games refuses the field, in words.
    await page.waitForSelector('#ruleset option', { state: 'attached' });
    await (await (await page.$$('.seat'))[1].$('.seat-think')).fill('10');
    await page.selectOption('#clock-kind', 'turn');
    await page.fill('#clock-secs', '600');
    await page.check('#rated');
    await page.click('#create');
    await page.waitForFunction(() => /^#\/game\//.test(location.hash) || document.querySelector('#new-h ~ .err')?.hidden === false,
        null, { timeout: 10000 });
    if (!/^#\/game\//.test(await page.evaluate(() => location.hash))) {
        assert.match(await page.textContent('#new-h ~ .err'), /^Refused: Unknown field "rated"/);
        assert.deepEqual(lines.filter((l) => !/status of 400 .*\/v1\/games$/.test(l)), []);
        lines.length = 0;
    } else {
        const rid = await page.evaluate(() => location.hash.split('/')[2]);
        await page.waitForSelector('#resign');
        assert.equal(await page.textContent('#game-title .badge.rated'), 'rated');
        await page.click('#resign');
        await page.waitForSelector('.seat-rating[data-seat="1"] .change', { timeout: 15000 });
        const [mine, bot] = [await page.textContent('.seat-rating[data-seat="0"] .change'),
            await page.textContent('.seat-rating[data-seat="1"] .change')];
        assert.match(mine, /^1642 → \d+ \(−\d+\)$/);
        assert.match(bot, /^1585 → \d+ \(\+\d+\)$/);
        await page.screenshot({ path: path.join(artifacts, 'ratings-rated-game-end.png') });
        await page.click('#scores tr[data-seat="0"] th a');
        await page.waitForSelector('#finished-games li a');
        const first = await page.$eval('#finished-games li', (li) => ({ href: li.querySelector('a').getAttribute('href'),
            rated: !!li.querySelector('.badge.rated'), who: li.querySelector('.who').textContent }));
        assert.equal(first.href, '#/game/' + rid);
        assert.ok(first.rated);
        assert.match(first.who, /^Ann 0 \(−\d+\) · .+ \(\+\d+\)$/);
        await page.waitForSelector('#history-table');
        assert.equal(await page.getAttribute('#history-table tbody tr:first-child a', 'href'), '#/game/' + rid);
    }
    assert.deepEqual(lines, []);
    await ctx.close();
});
