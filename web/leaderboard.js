// leaderboard.js: a pool's leaderboard (#/leaderboard/<pool>, GET /v1/leaderboards/{pool}):
// the ratings no longer provisional of players active in the last 90 days, best first,
// a page at a time. The server pages forward by cursor; the cursors of the pages seen are
// kept so that "Previous" goes back. Computer players are shown when asked (?bots=true).
import { get } from './api.js';
import { errBox, h, showError } from './dom.js';
import { t } from './i18n.js';
import { POOLS, ratingBadge } from './ratings.js';

const PAGE = 25; // entries a page

// The player's cell: a person links to the profile, a computer player to the bots' page.
function who(e) {
    if (e.player_id) return h('a', { href: '#/player/' + e.player_id }, e.name);
    return h('span', {}, h('a', { href: '#/bots' }, e.name), ' ',
        h('span', { class: 'badge bot' }, `${t('bot_' + e.bot)} · ${t('think_' + e.think_class)}`));
}

export function leaderboardView(root, pool, me) {
    if (!POOLS.includes(pool)) pool = POOLS[0];
    const err = errBox('board-err');
    const bots = h('input', { type: 'checkbox', id: 'board-bots' });
    const body = h('tbody', {});
    const status = h('p', { id: 'board-status', class: 'muted', 'aria-live': 'polite' });
    const prev = h('button', { id: 'board-prev', type: 'button' }, '← ' + t('previous'));
    const next = h('button', { id: 'board-next', type: 'button' }, t('next') + ' →');
    const table = h('table', { id: 'board' },
        h('caption', { class: 'sr-only' }, t('leaderboard_of', { pool: t('ruleset_' + pool) })),
        h('thead', {}, h('tr', {},
            h('th', { scope: 'col', class: 'num' }, t('rank')), h('th', { scope: 'col' }, t('player')),
            h('th', { scope: 'col', class: 'num' }, t('rating')), h('th', { scope: 'col', class: 'num wide' }, t('deviation')),
            h('th', { scope: 'col', class: 'num' }, t('games')))),
        body);
    const tabs = h('nav', { class: 'tabs', 'aria-label': t('pools') }, POOLS.map((p) =>
        h('a', { href: '#/leaderboard/' + p, 'aria-current': p === pool ? 'page' : null }, t('ruleset_' + p))));
    root.replaceChildren(h('div', { class: 'page leaders' },
        h('p', { class: 'crumbs' }, h('a', { href: '#/' }, '← ' + t('back'))),
        h('h1', { id: 'board-title' }, t('leaderboard_of', { pool: t('ruleset_' + pool) })), tabs,
        h('section', { class: 'card', 'aria-labelledby': 'board-title' },
            h('p', { class: 'muted' }, t('leaderboard_note')),
            h('div', { class: 'row' }, h('label', { for: 'board-bots' }, t('include_bots')), bots),
            h('div', { class: 'tablewrap' }, table), status,
            h('div', { class: 'row pager' }, prev, next)),
        err));
    document.title = `${t('leaderboard')} · tilehall`;

    // cursors[i]: the cursor that gives page i (null for the first).
    const st = { cursors: [null], page: 0, nextCursor: null, stopped: false };
    async function load(focus) {
        try {
            const q = new URLSearchParams({ limit: PAGE });
            if (st.cursors[st.page]) q.set('cursor', st.cursors[st.page]);
            if (bots.checked) q.set('bots', 'true');
            const b = await get(`/v1/leaderboards/${pool}?${q}`);
            if (st.stopped) return;
            st.nextCursor = b.next_cursor;
            body.replaceChildren(...b.entries.map((e) => h('tr', {
                class: me && e.player_id === me.id ? 'me' : null, 'data-rank': e.rank },
            h('td', { class: 'num' }, String(e.rank)), h('th', { scope: 'row' }, who(e)),
            h('td', { class: 'num' }, ratingBadge(e.rating)), h('td', { class: 'num wide' }, '± ' + e.rating.deviation),
            h('td', { class: 'num' }, String(e.rating.games)))));
            const first = b.entries.length ? b.entries[0].rank : 0;
            status.textContent = b.entries.length
                ? t('ranks_shown', { from: first, to: b.entries[b.entries.length - 1].rank })
                : st.page ? '' : t('leaderboard_empty');
            prev.disabled = st.page === 0;
            next.disabled = !st.nextCursor;
            // Paging by keyboard: a button that became disabled would drop focus to the body.
            if (focus && document.activeElement && document.activeElement.disabled) (prev.disabled ? next : prev).focus();
        } catch (e) { showError(err, e); }
    }
    prev.addEventListener('click', () => { if (st.page > 0) { st.page--; load(true); } });
    next.addEventListener('click', () => {
        if (!st.nextCursor) return;
        st.cursors[st.page + 1] = st.nextCursor;
        st.page++;
        load(true);
    });
    bots.addEventListener('change', () => { st.cursors = [null]; st.page = 0; load(false); });
    load(false);
    return { stop() { st.stopped = true; }, state: st };
}
