// page-watch.test.mjs: watching in the page (issue 30 item 6): an invite link whose seat
// is taken offers to watch the game, and the spectator view opens; a game's link pasted on
// the home page opens it too; axe-core on the refused invite. (The lobby's open tables and
// games to watch are page-lobby.test.mjs's.) The real server through the spec proxy
// (ratings-harness.mjs), its own database.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { axe, DESKTOP, ratingsServer, watchedPage } from './ratings-harness.mjs';

const env = ratingsServer('tilehall_webwatch');

async function post(p, body, headers = {}) {
    const r = await fetch(env.api + p, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers },
        body: JSON.stringify(body) });
    return { status: r.status, body: await r.json() };
}

test('watching: a used invite offers it, a pasted link opens the spectator view', { timeout: 140000 }, async () => {
    const ann = (await post('/v1/players', { name: 'Ann' })).body;
    const made = (await post('/v1/games', { players: [{ player: 'me' }, { open: true }] }, { Authorization: 'Bearer ' + ann.token })).body;
    const invite = made.players.find((x) => x.invite).invite;
    const taken = await post(`/v1/games/${made.id}/join`, { invite, name: 'Carl' }, { 'Idempotency-Key': 'x'.repeat(32) });
    assert.equal(taken.status, 200);
    const c = await watchedPage(env, DESKTOP);
    await c.page.goto(`${env.api}/#/join/${made.id}/${invite}`);
    await c.page.fill('#join-name', 'Dora');
    await c.page.click('#join-name-btn');
    await c.page.waitForSelector('#join-watch:not([hidden])');
    await axe(c.page, 'a used invite');
    await c.page.click('#join-watch a');
    await c.page.waitForFunction(() => /watching/.test(document.querySelector('#turn-line')?.textContent ?? ''));
    await c.page.goto(env.api + '/#/');
    await c.page.fill('#watch-link', `${env.api}/#/game/${made.id.toUpperCase()}`);
    await c.page.click('#watch-go');
    // The state is kept before its scores are read and the page drawn: the turn line is
    // waited for too, not read once the id is there.
    await c.page.waitForFunction((id) => window.tilehall.view && window.tilehall.view.state &&
        window.tilehall.view.state.game && window.tilehall.view.state.game.id === id &&
        /watching/.test(document.querySelector('#turn-line')?.textContent ?? ''), made.id);
    // A used invite's 404 and a spectator's 401 from the private chat are expected.
    assert.deepEqual(c.lines.filter((l) => !/status of (404|401)\b.*\/(join|chat\?)/.test(l)), []);
    await c.ctx.close();
});
