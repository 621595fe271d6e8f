// page-analysis.test.mjs: a finished game's analysis in the page (issue 31 item 3): the
// page asks for it (202 with Retry-After first, then 200), draws the chart of each seat's
// margin, lists each seat's average loss and labels every placement in the history;
// axe-core on it. The real server through the spec proxy (ratings-harness.mjs), its own
// database; a short deck, so that the analysis takes well under a second.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { artifacts, axe, DESKTOP, ratingsServer, watchedPage } from './ratings-harness.mjs';

const env = ratingsServer('tilehall_webanalysis');
const DECK = ['A', 'B', 'C', 'E', 'F', 'U', 'V', 'K', 'L', 'W', 'X', 'J'];

test('a finished game: the margin chart, each seat\'s loss, the labels on the history', { timeout: 140000 }, async () => {
    const r = await fetch(env.api + '/v1/games', { method: 'POST', headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ deck: DECK, players: [{ bot: 'greedy', think_ms: 10 }, { bot: 'random', think_ms: 10 }] }) });
    assert.equal(r.status, 201);
    const id = (await r.json()).id;
    for (let i = 0; i < 300; i++) {
        if ((await (await fetch(`${env.api}/v1/games/${id}`)).json()).status === 'finished') break;
        await new Promise((ok) => setTimeout(ok, 100));
    }
    const c = await watchedPage(env, DESKTOP);
    await c.page.goto(`${env.api}/#/game/${id}`);
    await c.page.waitForSelector('#analysis svg.analysis-chart', { timeout: 60000 });
    assert.equal(await c.page.locator('#analysis polyline.seat-line').count(), 2, 'a line for each seat');
    assert.equal(await c.page.locator('#analysis .analysis-seats li').count(), 2, 'each seat\'s loss');
    await c.page.waitForFunction(() => document.querySelectorAll('#history li[data-type="tile_placed"]').length > 0);
    const [placed, labelled] = await c.page.evaluate(() => [
        document.querySelectorAll('#history li[data-type="tile_placed"]').length,
        document.querySelectorAll('#history li[data-type="tile_placed"] .move-label').length]);
    // The random player's choices can leave a tile that fits nowhere (discarded): the
    // game's own placements are the count.
    const events = (await (await fetch(`${env.api}/v1/games/${id}/events?limit=1000`)).json()).events;
    assert.equal(placed, events.filter((e) => e.type === 'tile_placed').length, 'every placement in the history');
    assert.ok(placed >= DECK.length - 2, `${placed} placements of ${DECK.length} tiles`);
    assert.equal(labelled, placed, 'every placement labelled');
    assert.match(await c.page.textContent('#analysis .analysis-seats'), /points lost a placement on average/);
    await c.page.screenshot({ path: path.join(artifacts, 'analysis-desktop.png'), fullPage: true });
    await axe(c.page, 'a finished game with its analysis');
    // A spectator's 401 from the private chat is expected.
    assert.deepEqual(c.lines.filter((l) => !/status of 401\b.*\/chat\?/.test(l)), []);
    await c.ctx.close();
});
