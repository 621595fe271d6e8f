// profile.js: a player's public profile (#/player/<id>): the name, the rating in each pool
// with its deviation, provisional mark and record (GET /v1/players/{id}), one pool's
// history as a chart and a table (GET /v1/players/{id}/ratings/{pool}), and the player's
// finished games (GET /v1/players/{id}/games?status=finished) when the server answers it.
import { ApiError, get } from './api.js';
import { ratingChart } from './chart.js';
import { errBox, h, showError } from './dom.js';
import { getLang, t } from './i18n.js';
import { changeOf, POOLS, ratingBadge, ratingChange } from './ratings.js';

const HISTORY_ROWS = 20; // rows of the history table, the newest

const day = (iso) => (iso ? new Date(iso).toLocaleDateString(getLang()) : '—');
const placeText = (p) => t('place_of', { place: p.place, seats: p.seats });

// The ratings table: a row per pool the player has played rated games in.
function ratingsTable(ratings) {
    const pools = POOLS.filter((p) => ratings[p]);
    if (!pools.length) return h('p', { class: 'muted', id: 'no-ratings' }, t('no_ratings'));
    return h('div', { class: 'tablewrap' }, h('table', { id: 'ratings-table' },
        h('thead', {}, h('tr', {},
            h('th', { scope: 'col' }, t('pool')), h('th', { scope: 'col', class: 'num' }, t('rating')),
            h('th', { scope: 'col', class: 'num' }, t('deviation')), h('th', { scope: 'col', class: 'num' }, t('games')),
            h('th', { scope: 'col', class: 'num' }, t('record')), h('th', { scope: 'col', class: 'wide' }, t('last_rated')))),
        h('tbody', {}, pools.map((p) => {
            const r = ratings[p];
            return h('tr', { 'data-pool': p },
                h('th', { scope: 'row' }, h('a', { href: `#/leaderboard/${p}` }, t('ruleset_' + p))),
                h('td', { class: 'num' }, ratingBadge(r)),
                h('td', { class: 'num' }, '± ' + r.deviation),
                h('td', { class: 'num' }, String(r.games)),
                h('td', { class: 'num' }, t('record_wdl', { w: r.won, d: r.drawn, l: r.lost })),
                h('td', { class: 'wide' }, day(r.last_rated_at)));
        }))));
}

// One pool's history: the chart, then the newest games as a table.
function historyBody(hist, width) {
    const pts = hist.history || [];
    if (!pts.length) return [h('p', { class: 'muted' }, t('no_history'))];
    const rows = pts.slice(-HISTORY_ROWS).reverse().map((p) => h('tr', {},
        h('td', {}, h('a', { href: '#/game/' + p.game_id }, day(p.rated_at))),
        h('td', { class: 'place' }, placeText(p)),
        h('td', { class: 'num' }, ratingChange(p.rating_before, p.rating_after))));
    return [
        h('figure', { class: 'chartbox' }, ratingChart(pts, t('ruleset_' + hist.pool), width)),
        h('div', { class: 'tablewrap' }, h('table', { id: 'history-table' },
            h('caption', { class: 'sr-only' }, t('history_caption', { pool: t('ruleset_' + hist.pool) })),
            h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('date')), h('th', { scope: 'col' }, t('place')),
                h('th', { scope: 'col', class: 'num' }, t('rating')))),
            h('tbody', {}, rows))),
    ];
}

// A finished game in the list (openapi's MyGame): the ruleset (a link to the game), when
// it ended, its seats with their scores and, in a rated game, each one's change of rating.
function finishedItem(g) {
    const who = (g.players || []).map((x) => `${x.name} ${x.score ?? ''}`.trim() + changeOf(x)).join(' · ');
    return h('li', {}, h('a', { href: '#/game/' + g.id }, t('ruleset_' + g.ruleset)), ' ',
        g.rated ? h('span', { class: 'badge rated' }, t('rated')) : null,
        g.updated_at ? h('span', { class: 'muted' }, day(g.updated_at)) : null,
        h('span', { class: 'who' }, who));
}

export function profileView(root, id, me) {
    const err = errBox('profile-err');
    const name = h('h1', { id: 'profile-name' }, '…');
    const ratingsCard = h('section', { class: 'card', id: 'profile-ratings', 'aria-labelledby': 'ratings-h' },
        h('h2', { id: 'ratings-h' }, t('ratings')));
    const poolSel = h('select', { id: 'history-pool' });
    const histBody = h('div', { id: 'history-body', 'aria-live': 'polite' });
    const histCard = h('section', { class: 'card', id: 'profile-history', 'aria-labelledby': 'rh-h', hidden: true },
        h('div', { class: 'cardhead' }, h('h2', { id: 'rh-h' }, t('rating_history')),
            h('label', { class: 'inline' }, t('pool') + ' ', poolSel)), histBody);
    const gamesList = h('ul', { class: 'games', id: 'finished-games' });
    const gamesCard = h('section', { class: 'card', id: 'profile-games', 'aria-labelledby': 'fg-h', hidden: true },
        h('h2', { id: 'fg-h' }, t('finished_games')), gamesList);
    root.replaceChildren(h('div', { class: 'page profile' },
        h('p', { class: 'crumbs' }, h('a', { href: '#/' }, '← ' + t('back'))), name, err,
        ratingsCard, histCard, gamesCard));
    let stopped = false;

    async function showHistory(pool) {
        try {
            const hist = await get(`/v1/players/${id}/ratings/${pool}`);
            if (!stopped) histBody.replaceChildren(...historyBody(hist, histBody.clientWidth));
        } catch (e) { showError(err, e); }
    }

    (async () => {
        try {
            const p = await get(`/v1/players/${id}`);
            if (stopped) return;
            name.textContent = p.name + (me && me.id === p.id ? ' ' + t('seat_you') : '');
            document.title = `${p.name} · tilehall`;
            ratingsCard.append(ratingsTable(p.ratings || {}));
            // The history of the pool played most, the others a choice away.
            const pools = POOLS.filter((x) => p.ratings && p.ratings[x]).sort((a, b) => p.ratings[b].games - p.ratings[a].games);
            if (pools.length) {
                poolSel.replaceChildren(...pools.map((x) => h('option', { value: x }, t('ruleset_' + x))));
                poolSel.addEventListener('change', () => showHistory(poolSel.value));
                histCard.hidden = false;
                await showHistory(pools[0]);
            }
        } catch (e) {
            name.textContent = e instanceof ApiError && e.status === 404 ? t('no_such_player') : t('player');
            showError(err, e);
            return;
        }
        // Finished games: shown when the server answers the list, left out when it does not.
        try {
            const g = await get(`/v1/players/${id}/games?status=finished&limit=20`);
            if (stopped || !Array.isArray(g.games)) return;
            gamesList.replaceChildren(...(g.games.length ? g.games.map(finishedItem)
                : [h('li', { class: 'muted' }, t('no_games'))]));
            gamesCard.hidden = false;
        } catch {
            gamesCard.hidden = true;
        }
    })();
    return { stop() { stopped = true; } };
}
