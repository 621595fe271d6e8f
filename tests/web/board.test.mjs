// board.test.mjs: the game's board in the web client (issue 30 items 1-4 and 7) in headless
// Chromium, on a fresh database (tilehall_webboard; ratings-harness.mjs starts the server
// behind the spec's validating proxy):
//   - one drawing: the page's tiles, symbols and figures are board.svg's own groups (the
//     same count of tiles, harvest symbols and animals as the picture), the seat colours
//     are the picture's, each figure carries its seat's number;
//   - a whole game played with the keyboard alone (D draws, Tab to a square, Enter picks,
//     R turns, arrows choose the follow-up, Tab to Confirm, Enter); the last tile framed,
//     the board in words, a history line that shows its place; axe-core on the board;
//   - on a 390x844 phone, by touch: a square tapped, the tile turned by tapping it, a
//     follow-up chosen by touching its spot, the preview undone; zoom by buttons and the
//     wheel, a drag pans, fit shows every tile; axe-core; prefers-reduced-motion stops the
//     scoring's blinking.
// Screenshots: build/web-artifacts/board-*.png (WEB_ARTIFACTS).
//
//   node --test tests/web/     (make test-web)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { artifacts, axe, DESKTOP, makePlayer, ratingsServer, watchedPage } from './ratings-harness.mjs';

const env = ratingsServer('tilehall_webboard');
const PHONE_390 = { viewport: { width: 390, height: 844 }, locale: 'en-GB', isMobile: true, hasTouch: true };

