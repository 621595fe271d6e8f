// board-touch.test.mjs: the board on a 390x844 phone by touch (issue 30 items 3, 4 and 7)
// in headless Chromium, on a fresh database (tilehall_webboardtouch; ratings-harness.mjs
// starts the server behind the spec's validating proxy): a square tapped, the tile turned
// by tapping it, a follow-up chosen by touching its spot (the list follows), the preview
// undone; zoom by the buttons, the wheel and a pinch, a drag pans, fit shows every tile; axe-core;
// under prefers-reduced-motion a scoring's frame does not blink; nothing wider than the
// screen. Screenshot: build/web-artifacts/board-phone-preview.png (WEB_ARTIFACTS).
//
//   node --test tests/web/     (make test-web)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { artifacts, axe, makePlayer, ratingsServer, watchedPage } from './ratings-harness.mjs';
import { artShown, openGame, phase, PHONE_390 } from './board-harness.mjs';

const env = ratingsServer('tilehall_webboardtouch');

test('on a phone by touch: turn, follow-up spots, undo, zoom, pan, fit; reduced motion', { timeout: 90000 }, async () => {
    const { api } = env;
    const { ctx, page, lines } = await watchedPage(env, { ...PHONE_390, reducedMotion: 'reduce' });
    await makePlayer(page, api, 'Bo');
    await openGame(page, api, 'classic', ['D', 'U', 'V', 'E', 'K', 'L'], ['random']);
    for (let n = 0; n < 100 && (await phase(page)) !== 'place'; n++) {
        if ((await phase(page)) === 'draw') await page.tap('#draw');
        else await page.waitForTimeout(100);
    }
    await artShown(page);
    const box = () => page.$eval('#board .board-svg', (s) => s.getAttribute('viewBox').split(' ').map(Number));
    // A square tapped: the preview; the tile tapped again turns it.
    const cand = page.locator('#board .cand').first();
    await cand.tap();
    await page.waitForSelector('#board .preview');
    const rot0 = await page.evaluate(() => window.tilehall.view.state.sel.i);
    await page.tap('#board .hit');
    await page.waitForFunction((r) => window.tilehall.view.state.sel && window.tilehall.view.state.sel.i !== r, rot0, { timeout: 5000 });
    // The follow-ups' spots: touching one chooses it in the list too.
    const spots = await page.locator('#board .fu-spot').count();
    if (spots) {
        const i = Number(await page.locator('#board .fu-spot').first().getAttribute('data-fu'));
        await page.locator('#board .fu-spot').first().tap();
        await page.waitForFunction((k) => window.tilehall.view.state.fu === k, i, { timeout: 5000 });
        assert.equal(await page.isChecked(`input[name=fu][value="${i}"]`), true);
        await page.waitForSelector('#board .preview-fu .preview-piece');
        await page.waitForSelector('#board .preview-fu .seat-badge');
    }
    await page.screenshot({ path: path.join(artifacts, 'board-phone-preview.png') });
    await axe(page, 'the board on a phone with a placement chosen');
    // Undo of the preview: Cancel.
    await page.tap('#turn-panel button:has-text("Cancel")');
    await page.waitForFunction(() => !document.querySelector('#board .preview'), null, { timeout: 5000 });
    // Zoom by the buttons and the wheel, a drag pans, fit shows the whole board again.
    const fitted = await box();
    await page.tap('#zoom-in');
    const closer = await box();
    assert.ok(closer[2] < fitted[2], 'zoomed in');
    await page.tap('#zoom-out');
    await page.tap('#zoom-out');
    assert.ok((await box())[2] > closer[2], 'zoomed out');
    const r = await page.$eval('#board .board-svg', (s) => { const b = s.getBoundingClientRect(); return { x: b.x, y: b.y, w: b.width, h: b.height }; });
    await page.mouse.move(r.x + r.w / 2, r.y + r.h / 2);
    await page.mouse.wheel(0, -300);
    await page.waitForFunction((w) => Number((document.querySelector('#board .board-svg')?.getAttribute('viewBox') ?? '').split(' ')[2]) < w,
        (await box())[2], { timeout: 2000 }).catch(() => {});
    const before = await box();
    await page.mouse.move(r.x + 20, r.y + r.h - 20);
    await page.mouse.down();
    await page.mouse.move(r.x + 120, r.y + r.h - 80, { steps: 5 });
    await page.mouse.up();
    const after = await box();
    assert.ok(after[0] < before[0] && after[1] > before[1], `dragged: ${before} -> ${after}`);
    // Two fingers spread apart (pointer events as a touch screen sends them): closer.
    const spread = await box();
    await page.evaluate(({ x, y }) => {
        const svg = document.querySelector('#board .board-svg');
        const send = (type, id, px) => svg.dispatchEvent(new PointerEvent(type, { pointerId: id, pointerType: 'touch',
            clientX: px, clientY: y, bubbles: true, isPrimary: id === 1 }));
        send('pointerdown', 1, x - 20);
        send('pointerdown', 2, x + 20);
        for (let i = 1; i <= 5; i++) { send('pointermove', 1, x - 20 - 12 * i); send('pointermove', 2, x + 20 + 12 * i); }
        send('pointerup', 1, x - 80);
        send('pointerup', 2, x + 80);
    }, { x: r.x + r.w / 2, y: r.y + r.h / 2 });
    assert.ok((await box())[2] < spread[2] * 0.7, 'pinched closer');
    await page.tap('#fit');
    const all = await box();
    const edges = await page.evaluate(() => {
        const g = window.tilehall.view.state.game;
        return g.board.map((b) => [b.x * 60, b.y * 60]);
    });
    for (const [x, y] of edges) assert.ok(x >= all[0] && y >= all[1] && x + 60 <= all[0] + all[2] && y + 60 <= all[1] + all[3], 'never cut');
    // prefers-reduced-motion: a scoring's frame does not blink.
    const anim = await page.evaluate(() => {
        const s = document.querySelector('#board .board-svg');
        const r = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
        r.setAttribute('class', 'flash');
        s.appendChild(r);
        const a = getComputedStyle(r).animationName;
        r.remove();
        return a;
    });
    assert.equal(anim, 'none');
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), 'no sideways scroll');
    assert.deepEqual(lines, []);
    await ctx.close();
});
