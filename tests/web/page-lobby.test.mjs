// page-lobby.test.mjs: the lobby in the page (issue 30 item 6): Ann creates a game with an
// open seat and "List this game in the lobby" ticked; in another browser context Bo sees
// it under "Open tables", takes the seat and is in the game; then a third context, with no
// player, finds the game under "Games to watch" and opens the spectator view. axe-core on
// the home page with both lists filled. The real server through the spec proxy
// (ratings-harness.mjs), its own database.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { artifacts, axe, DESKTOP, makePlayer, ratingsServer, watchedPage } from './ratings-harness.mjs';

const env = ratingsServer('tilehall_weblobby');

test('the lobby: a listed game as an open table, a seat taken from it, then a game to watch', { timeout: 140000 }, async () => {
    const ann = await watchedPage(env, DESKTOP);
    await makePlayer(ann.page, env.api, 'Ann');
    await ann.page.waitForSelector('#ruleset option', { state: 'attached' });
    await ann.page.selectOption('.seats .seat:nth-child(2) .seat-kind', 'open');
    await ann.page.check('#listed');
    await ann.page.click('#create');
    await ann.page.waitForFunction(() => /^#\/game\/[0-9a-f-]{36}$/.test(location.hash));
    const id = (await ann.page.evaluate(() => location.hash)).split('/').pop();
    const listed = await (await fetch(`${env.api}/v1/lobby/tables`)).json();
    assert.ok(listed.tables.some((g) => g.id === id), 'the server lists the new game as an open table');

    const bo = await watchedPage(env, DESKTOP);
    await makePlayer(bo.page, env.api, 'Bo');
    const seat = `#open-tables li[data-game="${id}"] button.take-seat[data-seat="1"]`;
    await bo.page.waitForSelector(seat);
    assert.match(await bo.page.textContent(`#open-tables li[data-game="${id}"]`), /Ann/);
    await axe(bo.page, 'the home page with an open table');
    await bo.page.click(seat);
    await bo.page.waitForFunction((g) => location.hash === '#/game/' + g, id);
    const game = await (await fetch(`${env.api}/v1/games/${id}`)).json();
    assert.equal(game.status, 'active');
    assert.equal(game.players[1].name, 'Bo');

    const eve = await watchedPage(env, DESKTOP);
    await eve.page.goto(env.api + '/#/');
    const link = `#watch-games li[data-game="${id}"] a`;
    await eve.page.waitForSelector(link);
    await eve.page.waitForSelector(`#open-tables li.muted`);
    assert.equal(await eve.page.$(`#open-tables li[data-game="${id}"]`), null, 'a started game is no open table');
    await axe(eve.page, 'the home page with a game to watch');
    await eve.page.screenshot({ path: path.join(artifacts, 'lobby-home.png'), fullPage: true });
    await eve.page.click(link);
    await eve.page.waitForFunction(() => /watching/.test(document.querySelector('#turn-line')?.textContent ?? ''));
    // A spectator's 401 from the private chat is expected.
    for (const c of [ann, bo, eve]) {
        assert.deepEqual(c.lines.filter((l) => !/status of 401\b.*\/chat\?/.test(l)), []);
        await c.ctx.close();
    }
});