// A game made by the page's player (through the API with its token) against computer
// players, its seat kept as the page keeps it, and the page opened on it: the game's id.
async function openGame(page, api, ruleset, deck, bots = ['greedy'], me = true) {
    const id = await page.evaluate(async ({ api, ruleset, deck, bots, me }) => {
        const who = JSON.parse(localStorage.getItem(`tilehall.player@${api}`));
        const r = await fetch(`${api}/v1/games`, { method: 'POST', headers: { Authorization: `Bearer ${who.token}`,
            'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID().replace(/-/g, '') },
        body: JSON.stringify({ ruleset, deck, players: [...(me ? [{ player: 'me' }] : []), ...bots.map((b) => ({ bot: b, think_ms: 10 }))] }) });
        const g = await r.json();
        const seats = JSON.parse(localStorage.getItem(`tilehall.seats@${api}`) || '{}');
        if (me) seats[g.id] = { seat: 0, token: null };
        localStorage.setItem(`tilehall.seats@${api}`, JSON.stringify(seats));
        return g.id;
    }, { api, ruleset, deck, bots, me });
    await page.goto(`${api}/#/game/${id}`);
    await page.waitForFunction(() => window.tilehall.view && window.tilehall.view.state && window.tilehall.view.state.game);
    return id;
}

// Waits until the board shows the server's art for the state the page holds.
const artShown = (page) => page.waitForFunction(() => {
    const g = window.tilehall.view.state.game;
    return document.querySelectorAll('#board .art g.tile').length === g.board.length;
}, null, { timeout: 10000 });

// The page's phase: 'over', 'draw', 'place' (my turn, squares shown) or 'wait'.
const phase = (page) => page.evaluate(() => {
    const v = window.tilehall.view, g = v.state.game;
    if (g.status === 'finished' || g.status === 'aborted') return 'over';
    if (v.state.busy) return 'wait';
    if (document.querySelector('#draw')) return 'draw';
    if (document.querySelector('#board .cand')) return 'place';
    return 'wait';
});

// Presses Tab until `sel` has the focus (at most `max` times): true when it has.
async function tabTo(page, sel, max = 400) {
    for (let i = 0; i < max; i++) {
        if (await page.evaluate((s) => !!document.activeElement && document.activeElement.matches(s), sel)) return true;
        await page.keyboard.press('Tab');
    }
    return false;
}

test('one drawing: the server\'s art, its colours, a number per seat', { timeout: 60000 }, async () => {
    const { api } = env;
    const { ctx, page, lines } = await watchedPage(env, DESKTOP);
    await makePlayer(page, api, 'Ann');
    const cats = (await (await fetch(`${api}/v1/rulesets/hills/tiles`)).json()).tiles;
    const withSymbols = cats.filter((x) => x.features.some((f) => f.harvest) || x.animals).slice(0, 5).map((x) => x.id);
    // Computer players only: the page watches them to the end.
    const id = await openGame(page, api, 'hills', [...withSymbols, ...cats.slice(0, 3).map((x) => x.id)],
        ['greedy', 'random', 'greedy'], false);
    await page.waitForFunction(() => window.tilehall.view.state.game.status === 'finished', null, { timeout: 30000 });
    await artShown(page);
    const svg = await (await fetch(`${api}/v1/games/${id}/board.svg`)).text();
    const inTiles = (cls) => (svg.split('<g class="tile"').slice(1).join('').split('<g class="pieces">')[0]
        .match(new RegExp(`class="${cls}"`, 'g')) || []).length;
    const shown = await page.evaluate(() => ({
        tiles: document.querySelectorAll('#board .art g.tile').length,
        harvest: document.querySelectorAll('#board .art g.tile .harvest').length,
        animals: document.querySelectorAll('#board .art g.tile .animals').length,
        pieces: document.querySelectorAll('#board .art .pieces > *').length,
        badges: document.querySelectorAll('#board .art .seat-badge').length,
        board: window.tilehall.view.state.game.board.length,
        pieceCount: window.tilehall.view.state.game.board.reduce((n, b) => n + b.pieces.length, 0),
    }));
    assert.equal(shown.tiles, shown.board);
    assert.equal(shown.harvest, inTiles('harvest'), 'the picture\'s harvest symbols');
    assert.equal(shown.animals, inTiles('animals'), 'the picture\'s animals');
    assert.ok(shown.harvest + shown.animals > 0, 'hills symbols on the board');
    assert.equal(shown.pieces, shown.pieceCount);
    assert.equal(shown.badges, shown.pieceCount, 'a seat number on every figure');
    // The seat colours are the picture's (its legend's swatches), seat by seat.
    const fills = [...svg.matchAll(/<g class="player" id="seat_(\d+)"><?[^]*?class="swatch follower"[^>]*fill="(#[0-9a-f]+)"/g)]
        .map((m) => [Number(m[1]), m[2]]);
    assert.ok(fills.length >= 2);
    const colors = await page.evaluate(async () => (await import('/web/seats.js')).SEAT_COLORS);
    for (const [seat, fill] of fills) assert.equal(colors[seat], fill, `seat ${seat}`);
    const badge = await page.$eval('#scores tbody tr[data-seat="1"] .seatdot', (e) => e.textContent);
    assert.equal(badge, '2');
    await axe(page, 'the board of a finished hills game, watched');
    await page.screenshot({ path: path.join(artifacts, 'board-hills-desktop.png') });
    // A spectator's chat panel asks for the chat without a seat's token (chat.js; 401).
    assert.deepEqual(lines.filter((l) => !/401 .*\/chat\?after=/.test(l)), []);
    await ctx.close();
});

test('a whole game with the keyboard alone; the board in words; the history shows places', { timeout: 120000 }, async () => {
    const { api } = env;
    const { ctx, page, lines } = await watchedPage(env, DESKTOP);
    await makePlayer(page, api, 'Ann');
    await openGame(page, api, 'classic', ['U', 'V', 'E', 'K', 'L', 'B', 'D', 'J']);
    // Whether a scoring was ever shown on the board (it stays a moment only).
    await page.evaluate(() => {
        window.flashSeen = 0;
        new MutationObserver(() => { if (document.querySelector('#board .flash-points')) window.flashSeen++; })
            .observe(document.querySelector('#board'), { childList: true, subtree: true });
    });
    let placed = 0, checked = false;
    for (let n = 0; n < 400; n++) {
        const p = await phase(page);
        if (p === 'over') break;
        if (p === 'wait') { await page.waitForTimeout(100); continue; }
        if (p === 'draw') {
            await page.keyboard.press('d');
            await page.waitForFunction(() => !document.querySelector('#draw'), null, { timeout: 10000 });
            continue;
        }
        // Place: Tab to a square, Enter; R turns; the follow-ups by arrow keys; Confirm.
        assert.ok(await tabTo(page, '#board .cand'), 'a square reached by Tab');
        await page.keyboard.press('Enter');
        await page.waitForSelector('#board .preview');
        if (placed % 2) await page.keyboard.press('r');
        if (!checked) {
            await artShown(page);
            await page.waitForFunction(() => document.querySelector('#board .preview g.loose-tile'), null, { timeout: 10000 });
            await axe(page, 'the board with a placement chosen');
            await page.screenshot({ path: path.join(artifacts, 'board-keyboard-preview.png') });
            checked = true;
        }
        if (await tabTo(page, 'input[name=fu]', 600)) {
            await page.keyboard.press('ArrowDown');
            await page.waitForFunction(() => window.tilehall.view.state.fu > 0 || document.querySelectorAll('input[name=fu]').length < 2,
                null, { timeout: 5000 });
        }
        assert.ok(await tabTo(page, '#confirm', 600), 'Confirm reached by Tab');
        const before = await page.evaluate(() => window.tilehall.view.state.game.version);
        await page.keyboard.press('Enter');
        await page.waitForFunction((v) => window.tilehall.view.state.game.version > v, before, { timeout: 10000 });
        assert.equal(await page.$eval('#err', (e) => (e.hidden ? '' : e.textContent)), '', 'a legal move refused');
        placed++;
    }
    assert.equal(await phase(page), 'over', 'the game ended');
    assert.ok(placed >= 3, `placed ${placed}`);
    await artShown(page);
    // The last tile framed where the state says.
    const last = await page.evaluate(() => {
        const g = window.tilehall.view.state.game, b = g.board[g.board.length - 1];
        const r = document.querySelector('#board .last-placed');
        return { x: b.x, y: b.y, rx: Number(r.getAttribute('x')), ry: Number(r.getAttribute('y')) };
    });
    assert.equal(Math.floor(last.rx / 60), last.x);
    assert.equal(Math.floor(last.ry / 60), last.y);
    // The board in words: a line a tile, names of the pieces' owners.
    const words = await page.evaluate(() => ({
        tiles: document.querySelectorAll('#board .board-words .words-tiles li').length,
        board: window.tilehall.view.state.game.board.length,
        text: document.querySelector('#board .board-words').textContent,
    }));
    assert.equal(words.tiles, words.board);
    assert.match(words.text, /Last tile: Tile [A-Z]+\d* at \(-?\d+, -?\d+\)/);
    // A history line with a place: focused (by Tab) it marks the place, and leaves it after.
    await page.waitForSelector('#history li[data-x]');
    assert.ok(await tabTo(page, '#history li[data-x]', 800), 'a history line reached by Tab');
    const mark = await page.evaluate(() => {
        const li = document.activeElement, r = document.querySelector('#board .place-mark');
        return r && { x: Number(li.dataset.x), y: Number(li.dataset.y), rx: Number(r.getAttribute('x')) + 3, ry: Number(r.getAttribute('y')) + 3 };
    });
    assert.ok(mark, 'the place marked');
    assert.deepEqual([mark.rx / 60, mark.ry / 60], [mark.x, mark.y]);
    await page.keyboard.press('Shift+Tab');
    await page.waitForFunction(() => !document.querySelector('#board .place-mark'), null, { timeout: 2000 });
    // A scoring of a feature the stream brought was shown on the board with its points.
    const placedScorings = await page.evaluate(() => window.tilehall.view.state.history
        .filter((e) => e.type === 'feature_scored' && e.x !== undefined).length);
    if (placedScorings) assert.ok(await page.evaluate(() => window.flashSeen > 0), 'a scoring shown on the board');
    // Scorings as words with their tiles and points.
    const scored = await page.$$eval('#history li[data-type=feature_scored]', (l) => l.map((x) => x.textContent));
    for (const s of scored) assert.match(s, /^A [a-z]+ of \d+ tiles (scored: \+\d+ for .+|was completed)\.$/);
    await axe(page, 'the board at the end of a game');
    await page.screenshot({ path: path.join(artifacts, 'board-keyboard-end.png'), fullPage: true });
    assert.deepEqual(lines, []);
    await ctx.close();
});

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
    await page.waitForFunction((w) => Number(document.querySelector('#board .board-svg').getAttribute('viewBox').split(' ')[2]) < w,
        (await box())[2], { timeout: 2000 }).catch(() => {});
    const before = await box();
    await page.mouse.move(r.x + 20, r.y + r.h - 20);
    await page.mouse.down();
    await page.mouse.move(r.x + 120, r.y + r.h - 80, { steps: 5 });
    await page.mouse.up();
    const after = await box();
    assert.ok(after[0] < before[0] && after[1] > before[1], `dragged: ${before} -> ${after}`);
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
