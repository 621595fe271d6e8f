// lobby.js: the lobby on the home page (issue 30 item 6): "Open tables", the listed games
// with a seat to take (GET /v1/lobby/tables; a seat taken by number with the player's
// token: POST /v1/games/{id}/join {"seat"}), and "Games to watch", the listed games being
// played (GET /v1/lobby/games; each opens the spectator view). Both read again every few
// seconds while the home page is shown, one page of each (the newest).
import { get, post } from './api.js';
import { $, clearError, errBox, h, showError } from './dom.js';
import { t } from './i18n.js';
import { clockWords } from './playnow.js';

const REFRESH_MS = 10000; // the lists are read again this often
const PAGE = 20; // entries of each list shown (the newest)

// A listed game's setup in words: ruleset, clock, seats.
function setupWords(g, ctx) {
    return [ctx.rulesetName(g.ruleset), clockWords(g.clock), t('players_of', { n: g.seats.length })].join(' · ');
}

// Who holds the taken seats of game `g` ("Ann (1510) · Bot"), as text (names are never markup).
const takenWords = (g) => g.seats.filter((s) => !s.open)
    .map((s) => (s.rating !== null ? `${s.name} (${s.rating})` : s.name)).join(' · ');

// One list's section: heading `key`, entries from `path` drawn by `row`; {sec, load}.
function listSection(id, key, path, row) {
    const list = h('ul', { class: 'games', id });
    const err = errBox(id + '-err');
    async function load() {
        try {
            const r = await get(`${path}?limit=${PAGE}`);
            const items = r.tables || r.games;
            clearError(err);
            list.replaceChildren(...(items.length ? items.map((g) => row(g, err))
                : [h('li', { class: 'muted' }, t(key + '_none'))]));
        } catch (e) { showError(err, e); }
    }
    const sec = h('section', { class: 'card', 'aria-labelledby': id + '-h' },
        h('h2', { id: id + '-h' }, t(key)), h('p', { class: 'muted' }, t(key + '_help')), list,
        h('button', { class: 'small', onclick: load }, t('refresh')), err);
    return { sec, load };
}

// The two sections of the lobby. ctx: {player, ensurePlayer, keepSeat, rulesetName}.
// Returns [tables, games] sections, the first with stop().
export function lobbySections(ctx) {
    async function take(g, seat, err) {
        clearError(err);
        try {
            const me = await ctx.ensurePlayer($('#myname') && $('#myname').value.trim());
            const res = await post(`/v1/games/${g.id}/join`, { seat }, { token: me.token });
            ctx.keepSeat(g.id, res.seat, null);
            location.hash = '#/game/' + g.id;
        } catch (e) { showError(err, e); }
    }
    const tables = listSection('open-tables', 'open_tables', '/v1/lobby/tables', (g, err) => {
        const who = h('span', { class: 'who' });
        who.textContent = takenWords(g);
        return h('li', { 'data-game': g.id }, h('span', {}, setupWords(g, ctx)), ' ', who,
            g.rated ? h('span', { class: 'badge rated' }, t('rated')) : null,
            ...g.seats.filter((s) => s.open).map((s) => h('button', { class: 'small take-seat',
                'data-seat': s.seat, onclick: () => take(g, s.seat, err) }, t('take_seat', { n: s.seat + 1 }))));
    });
    const games = listSection('watch-games', 'games_to_watch', '/v1/lobby/games', (g) => {
        const who = h('span', { class: 'who' });
        who.textContent = takenWords(g);
        return h('li', { 'data-game': g.id }, h('a', { href: '#/game/' + g.id }, setupWords(g, ctx)), ' ', who,
            g.rated ? h('span', { class: 'badge rated' }, t('rated')) : null);
    });
    const loadBoth = () => { tables.load(); games.load(); };
    loadBoth();
    const timer = setInterval(loadBoth, REFRESH_MS);
    tables.sec.stop = () => clearInterval(timer);
    return [tables.sec, games.sec];
}
