// page-expansions.test.mjs: the expansions of classic in the page (issue 24 item 5): the
// new-game form offers them (a checkbox each, sent as a list, and the unfinished
// inn/cathedral rule only with Inns & Cathedrals), a game with both is played to the end
// against a computer player, the follow-up choice offering the expansions' figures (the
// large follower at once; the builder and pig when a placement allows them, taken when
// offered), the seat panel showing each seat's figures left and its goods, the extra
// turn said in the turn line. The real server through the spec proxy (ratings-harness.mjs)
// on a database of its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { artifacts, ratingsServer, watchedPage } from './ratings-harness.mjs';

const env = ratingsServer('tilehall_webexp');

// A short deck with inns, a cathedral, goods, a bridge and base tiles, so that builders
// and pigs get their chances within seconds.
const DECK = ['IL', 'TH', 'U', 'TB', 'IO', 'K', 'TN', 'V', 'TT', 'E', 'IK', 'L', 'TS', 'B', 'IA', 'J', 'TQ', 'W', 'TX', 'IP'];

test('both expansions: the form, figures offered and taken, supplies and goods, to the end', { timeout: 120000 }, async () => {
    const { ctx, page, lines } = await watchedPage(env, { viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
    const sent = [];
    page.on('request', (r) => { if (r.method() === 'POST' && /\/v1\/games$/.test(r.url())) sent.push(JSON.parse(r.postData())); });
    await page.goto(env.api + '/');
    await page.fill('#myname', 'Ann');
    await page.click('button:has-text("Save")');
    // The save draws the page again, the form with it: wait for the saved page (its link to
    // the profile) before filling the form, or a late save resets what was filled (a busy
    // machine: a game created with the form's defaults).
    await page.waitForSelector('#my-profile');
    await page.waitForSelector('#opt-expansions-inns');
    // The final rule is off until Inns & Cathedrals is ticked; Traders & Builders is off
    // with the original edition.
    assert.equal(await page.isDisabled('#opt-inn_cathedral_final'), true);
    await page.selectOption('#opt-edition', 'original');
    assert.equal(await page.isDisabled('#opt-expansions-traders'), true);
    await page.selectOption('#opt-edition', 'standard');
    await page.check('#opt-expansions-inns');
    await page.check('#opt-expansions-traders');
    assert.equal(await page.isDisabled('#opt-inn_cathedral_final'), false);
    await page.selectOption('#opt-inn_cathedral_final', 'ignore');
    // Every option explained; no bare number without its unit.
    for (const id of ['#opt-edition-help', '#opt-expansions-inns-help', '#opt-expansions-traders-help', '#opt-inn_cathedral_final-help']) {
        assert.ok((await page.textContent(id)).length > 20, `${id} says what it does`);
    }
    assert.match(await page.textContent('.seat .botbits'), /ms/);
    const rows = await page.$$('.seat');
    await (await rows[1].$('.seat-level')).selectOption('random');
    await (await rows[1].$('.seat-think')).fill('10');
    await page.fill('#deck', DECK.join(' '));
    await page.screenshot({ path: path.join(artifacts, 'expansions-form.png'), fullPage: true });
    await page.click('#create');
    // Up to 60 s (a busy machine); if the game never shows, say what the page said.
    try {
        await page.waitForFunction(() => window.tilehall.view && window.tilehall.view.state && window.tilehall.view.state.game,
            null, { timeout: 60000 });
    } catch (e) {
        const shown = await page.evaluate(() => [...document.querySelectorAll('.err:not([hidden])')]
            .map((el) => el.textContent.trim()).filter(Boolean).join(' | ')).catch(() => '?');
        await page.screenshot({ path: path.join(artifacts, 'expansions-no-game.png'), fullPage: true }).catch(() => {});
        throw new Error(`no game after create (${e.message}); sent ${JSON.stringify(sent)}; page: ${shown}; console: ${lines.join(' / ')}`);
    }
    assert.deepEqual(sent[0].options, { edition: 'standard', river: false, expansions: ['inns', 'traders'], inn_cathedral_final: 'ignore' });
    // The seat panel: each seat's large follower, builder and pig, and its goods.
    await page.waitForSelector('#scores .supply[data-seat="0"]');
    assert.match(await page.textContent('#scores .supply[data-seat="0"]'), /Large follower 1 · Builder 1 · Pig 1 · Goods: 0/);

    const taken = new Set();
    let extraSeen = false;
    for (let n = 0, until = Date.now() + 90000; ; n++) {
        assert.ok(Date.now() < until, 'the game did not end in time');
        const st = await page.evaluate(() => {
            const v = window.tilehall.view.state;
            return { status: v.game.status, busy: v.busy, extra: !!(v.game.turn && v.game.turn.extra),
                draw: !!document.querySelector('#draw'), cand: document.querySelectorAll('.cand').length };
        });
        if (st.extra) {
            extraSeen = true;
            assert.match(await page.textContent('#turn-line'), /extra turn/);
        }
        if (st.status !== 'active') break;
        if (st.busy || (!st.draw && !st.cand)) { await page.waitForTimeout(80); continue; }
        if (st.draw) { await page.click('#draw'); await page.waitForFunction(() => !window.tilehall.view.state.busy); continue; }
        try {
            await page.locator('.cand').nth(n % st.cand).click({ force: true, timeout: 2000 });
            await page.waitForSelector('input[name=fu]', { timeout: 2000 });
        } catch { continue; }
        // A figure of the expansions when one is offered and not yet taken, else sometimes a
        // plain follower.
        const labels = await page.$$eval('label.fu', (ls) => ls.map((l) => l.textContent.trim()));
        let pick = labels.findIndex((l) => ['Large follower', 'Builder', 'Pig'].some((f) => l.startsWith(f) && !taken.has(f)));
        if (pick >= 0) taken.add(['Large follower', 'Builder', 'Pig'].find((f) => labels[pick].startsWith(f)));
        else if (n % 3 === 0 && labels.length > 1) pick = 1;
        if (pick > 0) await page.locator('input[name=fu]').nth(pick).check();
        const before = await page.evaluate(() => window.tilehall.view.state.game.version);
        await page.click('#confirm');
        await page.waitForFunction((v) => window.tilehall.view.state.game.version > v, before, { timeout: 10000 });
        const err = await page.$eval('#err', (e) => (e.hidden ? '' : e.textContent));
        assert.equal(err, '', `a legal move was refused (${labels[pick]})`);
    }
    await page.waitForSelector('#history li[data-type=game_finished]');
    assert.ok(taken.has('Large follower'), 'the large follower was offered and deployed');
    const hist = await page.$$eval('#history li', (ls) => ls.map((l) => l.textContent));
    assert.ok(hist.some((l) => /Ann put the Large follower on the/.test(l)), 'the history names the figure');
    if (taken.has('Builder')) assert.ok(hist.some((l) => /put the Builder/.test(l)));
    const events = await (await fetch(`${env.api}/v1/games/${await page.evaluate(() => window.tilehall.view.state.id)}/events?limit=1000`)).json();
    const goods = events.events.filter((e) => e.type === 'goods_taken').length;
    if (goods) assert.ok(hist.some((l) => /took goods/.test(l)), 'goods in the history');
    console.log(`figures taken: ${[...taken].join(', ')}; extra turn seen: ${extraSeen}; goods_taken events: ${goods}`);
    await page.screenshot({ path: path.join(artifacts, 'expansions-end.png'), fullPage: true });
    assert.deepEqual(lines, []);
    await ctx.close();
});

test('a form filled before the name is saved keeps what was filled', { timeout: 60000 }, async () => {
    const { ctx, page } = await watchedPage(env, { viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
    try {
        await page.goto(env.api + '/');
        await page.waitForSelector('#opt-expansions-inns');
        await page.check('#opt-expansions-inns');
        await page.fill('#deck', 'IL TH U');
        await page.fill('#myname', 'Bea');
        await page.click('button:has-text("Save")');
        await page.waitForSelector('#my-profile');
        assert.equal(await page.inputValue('#deck'), 'IL TH U', 'the deck was reset by the save');
        assert.equal(await page.isChecked('#opt-expansions-inns'), true, 'an option was reset by the save');
    } finally {
        await ctx.close();
    }
});
