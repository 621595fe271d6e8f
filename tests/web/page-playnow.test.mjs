// page-playnow.test.mjs: play now in the page (issue 26 item 5): two people press "Play now" with the same choices in two browsers and both land
// in the same game; a seek is cancelled from its waiting view; a correspondence seek posted
// by one is listed on the other's home page and accepted there, which makes a game;
// axe-core on the views. Watching is page-watch.test.mjs's. The real server through the
// spec proxy (ratings-harness.mjs), its own database.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { artifacts, axe, DESKTOP, makePlayer, ratingsServer, watchedPage } from './ratings-harness.mjs';

const env = ratingsServer('tilehall_webplaynow');

// The game the page's view shows, once it shows one.
const gameOf = (page) => page.waitForFunction(() => {
    const v = window.tilehall.view;
    return v && v.state && v.state.game && v.state.game.id;
}, null, { timeout: 20000 }).then((h) => h.jsonValue());

// What a page's console may say: a used invite's 404, a spectator's 401 from a private
// chat (the panel then says the chat is for the players).
const unexpected = (lines) => lines.filter((l) => !/status of (404|401)\b.*\/(join|chat\?)/.test(l));

test('play now: a cancelled seek, two people matched, a correspondence seek accepted', { timeout: 150000 }, async () => {
    const a = await watchedPage(env, DESKTOP);
    const b = await watchedPage(env, { viewport: { width: 390, height: 844 }, locale: 'de-DE', isMobile: true, hasTouch: true });
    await makePlayer(a.page, env.api, 'Ann');
    await b.page.goto(env.api + '/');
    await b.page.fill('#myname', 'Bertha');
    await b.page.click('#you-h ~ button');
    await b.page.waitForSelector('#my-profile');

    // A cancelled seek: the waiting view says so.
    await a.page.goto(env.api + '/#/');
    await a.page.waitForSelector('#seek-ruleset option', { state: 'attached' });
    await a.page.uncheck('#seek-bots');
    await a.page.click('#seek-go');
    await a.page.waitForSelector('#seek-cancel');
    await a.page.waitForFunction(() => /Looking for players: Carcassonne, 2 players/.test(document.querySelector('#seek-status')?.textContent ?? ''));
    await axe(a.page, 'the waiting view');
    await a.page.click('#seek-cancel');
    await a.page.waitForFunction(() => /Cancelled/.test(document.querySelector('#seek-status')?.textContent ?? ''));

    // Both seek a live game with the same choices: one game, a seat each.
    for (const p of [a.page, b.page]) {
        await p.goto(env.api + '/#/');
        await p.waitForSelector('#seek-ruleset option', { state: 'attached' });
        await p.selectOption('#seek-clock', 'live5');
        await p.uncheck('#seek-bots');
    }
    await b.page.screenshot({ path: path.join(artifacts, 'playnow-phone-de.png'), fullPage: true });
    await a.page.click('#seek-go');
    await a.page.waitForSelector('#seek-cancel');
    await b.page.click('#seek-go');
    const [ga, gb] = await Promise.all([gameOf(a.page), gameOf(b.page)]);
    assert.equal(ga, gb, 'both in one game');
    const game = await (await fetch(`${env.api}/v1/games/${ga}`)).json();
    assert.deepEqual(game.players.map((x) => x.name).sort(), ['Ann', 'Bertha']);
    assert.deepEqual(game.clock, { initial_seconds: 300, increment_seconds: 5, on_timeout: 'autoplay' });
    const seatA = await a.page.evaluate((id) => window.tilehall.view.state && JSON.parse(localStorage.getItem(
        `tilehall.seats@${window.tilehall.api}`))[id].seat, ga);
    assert.equal(game.players[seatA].name, 'Ann', 'the page keeps its seat');

    // A correspondence seek of Ann's is listed on Bertha's page and accepted there.
    await a.page.goto(env.api + '/#/');
    await a.page.waitForSelector('#seek-ruleset option', { state: 'attached' });
    await a.page.selectOption('#seek-clock', 'corr1');
    await a.page.click('#seek-go');
    await a.page.waitForSelector('#seek-cancel');
    await b.page.goto(env.api + '/#/');
    await b.page.waitForSelector('#open-seeks li[data-seek] button.accept');
    assert.match(await b.page.textContent('#open-seeks'), /Ann.*Carcassonne.*2 Spieler.*1 Tag\(e\) pro Zug/s);
    await axe(b.page, 'the home page with an open seek (German, phone)');
    await b.page.screenshot({ path: path.join(artifacts, 'playnow-open-seeks-de.png'), fullPage: true });
    await b.page.click('#open-seeks button.accept');
    const [gc, gd] = await Promise.all([gameOf(a.page), gameOf(b.page)]);
    assert.equal(gc, gd);
    assert.notEqual(gc, ga);

    for (const p of [a, b]) {
        assert.deepEqual(unexpected(p.lines), []);
        await p.ctx.close();
    }
});
