// tournaments.js: tournaments (#/tournaments, #/tournament/<id>; GET /v1/tournaments,
// POST /v1/tournaments, .../join, .../leave, .../start): the list by status, a form to
// organise one, and a tournament's page with its entrants, its rounds (each table's players
// and a link to its game; one player is a bye) and the live standings, read again every
// few seconds while it runs.
import { get, post } from './api.js';
import { errBox, h, showError } from './dom.js';
import { t } from './i18n.js';

const STATUSES = ['open', 'running', 'finished'];
const REFRESH_MS = 5000; // a running tournament's page is read again this often
const PENDING_MS = 1000; // and this often while a round's games are being made

const fmtPoints = (p) => (Math.round(p * 100) / 100).toString();

// The list: `status` tabs, each tournament linked; with `me` (a player), the form.
export function tournamentsView(root, status, me) {
    if (!STATUSES.includes(status)) status = 'open';
    const err = errBox('tourney-err');
    const list = h('ul', { id: 'tourney-list' });
    const tabs = h('nav', { class: 'tabs', 'aria-label': t('tourney_statuses') }, STATUSES.map((s) =>
        h('a', { href: '#/tournaments/' + s, 'aria-current': s === status ? 'page' : null }, t('tourney_' + s))));
    const name = h('input', { id: 'tourney-name', required: true, maxlength: 40 });
    const format = h('select', { id: 'tourney-format' },
        ['swiss', 'round_robin', 'knockout'].map((f) => h('option', { value: f }, t('format_' + f))));
    const rounds = h('input', { id: 'tourney-rounds', type: 'number', min: 1, max: 64, value: 3 });
    const per = h('input', { id: 'tourney-per', type: 'number', min: 2, max: 4, value: 2 });
    const form = me ? h('form', { id: 'tourney-form', class: 'card' },
        h('h2', {}, t('tourney_new')),
        h('div', { class: 'row' }, h('label', { for: 'tourney-name' }, t('tourney_name')), name),
        h('div', { class: 'row' }, h('label', { for: 'tourney-format' }, t('tourney_format')), format),
        h('div', { class: 'row' }, h('label', { for: 'tourney-rounds' }, t('tourney_rounds')), rounds),
        h('div', { class: 'row' }, h('label', { for: 'tourney-per' }, t('tourney_per_game')), per),
        h('button', { type: 'submit' }, t('tourney_create'))) : h('p', { class: 'muted' }, t('need_name'));
    if (me) {
        form.addEventListener('submit', async (e) => {
            e.preventDefault();
            const body = { name: name.value.trim(), format: format.value, players_per_game: Number(per.value) };
            if (format.value === 'swiss') body.rounds = Number(rounds.value);
            try {
                const x = await post('/v1/tournaments', body, { token: me.token });
                location.hash = '#/tournament/' + x.id;
            } catch (ex) { showError(err, ex); }
        });
    }
    root.replaceChildren(h('div', { class: 'page tournaments' },
        h('p', { class: 'crumbs' }, h('a', { href: '#/' }, '← ' + t('back'))),
        h('h1', { id: 'tourney-title' }, t('tournaments')), tabs,
        h('section', { class: 'card', 'aria-labelledby': 'tourney-title' }, list), form, err));
    document.title = `${t('tournaments')} · tilehall`;
    get('/v1/tournaments?status=' + status + '&limit=50').then((b) => {
        list.replaceChildren(...(b.tournaments.length ? b.tournaments.map((x) => h('li', {},
            h('a', { href: '#/tournament/' + x.id }, x.name), ' ',
            h('span', { class: 'muted' }, `${t('format_' + x.format)} · ${t('tourney_entrants', { n: x.entrant_count })}`)))
            : [h('li', { class: 'muted' }, t('tourney_none'))]));
    }).catch((ex) => showError(err, ex));
}

// One round's tables: the players by seat (seat 0 moves first), the game linked.
function roundSection(r, names) {
    return h('section', { class: 'card', 'data-round': r.round },
        h('h2', {}, t('tourney_round', { n: r.round })),
        h('ul', {}, r.tables.map((x) => h('li', {},
            x.players.map((p) => names[p] || p).join(' – '), ' ',
            x.bye ? h('span', { class: 'badge' }, t('tourney_bye'))
                // A round is paired before its games are made (by a job): no link until then.
                : x.game ? h('a', { href: '#/game/' + x.game }, t('tourney_game', { status: x.status || '' }))
                    : h('span', { class: 'muted' }, t('tourney_game_pending'))))));
}

// A tournament's page; with `me`, join, leave and (the organiser) start.
export function tournamentView(root, id, me) {
    const err = errBox('tourney-err');
    const st = { stopped: false, timer: null };
    async function act(what) {
        try {
            await post(`/v1/tournaments/${id}/${what}`, {}, { token: me.token });
            load();
        } catch (ex) { showError(err, ex); }
    }
    async function load() {
        try {
            const x = await get('/v1/tournaments/' + id);
            if (st.stopped) return;
            const names = Object.fromEntries(x.entrants.map((e) => [e.player, e.name]));
            const mine = me && x.entrants.some((e) => e.player === me.id && e.left_round === null);
            const buttons = me ? h('div', { class: 'row' },
                x.status === 'open' && !mine ? h('button', { id: 'tourney-join', onclick: () => act('join') }, t('tourney_join')) : null,
                mine && x.status !== 'finished' ? h('button', { id: 'tourney-leave', onclick: () => act('leave') }, t('tourney_leave')) : null,
                x.status === 'open' && x.organiser.id === me.id
                    ? h('button', { id: 'tourney-start', onclick: () => act('start') }, t('tourney_start')) : null) : null;
            const standings = h('table', { id: 'tourney-standings' },
                h('caption', {}, t('tourney_standings')),
                h('thead', {}, h('tr', {}, ['rank', 'player', 'tourney_points', 'tourney_buchholz', 'tourney_scores']
                    .map((k) => h('th', { scope: 'col' }, t(k))))),
                h('tbody', {}, x.standings.map((s) => h('tr', { class: me && s.player === me.id ? 'me' : null },
                    h('td', { class: 'num' }, String(s.rank)),
                    h('th', { scope: 'row' }, h('a', { href: '#/player/' + s.player }, s.name)),
                    h('td', { class: 'num' }, fmtPoints(s.points)), h('td', { class: 'num' }, fmtPoints(s.buchholz)),
                    h('td', { class: 'num' }, String(s.score_sum))))));
            root.replaceChildren(h('div', { class: 'page tournament' },
                h('p', { class: 'crumbs' }, h('a', { href: '#/tournaments' }, '← ' + t('tournaments'))),
                h('h1', { id: 'tourney-title' }, x.name),
                h('p', { class: 'muted', id: 'tourney-status' },
                    `${t('format_' + x.format)} · ${t('tourney_' + x.status)} · ${t('tourney_entrants', { n: x.entrant_count })}`),
                buttons, h('div', { class: 'tablewrap' }, standings),
                ...x.pairings.slice().reverse().map((r) => roundSection(r, names)), err));
            document.title = `${x.name} · tilehall`;
            // Read again while it runs; soon while a paired table waits for its game.
            const pending = x.pairings.some((r) => r.tables.some((tb) => !tb.bye && !tb.game));
            clearTimeout(st.timer);
            if (x.status === 'running' || x.status === 'open') st.timer = setTimeout(load, pending ? PENDING_MS : REFRESH_MS);
        } catch (ex) { showError(err, ex); root.replaceChildren(err); }
    }
    load();
    return { stop() { st.stopped = true; clearTimeout(st.timer); } };
}
