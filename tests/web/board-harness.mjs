// board-harness.mjs: what the board's browser tests (board-*.test.mjs) share, over
// ratings-harness.mjs's server: a game made by the page's player (or computer players only)
// and opened in the page, waits for the server's art and the page's phase, Tab until a
// control has the focus.
export const PHONE_390 = { viewport: { width: 390, height: 844 }, locale: 'en-GB', isMobile: true, hasTouch: true };

// A game made by the page's player (through the API with its token) against computer
// players, its seat kept as the page keeps it, and the page opened on it: the game's id.
export async function openGame(page, api, ruleset, deck, bots = ['greedy'], me = true, options = {}) {
    const id = await page.evaluate(async ({ api, ruleset, deck, bots, me, options }) => {
        const who = JSON.parse(localStorage.getItem(`tilehall.player@${api}`));
        const r = await fetch(`${api}/v1/games`, { method: 'POST', headers: { ...(who ? { Authorization: `Bearer ${who.token}` } : {}),
            'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID().replace(/-/g, '') },
        body: JSON.stringify({ ruleset, deck, options, players: [...(me ? [{ player: 'me' }] : []), ...bots.map((b) => ({ bot: b, think_ms: 10 }))] }) });
        const g = await r.json();
        const seats = JSON.parse(localStorage.getItem(`tilehall.seats@${api}`) || '{}');
        if (me) seats[g.id] = { seat: 0, token: null };
        localStorage.setItem(`tilehall.seats@${api}`, JSON.stringify(seats));
        return g.id;
    }, { api, ruleset, deck, bots, me, options });
    await page.goto(`${api}/#/game/${id}`);
    await page.waitForFunction((want) => window.tilehall.view && window.tilehall.view.state &&
        window.tilehall.view.state.game && window.tilehall.view.state.game.id === want, id);
    return id;
}

// Waits until the board shows the server's art for the state the page holds.
export const artShown = (page) => page.waitForFunction(() => {
    const g = window.tilehall.view.state.game;
    return document.querySelectorAll('#board .art g.tile').length === g.board.length;
}, null, { timeout: 10000 });

// The page's phase: 'over', 'draw', 'place' (my turn, squares shown) or 'wait'.
export const phase = (page) => page.evaluate(() => {
    const v = window.tilehall.view, g = v.state.game;
    if (g.status === 'finished' || g.status === 'aborted') return 'over';
    if (v.state.busy) return 'wait';
    if (document.querySelector('#draw')) return 'draw';
    if (document.querySelector('#board .cand')) return 'place';
    return 'wait';
});

// Presses Tab until `sel` has the focus (at most `max` times): true when it has.
export async function tabTo(page, sel, max = 400) {
    for (let i = 0; i < max; i++) {
        if (await page.evaluate((s) => !!document.activeElement && document.activeElement.matches(s), sel)) return true;
        await page.keyboard.press('Tab');
    }
    return false;
}
