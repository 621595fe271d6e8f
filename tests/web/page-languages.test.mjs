// page-languages.test.mjs: the web client's words and its phone layout (issue 30 items 5
// and 8). The word tables (web/i18n/*.json): the same keys and the same {placeholders} in
// every language, every key the code names present, served from WEB_DIR/i18n (JSON, ETag,
// nothing outside). Then in headless Chromium, every language at 360×640 and 390×844 with
// long names: the game view has nothing to scroll sideways, the action bar keeps Confirm
// on the screen after a square is tapped, the scores' followers column is not cut; at
// 1280 px the header and the game's head stay within the page; axe-core on the phone game
// view in each language. Screenshots in build/web-artifacts/lang-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { artifacts, axe, noSideways, ratingsServer, watchedPage } from './ratings-harness.mjs';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'web');
const LANGS = ['en', 'zh-Hant', 'sv', 'de'];
const env = ratingsServer('tilehall_weblangs');

// A word's placeholders ({pts} and {points} are one: t() makes the first from the second).
const holes = (s) => [...new Set([...s.matchAll(/\{(\w+)\}/g)].map((m) => (m[1] === 'pts' ? 'points' : m[1])))].sort();

test('the word tables: same keys and placeholders in every language, all the code names, served', async () => {
    const tables = Object.fromEntries(LANGS.map((l) => [l, JSON.parse(fs.readFileSync(path.join(web, 'i18n', `${l}.json`), 'utf8'))]));
    const keys = Object.keys(tables.en).sort();
    for (const l of LANGS) {
        assert.deepEqual(Object.keys(tables[l]).sort(), keys, `${l} has the keys of en`);
        for (const k of keys) {
            assert.equal(typeof tables[l][k], 'string');
            assert.ok(tables[l][k].length > 0, `${l}.${k} is empty`);
            assert.deepEqual(holes(tables[l][k]), holes(tables.en[k]), `${l}.${k}: placeholders`);
        }
    }
    // Every key a module names literally is in the tables; no module keeps its own words.
    for (const f of fs.readdirSync(web).filter((x) => x.endsWith('.js'))) {
        const src = fs.readFileSync(path.join(web, f), 'utf8');
        for (const m of src.matchAll(/\bt\('([a-zA-Z_]+)'[,)]/g)) assert.ok(m[1] in tables.en, `${f}: t('${m[1]}') is in no table`);
        assert.doesNotMatch(src, /const (words|S) = \{/, `${f} keeps words of its own`);
    }
    const de = await fetch(`${env.api}/web/i18n/de.json`);
    assert.equal(de.status, 200);
    assert.match(de.headers.get('content-type'), /^application\/json/);
    assert.deepEqual(await de.json(), tables.de);
    assert.equal((await fetch(`${env.api}/web/i18n/de.json`, { headers: { 'If-None-Match': de.headers.get('etag') } })).status, 304);
    for (const bad of ['/web/i18n/xx.json', '/web/i18n/..', '/web/i18n/.hidden', '/web/i18n/', '/web/i18n/de.json/x']) {
        assert.equal((await fetch(env.api + bad)).status, 404, bad);
    }
});

const LONG = ['Maximiliane Wolkenstein-Lüdenscheidt', 'Bartholomäus Oberkirchner-Habsburg'];

async function api(method, p, body, token, key) {
    const headers = { 'Content-Type': 'application/json' };
    if (token) headers.Authorization = 'Bearer ' + token;
    if (key) headers['Idempotency-Key'] = key;
    const r = await fetch(env.api + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return r.json();
}

// A two-person game of people with long names; the page holds seat 0 in language `lang`.
async function gamePage(lang, screen) {
    const ann = await api('POST', '/v1/players', { name: LONG[0] });
    const made = await api('POST', '/v1/games', { players: [{ player: 'me' }, { open: true }],
        clock: { initial_seconds: 600, increment_seconds: 5 } }, ann.token);
    const invite = made.players.find((x) => x.invite).invite;
    await api('POST', `/v1/games/${made.id}/join`, { invite, name: LONG[1] }, null, 'k'.repeat(24) + made.id.slice(0, 8));
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
const onScreen = (page, sel) => page.$eval(sel, (e) => {
    const r = e.getBoundingClientRect();
    return r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth;
});

// On a phone, `lang`'s game view at 360×640 and 390×844 (axe-core at 360): the action
// bar's Draw, then after a tapped square its Rotate and Confirm, on the screen; nothing
// to scroll sideways; the scores' followers column inside its card and not cut.
async function phoneChecks(lang) {
    for (const [w, hgt] of [[360, 640], [390, 844]]) {
        const screen = { viewport: { width: w, height: hgt }, isMobile: true, hasTouch: true, locale: 'en-GB' };
        const { ctx, page, lines } = await gamePage(lang, screen);
        assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
        await page.waitForSelector('#bar-draw');
        assert.ok(await onScreen(page, '#bar-draw'), `${lang} ${w}: Draw on the screen`);
        await page.tap('#bar-draw');
        await page.waitForSelector('.cand');
        await page.locator('.cand').first().tap({ force: true });
        await page.waitForSelector('#bar-confirm');
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
        const before = await page.evaluate(() => window.tilehall.view.state.game.version);
        await page.tap('#bar-confirm');
        await page.waitForFunction((v) => window.tilehall.view.state.game.version > v, before);
        assert.deepEqual(lines, []);
        await ctx.close();
    }
}

for (const lang of LANGS) {
    test(`a phone in ${lang} with long names: the action bar, nothing cut, axe`, { timeout: 90000 }, () => phoneChecks(lang));
}

test('1280 px in every language with long names: the header and the game head fit', { timeout: 120000 }, async () => {
    for (const lang of LANGS) {
        const { ctx, page, lines } = await gamePage(lang, { viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
        const over = await page.evaluate(() => ['#top', '.gamehead', '#turn-line', '#scores'].filter((s) => {
            const e = document.querySelector(s);
            return e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > window.innerWidth;
        }));
        assert.deepEqual(over, [], `${lang}: what overflows`);
        assert.ok(await noSideways(page), `${lang}: nothing to scroll sideways`);
        await page.goto(env.api + '/#/');
        await page.waitForSelector('#seek-ruleset option', { state: 'attached' });
        assert.ok(await noSideways(page), `${lang}: the home page`);
        if (lang === 'de') await page.screenshot({ path: path.join(artifacts, 'lang-de-1280-home.png'), fullPage: true });
        assert.deepEqual(lines, []);
        await ctx.close();
    }
});
