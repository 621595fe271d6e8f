// page-harness.mjs: what the tests of the page around the board share (page-*.test.mjs):
// the languages, a game of two people with long names opened in a language, and the phone
// checks of one language (phoneSuite: a test file's server and one test per language).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { artifacts, axe, noSideways, ratingsServer, watchedPage } from './ratings-harness.mjs';

export const LANGS = ['en', 'zh-Hant', 'sv', 'de'];

const LONG = ['Maximiliane Wolkenstein-Lüdenscheidt', 'Bartholomäus Oberkirchner-Habsburg'];

async function api(env, method, p, body, token, key) {
    const headers = { 'Content-Type': 'application/json' };
    if (token) headers.Authorization = 'Bearer ' + token;
    if (key) headers['Idempotency-Key'] = key;
    const r = await fetch(env.api + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return r.json();
}

// A two-person game of people with long names on server `env` (ratingsServer); the page
// holds seat 0 in language `lang`: {ctx, page, lines, id}.
export async function gamePage(env, lang, screen) {
    const ann = await api(env, 'POST', '/v1/players', { name: LONG[0] });
    const made = await api(env, 'POST', '/v1/games', { players: [{ player: 'me' }, { open: true }],
        clock: { initial_seconds: 600, increment_seconds: 5 } }, ann.token);
    const invite = made.players.find((x) => x.invite).invite;
    await api(env, 'POST', `/v1/games/${made.id}/join`, { invite, name: LONG[1] }, null, 'k'.repeat(24) + made.id.slice(0, 8));
    const w = await watchedPage(env, screen);
    await w.page.addInitScript(([a, p, g, l]) => {
        localStorage.setItem('tilehall.lang', l);
        localStorage.setItem(`tilehall.player@${a}`, JSON.stringify({ id: p.id, name: p.name, token: p.token }));
        localStorage.setItem(`tilehall.seats@${a}`, JSON.stringify({ [g]: { seat: 0, token: null } }));
    }, [env.api, ann, made.id, lang]);
    await w.page.goto(`${env.api}/#/game/${made.id}`);
    await w.page.waitForSelector('#scores tbody tr');
    return { ...w, id: made.id };
}

// The element `sel` is wholly inside the window.
export const onScreen = (page, sel) => page.$eval(sel, (e) => {
    const r = e.getBoundingClientRect();
    return r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth;
});

// On a phone, `lang`'s game view at 360×640, then 390×844 (axe-core at 360): the action
// bar's Draw, then after a tapped square its Rotate, follow-up, Confirm and Cancel, on the
// screen; nothing to scroll sideways; the scores' followers column inside its card and
// not cut; Confirm from the bar makes the move.
async function phoneChecks(env, lang) {
    const screen = { viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true, locale: 'en-GB' };
    const { ctx, page, lines } = await gamePage(env, lang, screen);
    assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
    await page.waitForSelector('#bar-draw');
    assert.ok(await onScreen(page, '#bar-draw'), `${lang}: Draw on the screen`);
    await page.tap('#bar-draw');
    await page.waitForSelector('.cand');
    // A square a finger can reach: the deck is random, and the first candidate may lie under
    // the action bar fixed at the bottom of the screen (a tap there is the bar's, and once
    // nothing was chosen in 30 s). Each candidate is scrolled to the middle and hit-tested.
    // A tap the page may miss while it draws the board again (a loaded CI machine saw one
    // tap choose nothing in 30 s) is tapped again, as a person would, up to four times.
    let offered = false;
    for (let attempt = 0; attempt < 4 && !offered; attempt++) {
        const reachable = await page.evaluate(() => {
            for (const c of document.querySelectorAll('.cand')) {
                c.scrollIntoView({ block: 'center', inline: 'center' });
                const r = c.getBoundingClientRect();
                if (document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === c) {
                    return { x: c.dataset.x, y: c.dataset.y };
                }
            }
            return null;
        });
        assert.ok(reachable, `${lang}: no candidate square a finger can reach`);
        await page.locator(`.cand[data-x="${reachable.x}"][data-y="${reachable.y}"]`).tap();
        offered = await page.waitForSelector('#bar-confirm', { timeout: 7500 }).then(() => true, () => false);
        if (!offered) console.log(`${lang}: tap ${attempt + 1} on (${reachable.x}, ${reachable.y}) offered no Confirm`);
    }
    assert.ok(offered, `${lang}: four taps on a square offered no Confirm`);
    for (const [w, hgt] of [[360, 640], [390, 844]]) {
        await page.setViewportSize({ width: w, height: hgt });
        await page.evaluate(() => window.scrollTo(0, 0));
        for (const b of ['#bar-rotate', '#bar-fu', '#bar-confirm', '#bar-cancel']) {
            assert.ok(await onScreen(page, b), `${lang} ${w}: ${b} on the screen after tapping a square`);
        }
        assert.ok(await noSideways(page), `${lang} ${w}: nothing to scroll sideways`);
        const cut = await page.$eval('#scores', (card) => {
            const th = card.querySelector('thead th:last-child');
            const r = th.getBoundingClientRect(), c = card.getBoundingClientRect();
            return { past: r.right > c.right + 1, clipped: th.scrollWidth > th.clientWidth + 1 };
        });
        assert.deepEqual(cut, { past: false, clipped: false }, `${lang} ${w}: the followers column`);
        if (w === 360) await axe(page, `the game on a phone (${lang})`);
        await page.screenshot({ path: path.join(artifacts, `lang-${lang}-${w}x${hgt}.png`) });
        await page.locator('#scores').scrollIntoViewIfNeeded();
        await page.screenshot({ path: path.join(artifacts, `lang-${lang}-${w}x${hgt}-scores.png`) });
    }
    const before = await page.evaluate(() => window.tilehall.view.state.game.version);
    await page.tap('#bar-confirm');
    await page.waitForFunction((v) => window.tilehall.view.state.game.version > v, before);
    // The home page on a phone: nothing to scroll sideways either.
    await page.goto(env.api + '/#/');
    await page.waitForSelector('#seek-ruleset option', { state: 'attached' });
    assert.ok(await noSideways(page), `${lang}: the home page on a phone`);
    assert.deepEqual(lines, []);
    await ctx.close();
}

// The phone checks of `langs`, one test each, on a server of database `db` (a file a
// language: each file stays within make test-web's 150 s).
export function phoneSuite(db, langs) {
    const env = ratingsServer(db);
    for (const lang of langs) {
        test(`a phone in ${lang} with long names: the action bar, nothing cut, axe`, { timeout: 140000 },
            () => phoneChecks(env, lang));
    }
}
