// board-keyboard.test.mjs: a whole game on the board with the keyboard alone (issue 30
// items 2 and 7) in headless Chromium, on a fresh database (tilehall_webboardkeys;
// ratings-harness.mjs starts the server behind the spec's validating proxy): D draws, Tab
// to a square, Enter picks, R turns, arrows choose the follow-up, Tab to Confirm, Enter;
// then the last tile framed where the state says, a scoring from the stream shown on the
// board, the board in words, the history's scorings in words, a history line focused marks
// its place; axe-core on the board with a placement chosen and at the end.
// Screenshots: build/web-artifacts/board-keyboard-*.png (WEB_ARTIFACTS).
//
//   node --test tests/web/     (make test-web)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { artifacts, axe, DESKTOP, makePlayer, ratingsServer, watchedPage } from './ratings-harness.mjs';
import { artShown, openGame, phase, tabTo } from './board-harness.mjs';

const env = ratingsServer('tilehall_webboardkeys');

test('a whole game with the keyboard alone; the board in words; the history shows places', { timeout: 120000 }, async () => {
    const { api } = env;
    const { ctx, page, lines } = await watchedPage(env, DESKTOP);
    await makePlayer(page, api, 'Ann');
    await openGame(page, api, 'classic', ['U', 'V', 'E', 'K', 'L', 'B']);
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
    assert.ok(placed >= 2, `placed ${placed}`);
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
    assert.match(words.text, /(Ann|Bot \(greedy\)) \(seat [12]\) has a follower on the [a-z]+ at [NESWC]+\./);
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
    for (const s of scored) assert.match(s, /^(A [a-z]+ of \d+ tiles? (scored: \+\d+ for .+|was completed)|[A-Z][a-z]+: \+\d+ for .+)\.$/);
    await axe(page, 'the board at the end of a game');
    await page.screenshot({ path: path.join(artifacts, 'board-keyboard-end.png'), fullPage: true });
    assert.deepEqual(lines, []);
    await ctx.close();
});
