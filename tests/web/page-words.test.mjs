// page-words.test.mjs: the web client's words (issue 30 item 8) and the wide screen
// (item 5). The word tables (web/i18n/*.json): the same keys and the same {placeholders}
// in every language, every key the code names present, served from WEB_DIR/i18n (JSON,
// ETag, nothing outside). At 1280 px in every language with long names, the header, the
// game's head, turn line and scores stay within the page. The phones are
// page-phones-*.test.mjs's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gamePage, LANGS } from './page-harness.mjs';
import { artifacts, noSideways, ratingsServer } from './ratings-harness.mjs';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'web');
const env = ratingsServer('tilehall_webwords');

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

test('1280 px in every language with long names: the header and the game head fit', { timeout: 120000 }, async () => {
    for (const lang of LANGS) {
        const { ctx, page, lines } = await gamePage(env, lang, { viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
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
