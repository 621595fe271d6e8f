// chat.test.mjs: the game's chat panel (web/chat.js) in headless Chromium: the messages of
// the other player arrive live, a message posted from the page shows, a name and a text
// that look like markup stay text, a long word wraps (nothing scrolls sideways on a
// phone-sized page), the report and block buttons work, a blocked player's messages go
// away and new ones never show, and axe-core finds nothing. The real server through the
// spec proxy (ratings-harness.mjs) on a database of its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { artifacts, noSideways, ratingsServer, watch } from './ratings-harness.mjs';

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

// axe-core's violations in the chat panel (WCAG 2.x A and AA, best practices): none. The
// panel only: the rest of the game view is web.test.mjs's.
async function axe(page, what) {
    if (!(await page.evaluate(() => !!window.axe))) await page.evaluate(axeSource);
    const res = await page.evaluate(() => window.axe.run('#chat',
        { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } }));
    assert.deepEqual(res.violations.map((x) => `${x.id}: ${x.nodes.map((n) => n.target.join(' ')).join(', ')}`), [],
        `axe on ${what}`);
}

const env = ratingsServer('tilehall_webchat');

async function api(method, p, body, token) {
    const headers = { 'Content-Type': 'application/json' };
    if (token) headers.Authorization = 'Bearer ' + token;
    const r = await fetch(env.api + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : null };
}

test('chat panel: live, posting, markup shown as text, long text wraps, report, block, axe', async () => {
    const ann = (await api('POST', '/v1/players', { name: 'Ann' })).body;
    const evil = '<img src=x onerror=alert(1)>';
    const bob = (await api('POST', '/v1/players', { name: evil })).body;
    const made = await api('POST', '/v1/games', { players: [{ player: 'me' }, { open: true }] }, ann.token);
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const gid = made.body.id;
    const invite = made.body.players.find((x) => x.invite).invite;
    const joined = await api('POST', `/v1/games/${gid}/join`, { invite }, bob.token);
    assert.equal(joined.status, 200, JSON.stringify(joined.body));

    const ctx = await env.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await ctx.newPage();
    const problems = [];
    watch(page, problems);
    await page.goto(env.api + '/');
    await page.evaluate(([a, p, g]) => {
        localStorage.setItem(`tilehall.player@${a}`, JSON.stringify({ id: p.id, name: p.name, token: p.token }));
        localStorage.setItem(`tilehall.seats@${a}`, JSON.stringify({ [g]: { seat: 0, token: null } }));
    }, [env.api, ann, gid]);
    await page.goto(`${env.api}/#/game/${gid}`);
    await page.waitForSelector('#chat #chat-empty:not([hidden])');

    // Bob speaks (through the API): the page gets it live, as text.
    const long = 'x'.repeat(500);
    assert.equal((await api('POST', `/v1/games/${gid}/chat`, { text: 'hello <b>Ann</b>' }, bob.token)).status, 201);
    assert.equal((await api('POST', `/v1/games/${gid}/chat`, { text: long }, bob.token)).status, 201);
    await page.waitForFunction(() => document.querySelectorAll('#chat-log li').length === 2, null, { timeout: 15000 });
    const shown = await page.$$eval('#chat-log li', (lis) => lis.map((li) => ({
        name: li.querySelector('.chat-name').textContent, text: li.querySelector('.chat-text').textContent })));
    assert.deepEqual(shown.map((x) => x.name), [evil, evil]);
    assert.equal(shown[0].text, 'hello <b>Ann</b>');
    assert.equal(shown[1].text, long);
    assert.equal(await page.$$eval('#chat img, #chat b', (x) => x.length), 0, 'markup from a name or a text');
    assert.ok(await noSideways(page), 'the long message makes the page scroll sideways');

    // Ann posts from the page.
    await page.fill('#chat-text', 'hi Bob');
    await page.click('#chat-form button[type=submit]');
    await page.waitForFunction(() => [...document.querySelectorAll('#chat-log .chat-text')].some((e) => e.textContent === 'hi Bob'));
    assert.equal(await page.$$eval('#chat-log li', (lis) => lis[2].querySelectorAll('button').length), 0,
        'no report or block on her own message');
    await axe(page, 'the game with its chat');
    await page.screenshot({ path: path.join(artifacts, 'chat.png'), fullPage: true });

    // A report of Bob's first message.
    await page.click('#chat-log li:first-child .chat-report');
    await page.waitForSelector('#chat-log li:first-child .chat-report[disabled]');
    const reports = env.sql(`SELECT count(*) FROM chat_reports WHERE game_id = '${gid}' AND seq = 1`);
    assert.equal(reports, '1');

    // Ann blocks Bob: his messages go, and a new one never shows.
    await page.click('#chat-log li:first-child .chat-block');
    await page.waitForFunction((b) => !document.querySelector(`#chat-log li[data-player="${b}"]`), bob.id);
    assert.equal((await api('POST', `/v1/games/${gid}/chat`, { text: 'are you there?' }, bob.token)).status, 201);
    assert.equal((await api('POST', `/v1/games/${gid}/chat`, { text: 'Bob again' }, ann.token)).status, 201);
    await page.waitForFunction(() => [...document.querySelectorAll('#chat-log .chat-text')].some((e) => e.textContent === 'Bob again'));
    const texts = await page.$$eval('#chat-log .chat-text', (x) => x.map((e) => e.textContent));
    assert.deepEqual(texts, ['hi Bob', 'Bob again']);
    await axe(page, 'the chat after a block');
    assert.deepEqual(problems, []);
    await ctx.close();
});
