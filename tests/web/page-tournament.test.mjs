// page-tournament.test.mjs: a tournament in the page (issue 27 item 5): a player made in the
// page organises a swiss through the form, joins it, a second player joins through the API,
// the organiser starts it from the page, and the page shows round 1's table with the two
// entrants and a link to its game, and the standings of both; axe-core on the page open
// and running. The real server through the spec proxy (ratings-harness.mjs), its own
// database.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { axe, DESKTOP, makePlayer, ratingsServer, watchedPage } from './ratings-harness.mjs';

const env = ratingsServer('tilehall_webtourney');

async function post(p, body, token) {
    const headers = { 'Content-Type': 'application/json' };
    if (token) headers.Authorization = 'Bearer ' + token;
    const r = await fetch(env.api + p, { method: 'POST', headers, body: JSON.stringify(body) });
    return { status: r.status, body: r.status === 204 ? null : await r.json() };
}

test('tournament page: create, join, start, the round\'s pairing with its game and the standings',
    { timeout: 140000 }, async () => {
        const c = await watchedPage(env, DESKTOP);
        const olga = await makePlayer(c.page, env.api, 'Olga');
        await c.page.goto(env.api + '/#/tournaments');
        await c.page.waitForSelector('#tourney-form');
        await c.page.fill('#tourney-name', 'Friday Swiss');
        await c.page.selectOption('#tourney-format', 'swiss');
        await c.page.fill('#tourney-rounds', '2');
        await c.page.click('#tourney-form button[type=submit]');
        await c.page.waitForFunction(() => /^#\/tournament\/[0-9a-f-]{36}$/.test(location.hash));
        const id = await c.page.evaluate(() => location.hash.split('/')[2]);
        await c.page.waitForSelector('#tourney-join');
        assert.equal(await c.page.textContent('#tourney-title'), 'Friday Swiss');
        await c.page.click('#tourney-join');
        await c.page.waitForSelector('#tourney-start');
        await axe(c.page, 'an open tournament');

        const bob = (await post('/v1/players', { name: 'Bob' })).body;
        assert.equal((await post(`/v1/tournaments/${id}/join`, {}, bob.token)).status, 201);
        await c.page.reload();
        await c.page.waitForSelector('#tourney-start');
        await c.page.click('#tourney-start');
        // Round 1 paired: one table of Olga and Bob, its game linked.
        await c.page.waitForSelector('section[data-round="1"] a[href^="#/game/"]', { timeout: 20000 });
        const table = await c.page.textContent('section[data-round="1"] li');
        assert.match(table, /Olga/);
        assert.match(table, /Bob/);
        const game = await c.page.getAttribute('section[data-round="1"] a[href^="#/game/"]', 'href');
        const t = await (await fetch(`${env.api}/v1/tournaments/${id}`)).json();
        assert.equal(t.status, 'running');
        assert.equal(game, '#/game/' + t.pairings[0].tables[0].game);
        const rows = await c.page.$$eval('#tourney-standings tbody tr', (trs) => trs.map((r) => r.textContent));
        assert.equal(rows.length, 2);
        assert.ok(rows.some((r) => /Olga/.test(r)) && rows.some((r) => /Bob/.test(r)), rows.join(' | '));
        assert.equal(await c.page.$$eval('#tourney-standings tr.me', (r) => r.length), 1, 'my line marked');
        assert.match(await c.page.textContent('#tourney-status'), /Swiss/);
        await axe(c.page, 'a running tournament');
        assert.ok(olga);
        assert.deepEqual(c.lines, []);
        await c.ctx.close();
    });
