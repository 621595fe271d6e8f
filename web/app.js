// app.js: the tilehall reference web client. It uses only the public HTTP API (api.js):
// a player identity kept in localStorage, games created and joined, the board drawn from
// the tile catalogue (board.js), turns played with the legal placements the server lists,
// the game followed live over server-sent events. Routes are in the address's #fragment:
//   #/                      home: you, the lobby, a new game, my games, join by link
//   #/game/<id>             a game (played when this browser holds a seat, else watched)
//   #/join/<id>/<invite>    an invite link: take the open seat (or watch, once it is taken)
//   #/seek/<id>             play now: waiting for a seek to be matched (playnow.js)
//   #/player/<id>           a player's profile: ratings, their history (profile.js)
//   #/leaderboard/<pool>    a pool's leaderboard (leaderboard.js)
//   #/bots                  the computer players' ratings (bots.js)
//   #/tournaments[/<status>] tournaments, #/tournament/<id> one (tournaments.js)
import { API, API_DEFAULT, ApiError, apiRefused, call, get, post, randomKey } from './api.js';
import { labelWords, loadAnalysis, marginChart, placementsBySquare } from './analysis.js';
import { drawBoard, flashScore, rotLoc, showPlace, tileSvg } from './board.js';
import { seatBadge } from './seats.js';
import { botsView } from './bots.js';
import { chatPanel } from './chat.js';
import { $, clearError, errBox, field, h, showError } from './dom.js';
import { getLang, LANGS, setLang, t } from './i18n.js';
import { leaderboardView } from './leaderboard.js';
import { lobbySections } from './lobby.js';
import { optionControls, readOptions } from './options.js';
import { openSeeksSection, playNowSection, seekView } from './playnow.js';
import { profileView } from './profile.js';
import { tournamentsView, tournamentView } from './tournaments.js';
import { botRatings, changeOf, ratedPlayers, seatRating } from './ratings.js';

const main = () => $('#main');

// ---- What this browser keeps --------------------------------------------------------

// The player, seats and invites hold tokens of one API: each is kept under that API's base
// (`tilehall.player@https://api.example`) and read back only for it, so a token goes to no
// server but the one that made it. What a version before kept unscoped
// (`tilehall.player`) belongs to the API the page used without ?api=: taken over there.
const SCOPED = ['player', 'seats', 'invites'];
const keyOf = (k) => (SCOPED.includes(k) ? `tilehall.${k}@${API}` : 'tilehall.' + k);
const store = {
    get(k, d) { try { return JSON.parse(localStorage.getItem(keyOf(k))) ?? d; } catch { return d; } },
    set(k, v) { localStorage.setItem(keyOf(k), JSON.stringify(v)); },
};
if (API === API_DEFAULT) {
    for (const k of SCOPED) {
        const old = localStorage.getItem('tilehall.' + k);
        if (old === null) continue;
        if (localStorage.getItem(keyOf(k)) === null) localStorage.setItem(keyOf(k), old);
        localStorage.removeItem('tilehall.' + k);
    }
}
const player = () => store.get('player', null); // {id, name, token}
const seatOf = (id) => store.get('seats', {})[id] || null; // {seat, token|null}
function keepSeat(id, seat, token) {
    const s = store.get('seats', {});
    s[id] = { seat, token: token || null };
    store.set('seats', s);
}
// The token that acts for this browser's seat of a game: its own, else the player's.
function tokenFor(id) {
    const s = seatOf(id);
    if (!s) return null;
    return s.token || (player() && player().token);
}

// ---- Small helpers --------------------------------------------------------------------

const rulesetName = (r) => t('ruleset_' + r);
const kindName = (k) => t('kind_' + k);
function pageLink(hash) {
    return location.origin + location.pathname + location.search + hash;
}
function fmtDuration(ms) {
    if (ms < 0) ms = 0;
    const s = Math.floor(ms / 1000);
    const d = Math.floor(s / 86400), hh = Math.floor(s / 3600) % 24, mm = Math.floor(s / 60) % 60, ss = s % 60;
    const two = (n) => String(n).padStart(2, '0');
    return (d ? d + 'd ' : '') + (d || hh ? hh + ':' + two(mm) : mm) + ':' + two(ss);
}

let rulesetsCache = null;
async function rulesets() {
    if (!rulesetsCache) rulesetsCache = (await get('/v1/rulesets')).rulesets;
    return rulesetsCache;
}
const catalogues = {};
async function catalogue(r) {
    if (!catalogues[r]) {
        const c = await get(`/v1/rulesets/${r}/tiles`);
        catalogues[r] = Object.fromEntries(c.tiles.map((x) => [x.id, x]));
    }
    return catalogues[r];
}

// ---- The frame: header, language, routing ---------------------------------------------

let view = null; // the current view's {stop()} (the game view closes its stream)
// The new-game form of the home page to draw again as it is (youSection's save), or null;
// route() clears it once the next view is drawn.
let keptForm = null;

function header() {
    const sel = h('select', { id: 'lang', 'aria-label': t('language'),
        onchange: (e) => { setLang(e.target.value).then(route); } },
    Object.entries(LANGS).map(([k, v]) => h('option', { value: k, selected: k === getLang() }, v)));
    $('#top').replaceChildren(
        h('a', { href: '#/', class: 'brand' }, 'tilehall'),
        h('span', { class: 'tagline' }, t('tagline')),
        h('nav', { class: 'topnav', 'aria-label': t('site') },
            h('a', { href: '#/leaderboard/classic', id: 'nav-board' }, t('leaderboard')),
            h('a', { href: '#/bots', id: 'nav-bots' }, t('bots')),
            h('a', { href: '#/tournaments', id: 'nav-tournaments' }, t('tournaments')),
            player() ? h('a', { href: '#/player/' + player().id, id: 'nav-me' }, t('my_profile')) : null),
        h('label', { class: 'langpick' }, h('span', { class: 'sr-only' }, t('language')), sel),
        // A link that named an API this page may not use: said, not followed.
        ...(apiRefused ? [h('p', { id: 'api-refused', class: 'refused', role: 'alert' },
            t('api_refused', { api: apiRefused, here: API }))] : []));
    document.title = 'tilehall';
}

function route() {
    if (view && view.stop) view.stop();
    view = null;
    document.documentElement.lang = getLang();
    header();
    let tm;
    const m = location.hash.match(/^#\/(game|join|player|leaderboard|seek)\/([0-9a-zA-Z-]+)(?:\/([^/?#]+))?/);
    if (m && m[1] === 'game') view = gameView(m[2]);
    else if (m && m[1] === 'seek') view = seekView(main(), m[2], seekCtx);
    else if (m && m[1] === 'join') view = joinView(m[2], decodeURIComponent(m[3] || ''));
    else if (m && m[1] === 'player') view = profileView(main(), m[2], player());
    else if (m && m[1] === 'leaderboard') view = leaderboardView(main(), m[2], player());
    else if (/^#\/bots\/?$/.test(location.hash)) view = botsView(main());
    else if ((tm = location.hash.match(/^#\/tournaments(?:\/(\w+))?\/?$/))) view = tournamentsView(main(), tm[1], player());
    else if ((tm = location.hash.match(/^#\/tournament\/([0-9a-f-]+)$/))) view = tournamentView(main(), tm[1], player());
    else view = homeView();
    keptForm = null; // for this drawing only: a save that ends on another view keeps nothing
}
window.addEventListener('hashchange', route);

// ---- Home: you, a new game, my games, join by link -----------------------------------

async function ensurePlayer(name) {
    const p = player();
    if (p) return p;
    if (!name) throw new Error(t('need_name'));
    const made = await post('/v1/players', { name }, { key: randomKey() });
    store.set('player', { id: made.id, name: made.name, token: made.token });
    return player();
}

function youSection() {
    const p = player();
    const input = h('input', { id: 'myname', maxlength: 40, value: p ? p.name : '', disabled: !!p,
        autocomplete: 'nickname' });
    const err = h('p', { class: 'err', role: 'alert', hidden: true });
    return h('section', { class: 'card', 'aria-labelledby': 'you-h' },
        h('h2', { id: 'you-h' }, t('you')),
        h('label', {}, t('your_name') + ' ', input),
        p ? h('p', {}, h('a', { href: '#/player/' + p.id, id: 'my-profile' }, t('my_profile_long'))) : null,
        p ? null : h('button', { onclick: async () => {
            try {
                await ensurePlayer(input.value.trim());
                // The page is drawn again for the saved player; the new-game form goes along
                // as it is, with whatever was filled in it before or during the save.
                keptForm = document.getElementById('new-game');
                route();
            } catch (e) { showError(err, e); }
        } }, t('save')),
        err);
}

function seatRow(kind = 'bot') {
    const row = h('div', { class: 'seat row' });
    const sel = h('select', { class: 'seat-kind', 'aria-label': t('seats') },
        h('option', { value: 'me', selected: kind === 'me' }, t('seat_me')),
        h('option', { value: 'open', selected: kind === 'open' }, t('seat_open')),
        h('option', { value: 'bot', selected: kind === 'bot' }, t('seat_bot')));
    const level = h('select', { class: 'seat-level', 'aria-label': t('level') },
        ['random', 'greedy', 'mcts'].map((l) => h('option', { value: l, selected: l === 'greedy' }, t('bot_' + l))));
    const think = h('input', { class: 'seat-think', type: 'number', min: 10, max: 10000, value: 250,
        'aria-label': t('think_ms') });
    const botBits = h('span', { class: 'botbits' }, level, ' ', think, ' ', h('span', { class: 'unit' }, t('unit_ms')));
    const sync = () => { botBits.hidden = sel.value !== 'bot'; };
    sel.addEventListener('change', sync);
    sync();
    row.append(sel, botBits, h('button', { type: 'button', class: 'small', 'aria-label': t('remove'),
        onclick: () => row.remove() }, '✕'));
    return row;
}

function newGameSection() {
    const err = h('p', { class: 'err', role: 'alert', hidden: true });
    const rsSel = h('select', { id: 'ruleset' });
    const opts = h('div', { class: 'opts' });
    const seats = h('div', { class: 'seats' }, seatRow('me'), seatRow('bot'));
    const clockKind = h('select', { id: 'clock-kind', 'aria-label': t('clock') },
        h('option', { value: 'none' }, t('clock_none')),
        h('option', { value: 'turn' }, t('clock_turn')),
        h('option', { value: 'bank' }, t('clock_bank')));
    const clockSecs = h('input', { id: 'clock-secs', type: 'number', min: 1, value: 86400, 'aria-label': t('seconds') });
    const clockInc = h('input', { id: 'clock-inc', type: 'number', min: 0, value: 5, 'aria-label': t('increment') });
    const onTimeout = h('select', { id: 'clock-timeout', 'aria-label': t('on_timeout') },
        h('option', { value: 'autoplay' }, t('autoplay')), h('option', { value: 'resign' }, t('resign_at_timeout')));
    const clockBits = h('span', { class: 'clockbits' }, clockSecs, ' ', t('seconds'), ' ',
        h('span', { class: 'incbits' }, '+ ', clockInc, ' ', t('increment')), ' ', onTimeout);
    const syncClock = () => {
        clockBits.hidden = clockKind.value === 'none';
        $('.incbits', clockBits).hidden = clockKind.value !== 'bank';
        if (clockKind.value === 'bank' && Number(clockSecs.value) > 3600) clockSecs.value = 600;
        if (clockKind.value === 'turn' && Number(clockSecs.value) < 60) clockSecs.value = 86400;
    };
    clockKind.addEventListener('change', syncClock);
    syncClock();
    const hints = h('input', { type: 'checkbox', id: 'hints', checked: true });
    const deck = h('input', { id: 'deck', autocomplete: 'off', 'aria-describedby': 'deck-help' });
    // A rated game (api.md "Ratings and leaderboards"): the server deals and hints are off,
    // so those two are set aside while it is ticked; what else it needs (a clock, every
    // seat someone's) the server says when it refuses.
    const rated = h('input', { type: 'checkbox', id: 'rated', 'aria-describedby': 'rated-help' });
    // Listed: shown to everyone in the lobby (open seats as an open table, then to watch).
    const listed = h('input', { type: 'checkbox', id: 'listed', 'aria-describedby': 'listed-help' });
    const syncRated = () => {
        hints.disabled = deck.disabled = rated.checked;
        if (rated.checked) hints.checked = false;
    };
    rated.addEventListener('change', syncRated);
    let list = [];
    rulesets().then((rs) => {
        list = rs;
        rsSel.replaceChildren(...rs.map((r) => h('option', { value: r.name }, rulesetName(r.name))));
        optionControls(rs[0], opts);
    }).catch((e) => showError(err, e));
    rsSel.addEventListener('change', () => optionControls(list.find((r) => r.name === rsSel.value), opts));

    async function create() {
        clearError(err);
        try {
            const body = { ruleset: rsSel.value, players: [], options: readOptions(opts) };
            let meSeat = -1;
            [...seats.querySelectorAll('.seat')].forEach((row, i) => {
                const k = $('.seat-kind', row).value;
                if (k === 'me') { body.players.push({ player: 'me' }); meSeat = i; }
                else if (k === 'open') body.players.push({ open: true });
                else body.players.push({ bot: $('.seat-level', row).value, think_ms: Number($('.seat-think', row).value) });
            });
            if (clockKind.value === 'turn') body.clock = { turn_seconds: Number(clockSecs.value), on_timeout: onTimeout.value };
            if (clockKind.value === 'bank') {
                body.clock = { initial_seconds: Number(clockSecs.value), increment_seconds: Number(clockInc.value),
                    on_timeout: onTimeout.value };
            }
            if (listed.checked) body.listed = true;
            if (rated.checked) body.rated = true;
            else if (!hints.checked) body.hints = false;
            const d = deck.value.trim();
            if (d && !rated.checked) body.deck = d.split(/[\s,]+/).filter(Boolean);
            let p = player();
            if (meSeat >= 0) p = await ensurePlayer($('#myname') && $('#myname').value.trim());
            const g = await post('/v1/games', body, { token: p && p.token, key: randomKey() });
            if (meSeat >= 0) keepSeat(g.id, meSeat, null);
            const inv = store.get('invites', {});
            inv[g.id] = g.players.filter((x) => x.invite).map((x) => ({ seat: x.seat,
                link: pageLink(`#/join/${g.id}/${encodeURIComponent(x.invite)}`) }));
            store.set('invites', inv);
            location.hash = '#/game/' + g.id;
        } catch (e) {
            showError(err, e);
            if (e instanceof ApiError && e.code === 'unrated_setup') err.textContent = t('rated_refused', { detail: e.message });
            err.scrollIntoView({ block: 'nearest' });
        }
    }
    return h('section', { class: 'card', id: 'new-game', 'aria-labelledby': 'new-h' },
        h('h2', { id: 'new-h' }, t('new_game')),
        field('ruleset', t('ruleset'), rsSel),
        h('fieldset', {}, h('legend', {}, t('options')), opts),
        h('fieldset', {}, h('legend', {}, t('seats')), seats,
            h('button', { type: 'button', class: 'small', id: 'add-seat', onclick: () => {
                if (seats.children.length < 6) seats.append(seatRow('open'));
            } }, '+ ' + t('add_seat'))),
        h('fieldset', {}, h('legend', {}, t('clock')), clockKind, ' ', clockBits),
        field('rated', t('rated_game'), rated, t('rated_help')),
        field('listed', t('listed_game'), listed, t('listed_help')),
        field('hints', t('hints'), hints),
        field('deck', t('deck'), deck, t('deck_help')),
        h('button', { id: 'create', class: 'primary', onclick: create }, t('create')),
        err);
}

function myGamesSection() {
    const list = h('ul', { class: 'games', id: 'my-games' });
    const count = h('p', { class: 'muted', id: 'my-turn-count', 'aria-live': 'polite' });
    const err = h('p', { class: 'err', role: 'alert', hidden: true });
    let etag = null;
    async function load() {
        const p = player();
        if (!p) { list.replaceChildren(h('li', { class: 'muted' }, t('need_name'))); return; }
        try {
            const headers = { Authorization: 'Bearer ' + p.token };
            if (etag) headers['If-None-Match'] = etag;
            const res = await fetch(API + '/v1/players/me/games?limit=50', { headers });
            if (res.status === 304) return;
            const body = await res.json();
            if (!res.ok) throw new ApiError(res.status, body);
            etag = res.headers.get('ETag');
            count.textContent = t('my_turn_count', { n: body.my_turn_count });
            if (!body.games.length) { list.replaceChildren(h('li', { class: 'muted' }, t('no_games'))); return; }
            list.replaceChildren(...body.games.map((g) => {
                if (!seatOf(g.id)) keepSeat(g.id, g.seat, null);
                return h('li', { class: g.my_turn ? 'mine' : '' },
                    h('a', { href: '#/game/' + g.id }, rulesetName(g.ruleset)), ' ',
                    h('span', { class: 'status' }, t('status_' + g.status)),
                    g.my_turn ? h('strong', { class: 'badge' }, t('your_turn')) : null,
                    g.rated ? h('span', { class: 'badge rated' }, t('rated')) : null,
                    h('span', { class: 'who' }, g.players.map((x) => `${x.name} ${x.score}${changeOf(x)}`).join(' · ')),
                    g.deadline ? h('span', { class: 'muted' }, ' · ' + t('deadline_at') + ' ' + new Date(g.deadline).toLocaleString(getLang())) : null);
            }));
        } catch (e) { showError(err, e); }
    }
    // Seats this browser holds by a seat token (joined by a name): not in the player's list.
    const local = h('ul', { class: 'games', id: 'local-games' });
    const listed = () => new Set([...list.querySelectorAll('a')].map((a) => a.getAttribute('href').split('/').pop()));
    function showLocal() {
        const seen = listed();
        const mineHere = Object.entries(store.get('seats', {})).filter(([gid, x]) => x.token && !seen.has(gid));
        local.replaceChildren(...mineHere.slice(-20).reverse().map(([gid, x]) =>
            h('li', {}, h('a', { href: '#/game/' + gid }, `${gid.slice(0, 8)}…`), ' ', h('span', { class: 'muted' }, `#${x.seat + 1}`))));
    }
    const loadAll = () => load().finally(showLocal);
    loadAll();
    const timer = setInterval(loadAll, 10000);
    const sec = h('section', { class: 'card', 'aria-labelledby': 'mine-h' },
        h('h2', { id: 'mine-h' }, t('my_games')), count, list, local,
        h('button', { class: 'small', onclick: loadAll }, t('refresh')), err);
    sec.stop = () => clearInterval(timer);
    return sec;
}

function joinBySection() {
    const input = h('input', { id: 'invite-link', placeholder: 'https://…#/join/…', autocomplete: 'off' });
    const err = h('p', { class: 'err', role: 'alert', hidden: true });
    return h('section', { class: 'card', 'aria-labelledby': 'join-h' },
        h('h2', { id: 'join-h' }, t('join')),
        h('label', {}, t('invite_link') + ' ', input),
        h('button', { onclick: () => {
            const v = input.value.trim();
            const m = v.match(/#\/join\/([0-9a-fA-F-]+)\/([^/?#]+)/) || v.match(/games\/([0-9a-fA-F-]+)\/join\?invite=([^&]+)/);
            if (!m) { showError(err, new Error(t('invite_link') + '?')); return; }
            location.hash = `#/join/${m[1]}/${m[2]}`;
        } }, t('join_btn')), err);
}

// What playnow.js needs of this page.
const seekCtx = { player, ensurePlayer, keepSeat, rulesets, rulesetName };

// Watching: a game's link or id opens its spectator view (the listed games to watch are
// the lobby's, lobby.js).
function watchSection() {
    const input = h('input', { id: 'watch-link', autocomplete: 'off', 'aria-describedby': 'watch-help' });
    const err = errBox('watch-err');
    return h('section', { class: 'card', 'aria-labelledby': 'watch-h' },
        h('h2', { id: 'watch-h' }, t('watch')),
        h('label', { for: 'watch-link' }, t('watch_link')), ' ', input,
        h('p', { id: 'watch-help', class: 'muted help' }, t('watch_help')),
        h('button', { id: 'watch-go', onclick: () => {
            const m = input.value.trim().match(/([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})/);
            if (!m) { showError(err, new Error(t('watch_bad'))); return; }
            location.hash = '#/game/' + m[1].toLowerCase();
        } }, t('watch_btn')), err);
}

function homeView() {
    const mine = myGamesSection();
    const seeks = openSeeksSection(seekCtx);
    const [tables, toWatch] = lobbySections(seekCtx);
    const form = keptForm || newGameSection();
    main().replaceChildren(h('h1', { class: 'sr-only' }, t('title')), h('div', { class: 'home' }, youSection(),
        playNowSection(seekCtx), seeks, tables, toWatch, form, mine, joinBySection(), watchSection()));
    return { stop: () => { mine.stop(); seeks.stop(); tables.stop(); } };
}

// ---- Join by an invite link --------------------------------------------------------------

function joinView(id, invite) {
    const err = h('p', { class: 'err', role: 'alert', hidden: true });
    const p = player();
    const name = h('input', { id: 'join-name', maxlength: 40, value: p ? p.name : '', autocomplete: 'nickname' });
    async function join(asMe) {
        clearError(err);
        try {
            let res;
            if (asMe) {
                const me = await ensurePlayer(name.value.trim());
                res = await post(`/v1/games/${id}/join`, { invite }, { token: me.token });
            } else {
                res = await post(`/v1/games/${id}/join`, { invite, name: name.value.trim() }, { key: randomKey() });
            }
            keepSeat(id, res.seat, res.token || null);
            location.hash = '#/game/' + id;
        } catch (e) {
            showError(err, e);
            // A used (or wrong) invite: the game may still be watched.
            if (e instanceof ApiError && (e.status === 404 || e.status === 409)) watchOffer.hidden = false;
        }
    }
    const watchOffer = h('p', { id: 'join-watch', hidden: true }, t('invite_used'), ' ',
        h('a', { href: '#/game/' + id, class: 'primary-link' }, t('watch_this')));
    main().replaceChildren(h('section', { class: 'card join' },
        h('h1', { class: 'cardtitle' }, t('join')),
        h('label', {}, t('your_name') + ' ', name),
        h('div', { class: 'row' },
            h('button', { id: 'join-me', class: 'primary', onclick: () => join(true) }, t('join_as_me')),
            p ? null : h('button', { id: 'join-name-btn', onclick: () => join(false) }, t('join_btn'))),
        err, watchOffer,
        h('p', {}, h('a', { href: '#/game/' + id, id: 'join-watch-only' }, t('watch_only')))));
    return null;
}

// ---- A game ------------------------------------------------------------------------------

const EVENT_TYPES = ['game_created', 'tile_drawn', 'tile_discarded', 'tile_placed', 'follower_deployed',
    'stable_built', 'hiker_moved', 'follower_withdrawn', 'feature_scored', 'final_scored', 'game_finished',
    'tiles_removed', 'hand_dealt', 'seat_resigned', 'piece_removed', 'goods_taken', 'extra_turn', 'seat_joined',
    'game_started', 'game_aborted', 'turn_timed_out', 'deadline_near', 'game_expired', 'message'];

// The figures of the expansions a seat may hold besides its followers, and the goods.
const FIGURES = ['large', 'builder', 'pig'];
const GOODS = ['wine', 'grain', 'cloth'];
// A seat's goods in words ("wine 2 · cloth 1"), the kinds it has none of left out.
const goodsWords = (goods) => GOODS.filter((k) => goods && goods[k]).map((k) => `${t('goods_' + k)} ${goods[k]}`).join(' · ');

// An event in words, its first letter capitalised (a kind's name may begin the sentence).
function describe(ev, game) {
    const s = describeRaw(ev, game);
    return s.charAt(0).toUpperCase() + s.slice(1);
}

function describeRaw(ev, game) {
    const name = (s) => (game && game.players[s] ? game.players[s].name : `#${s}`);
    const names = (ss) => (ss && ss.length ? ss.map(name).join(', ') : '—');
    const v = { ...ev, name: name(ev.seat), kind: ev.kind ? kindName(ev.kind) : '' };
    switch (ev.type) {
    case 'feature_scored': {
        // A feature names its kind and size; another scoring (a farm's stables, the
        // harvest, goods) its column.
        if (ev.x === undefined) return t('ev_scored_other', { ...v, what: t('col_' + ev.column), names: names(ev.seats) });
        const size = { ...v, size: t(ev.tiles === 1 ? 'tiles_one' : 'tiles_many', { n: ev.tiles }) };
        return ev.seats && ev.seats.length ? t('ev_feature_scored', { ...size, names: names(ev.seats) })
            : t('ev_feature_scored_none', size);
    }
    case 'game_finished': return t('ev_game_finished', { names: names(ev.winners) });
    case 'seat_joined': return t('ev_seat_joined', { name: ev.name || name(ev.seat) });
    case 'goods_taken': return t('ev_goods_taken', { ...v, goods: goodsWords(ev.goods) || '—' });
    case 'follower_deployed':
        return ev.figure && ev.figure !== 'follower' ? t('ev_figure_deployed', { ...v, figure: t('figure_' + ev.figure) })
            : t('ev_follower_deployed', v);
    default: {
        const s = t('ev_' + ev.type, v);
        return s === 'ev_' + ev.type ? ev.type : s;
    }
    }
}

// True for the event that ends a game.
const endsGame = (ev) => ev.type === 'game_finished' || ev.type === 'game_aborted';

function gameView(id) {
    const gs = {
        id, game: null, etag: null, scores: null, ruleset: null, cat: {}, pl: null, plVersion: -1,
        selTile: null, sel: null, fu: 0, lastSeq: 0, history: [], es: null, stopped: false,
        timer: null, refreshing: null, again: false, announced: '', busy: false,
        analysis: null, analysisAsked: false, // a finished game's analysis (analysis.js)
    };
    const mine = () => seatOf(id);
    const el = {
        status: h('p', { id: 'turn-line', class: 'turnline' }),
        live: h('span', { id: 'live', class: 'live off' }, t('live_off')),
        clock: h('span', { id: 'countdown', class: 'countdown' }),
        announce: h('div', { id: 'announce', class: 'sr-only', 'aria-live': 'polite', 'aria-atomic': 'true' }),
        board: h('div', { id: 'board', class: 'board', tabindex: -1 }),
        turn: h('section', { id: 'turn-panel', class: 'card', 'aria-label': t('your_tile') }),
        scores: h('section', { id: 'scores', class: 'card', 'aria-labelledby': 'scores-h' }),
        actions: h('section', { id: 'actions', class: 'card' }),
        analysis: h('section', { id: 'analysis', class: 'card', 'aria-labelledby': 'analysis-h', hidden: true }),
        hist: h('ol', { id: 'history', class: 'history', reversed: true }),
        err: h('p', { id: 'err', class: 'err', role: 'alert', hidden: true }),
        // The action bar: on a phone it stays at the bottom of the screen (draw, rotate, the
        // follow-up, confirm) while the board is scrolled; on a wide screen the turn panel
        // beside the board has the same and the bar is not shown (style.css).
        bar: h('div', { id: 'actionbar', class: 'actionbar', role: 'toolbar', 'aria-label': t('actions_bar'), hidden: true }),
    };
    const chat = chatPanel(id, () => tokenFor(id), () => (mine() ? mine().seat : null), player);
    main().replaceChildren(h('div', { class: 'game' },
        h('div', { class: 'gamehead' }, h('a', { href: '#/' }, '← ' + t('back')), ' ',
            h('h1', { id: 'game-title' }, ''), el.live, el.clock),
        el.status, el.err, el.announce,
        h('div', { class: 'gamebody' }, el.board,
            h('div', { class: 'side' }, el.turn, el.scores, el.analysis, el.actions, chat.el,
                h('section', { class: 'card', 'aria-labelledby': 'hist-h' },
                    h('h2', { id: 'hist-h' }, t('history')), el.hist))), el.bar));

    const myTurn = () => {
        const g = gs.game, s = mine();
        return g && s && g.status === 'active' && g.turn && g.turn.seat === s.seat &&
            !(g.players[s.seat] && g.players[s.seat].resigned);
    };

    async function refresh() {
        if (gs.refreshing) { gs.again = true; return gs.refreshing; }
        gs.refreshing = (async () => {
            do {
                gs.again = false;
                try {
                    const r = await call('GET', `/v1/games/${id}`);
                    if (gs.game && r.body.version !== gs.game.version && gs.plVersion !== r.body.version) {
                        gs.pl = null; // the listed placements belong to a past version
                        gs.sel = null;
                    }
                    gs.game = r.body;
                    gs.etag = r.etag;
                    gs.fetchedAt = Date.now();
                    if (!gs.ruleset) {
                        gs.ruleset = (await rulesets()).find((x) => x.name === gs.game.ruleset);
                        gs.cat = await catalogue(gs.game.ruleset);
                    }
                    gs.scores = await get(`/v1/games/${id}/scores`);
                    if (myTurn() && gs.game.turn.phase === 'place' && gs.plVersion !== gs.game.version) {
                        gs.pl = await get(`/v1/games/${id}/placements`);
                        gs.plVersion = gs.game.version;
                        gs.sel = null;
                        gs.selTile = null;
                        gs.fu = 0;
                    } else if ((!myTurn() || gs.game.turn.phase !== 'place') && gs.plVersion <= gs.game.version) {
                        // Not for placements of a newer version than this state (a draw
                        // answered while this read was on its way): the next read has them.
                        gs.pl = null;
                        gs.sel = null;
                    }
                    render();
                } catch (e) {
                    showError(el.err, e);
                }
            } while (gs.again && !gs.stopped);
            gs.refreshing = null;
        })();
        return gs.refreshing;
    }

    // The history, then the live stream from its end (EventSource reconnects by itself
    // with Last-Event-ID; a stream the server closed is opened again from the last seq).
    async function loadHistory() {
        for (;;) {
            const page = await get(`/v1/games/${id}/events?after=${gs.lastSeq}&limit=1000`);
            for (const ev of page.events) addEvent(ev);
            if (!page.has_more) break;
        }
    }
    function addEvent(ev) {
        if (ev.seq <= gs.lastSeq) return false;
        gs.lastSeq = ev.seq;
        gs.history.push(ev);
        return true;
    }
    function openStream() {
        if (gs.stopped || gs.es) return;
        if (gs.game && (gs.game.status === 'finished' || gs.game.status === 'aborted')) {
            // Over before a stream was open (a resign while the page was still loading): the
            // history's end (a rated game's changes are in game_finished) is read instead,
            // unless the history has it already (a game opened once it was over).
            closeStream();
            if (!gs.history.some(endsGame)) {
                loadHistory().then(() => { renderHistory(); if (gs.scores) renderScores(); }).catch(() => {});
            }
            return;
        }
        const es = new EventSource(`${API}/v1/games/${id}/events/stream?after=${gs.lastSeq}`);
        gs.es = es;
        es.onopen = () => { el.live.textContent = t('live_on'); el.live.className = 'live on'; };
        const onEvent = (e) => {
            let ev;
            try { ev = JSON.parse(e.data); } catch { return; }
            if (addEvent(ev)) {
                flashScore(el.board, ev);
                renderHistory();
                refresh();
            }
            if (endsGame(ev)) closeStream();
        };
        for (const ty of EVENT_TYPES) es.addEventListener(ty, onEvent);
        es.onmessage = onEvent;
        es.onerror = () => {
            el.live.textContent = t('live_off');
            el.live.className = 'live off';
            if (es.readyState === EventSource.CLOSED) {
                gs.es = null;
                if (!gs.stopped) setTimeout(() => { refresh().then(openStream); }, 2000);
            }
        };
    }
    function closeStream() {
        if (gs.es) gs.es.close();
        gs.es = null;
        el.live.textContent = '';
        el.live.className = 'live';
    }

    // ---- Rendering --------------------------------------------------------------------
    function nameOf(s) { return gs.game.players[s] ? gs.game.players[s].name : `#${s}`; }

    function render() {
        const g = gs.game;
        if (!g) return;
        $('#game-title').textContent = rulesetName(g.ruleset);
        if (g.rated) $('#game-title').append(' ', h('span', { class: 'badge rated' }, t('rated')));
        document.title = rulesetName(g.ruleset) + ' · tilehall';
        const s = mine();
        let line;
        if (g.status === 'active') {
            line = myTurn() ? t('it_is_your_turn') + ' ' : '';
            line += t('turn_of', { n: g.turn.number, name: nameOf(g.turn.seat),
                phase: t(g.turn.phase === 'draw' ? 'phase_draw' : 'phase_place') });
            if (g.turn.extra) line += ' · ' + t('extra_turn', { name: nameOf(g.turn.seat) });
            line += ' · ' + t('tiles_left', { n: g.deck_remaining });
        } else if (g.status === 'finished') {
            askAnalysis();
            const w = (gs.scores && gs.scores.winners) || [];
            line = t('game_over', { result: t('result_' + (g.result || 'completed')) }) + ' ' +
                t('winners', { names: w.map(nameOf).join(', ') });
        } else {
            line = t('status_' + g.status);
        }
        if (!s) line += ' · ' + t('spectating');
        line = line.charAt(0).toUpperCase() + line.slice(1);
        el.status.textContent = line;
        el.status.className = 'turnline' + (myTurn() ? ' mine' : '');
        renderBoard();
        renderTurn();
        renderScores();
        renderActions();
        renderHistory();
        const sc = gs.scores ? gs.scores.players.map((p) => `${p.name} ${p.score}`).join(', ') : '';
        const say = `${line}. ${t('scores')}: ${sc}`;
        if (say !== gs.announced) { gs.announced = say; el.announce.textContent = say; }
        tick();
    }

    function entriesFor(tile) {
        if (!gs.pl) return [];
        return gs.pl.placements.filter((p) => (p.tile || gs.pl.tile) === tile && p.same_as === undefined);
    }
    function handTiles() {
        if (!gs.pl) return [];
        return [...new Set(gs.pl.placements.map((p) => p.tile || gs.pl.tile))];
    }
    function current() {
        if (!gs.sel) return null;
        const at = entriesFor(gs.selTile).filter((p) => p.x === gs.sel.x && p.y === gs.sel.y);
        return at.length ? at[gs.sel.i % at.length] : null;
    }

    // The follow-ups of a placement: none, then one follower per feature (spots), one
    // stable per meadow, each hike, each withdrawal (at most one is sent).
    function followups(p) {
        const out = [{ label: t('fu_none'), body: {} }];
        if (!p) return out;
        const tileType = gs.cat[p.tile || gs.pl.tile];
        const featOf = {};
        (tileType ? tileType.features : []).forEach((f, i) => f.locations.forEach((l) => { featOf[rotLoc(l, p.rotation)] = i; }));
        const spots = p.spots || (p.follower || []).map((l) => ({ location: l, kind: '' }));
        const seenF = new Set();
        for (const sp of spots) {
            const f = featOf[sp.location] ?? sp.location;
            if (seenF.has(f)) continue;
            seenF.add(f);
            // A spot lists the figures that may go there (the expansions': large follower,
            // builder, pig); a plain follower is sent without `figure`.
            for (const fig of sp.figures || ['follower']) {
                const plain = fig === 'follower';
                out.push({ label: t(plain ? 'fu_follower' : 'fu_figure', { kind: kindName(sp.kind || 'field'), loc: sp.location,
                    figure: t('figure_' + fig) }),
                body: plain ? { follower: sp.location } : { follower: sp.location, figure: fig },
                figure: fig, piece: { seat: mine().seat, kind: 'follower', figure: fig, location: sp.location } });
            }
        }
        const seenS = new Set();
        for (const l of p.stable || []) {
            const f = featOf[l] ?? l;
            if (seenS.has(f)) continue;
            seenS.add(f);
            out.push({ label: t('fu_stable', { loc: l }), body: { stable: l },
                piece: { seat: mine().seat, kind: 'stable', location: l } });
        }
        for (const k of p.hike || []) {
            out.push({ label: t('fu_hike', { x: k.x, y: k.y, toward: k.toward, points: k.points ?? '?' }),
                body: { hike: { x: k.x, y: k.y, toward: k.toward } },
                piece: { seat: mine().seat, kind: 'follower', location: k.toward, x: k.x, y: k.y } });
        }
        for (const w of p.withdraw || []) {
            out.push({ label: t('fu_withdraw', { x: w.x, y: w.y, kind: kindName(w.kind || 'field'), points: w.points ?? '?' }),
                body: { withdraw: { x: w.x, y: w.y, location: w.location } },
                piece: { seat: mine().seat, kind: 'follower', location: w.location, x: w.x, y: w.y } });
        }
        return out;
    }

    function pick(x, y) {
        if (gs.sel && gs.sel.x === x && gs.sel.y === y) gs.sel.i++;
        else gs.sel = { x, y, i: 0 };
        gs.fu = 0;
        renderBoard();
        renderTurn();
        const again = el.board.querySelector(`.cand[data-x="${x}"][data-y="${y}"]`);
        if (again) again.focus({ preventScroll: true });
    }
    function rotate(step = 1) {
        if (!gs.sel) return;
        gs.sel.i += step + 4 * 8;
        gs.fu = 0;
        renderBoard();
        renderTurn();
    }

    function renderBoard() {
        const g = gs.game;
        let cands = [], preview = null;
        if (myTurn() && gs.pl) {
            if (!gs.selTile) gs.selTile = handTiles()[0];
            const seen = new Set();
            for (const p of entriesFor(gs.selTile)) {
                const k = p.x + ',' + p.y;
                if (seen.has(k)) continue;
                seen.add(k);
                cands.push({ x: p.x, y: p.y, label: `${t('your_tile')} ${gs.selTile} → (${p.x}, ${p.y})` });
            }
            const p = current();
            if (p) {
                const fu = followups(p)[gs.fu];
                preview = { tile: p.tile || gs.pl.tile, x: p.x, y: p.y, rotation: p.rotation, piece: fu && fu.piece };
            }
        }
        // Drawn again only when something it shows changed (keeps focus and the DOM).
        const key = JSON.stringify([g.version, cands.length, preview, gs.selTile, gs.fu, getLang()]);
        if (key === gs.boardKey && el.board.firstChild) return;
        gs.boardKey = key;
        // The follow-ups' spots on the board choose as the list does.
        const cur = current();
        drawBoard(el.board, g, gs.cat, cands, preview, pick, t('board_label'), {
            followups: cur ? followups(cur) : [], fu: gs.fu,
            onFollowup: (i) => { gs.fu = i; renderBoard(); renderTurn(); },
        });
    }

    async function act(fn) {
        if (gs.busy) return;
        gs.busy = true;
        clearError(el.err);
        try {
            await fn();
        } catch (e) {
            gs.lastErr = { status: e.status, code: e.code, at: e.at, version: gs.game && gs.game.version };
            showError(el.err, e);
        }
        // Busy until the page shows the new state: no second click on what was just done.
        try { await refresh(); } finally { gs.busy = false; }
    }
    const draw = () => act(async () => {
        const r = await post(`/v1/games/${id}/draw`, undefined, { token: tokenFor(id), ifMatch: gs.etag });
        if (r && r.placements) {
            gs.pl = { tile: r.tile, placements: r.placements };
            gs.plVersion = r.version;
        }
    });
    const confirmMove = () => act(async () => {
        if (!myTurn() || !gs.pl || gs.plVersion !== gs.game.version) return;
        const p = current();
        if (!p) return;
        const fu = followups(p)[gs.fu] || { body: {} };
        const body = { x: p.x, y: p.y, rotation: p.rotation, ...fu.body };
        if (gs.game.options && gs.game.options.draw === 'hand') body.tile = p.tile || gs.selTile;
        await post(`/v1/games/${id}/placements`, body, { token: tokenFor(id), ifMatch: gs.etag });
        gs.sel = null;
        gs.pl = null;
        gs.plVersion = -1;
    });

    // The server's suggestion (GET /hint, the mcts level): chosen on the board, to confirm.
    const hint = () => act(async () => {
        const r = await get(`/v1/games/${id}/hint?think_ms=250`, { token: tokenFor(id) });
        const hp = r.placement;
        gs.selTile = hp.tile || gs.pl.tile;
        let entry = gs.pl.placements.find((p) => p.x === hp.x && p.y === hp.y && p.rotation === hp.rotation &&
            (p.tile || gs.pl.tile) === gs.selTile);
        if (entry && entry.same_as !== undefined) entry = gs.pl.placements[entry.same_as];
        if (!entry) return;
        const at = entriesFor(gs.selTile).filter((p) => p.x === entry.x && p.y === entry.y);
        gs.sel = { x: entry.x, y: entry.y, i: Math.max(0, at.indexOf(entry)) };
        const fus = followups(entry);
        const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
        const want = ['follower', 'stable', 'hike', 'withdraw'].find((k) => hp[k] !== undefined);
        gs.fu = 0;
        if (want) {
            const tileType = gs.cat[gs.selTile];
            const featOf = {};
            (tileType ? tileType.features : []).forEach((f, i) => f.locations.forEach((l) => { featOf[rotLoc(l, entry.rotation)] = i; }));
            const fig = (f) => f.figure || 'follower';
            let i = fus.findIndex((f) => same(f.body[want], hp[want]) && (want !== 'follower' || fig(f) === (hp.figure || 'follower')));
            if (i < 0) i = fus.findIndex((f) => same(f.body[want], hp[want]));
            if (i < 0 && typeof hp[want] === 'string') {
                i = fus.findIndex((f) => typeof f.body[want] === 'string' && featOf[f.body[want]] === featOf[hp[want]]);
            }
            if (i < 0 && typeof hp[want] === 'object') {
                i = fus.findIndex((f) => f.body[want] && f.body[want].x === hp[want].x && f.body[want].y === hp[want].y &&
                    (f.body[want].toward || f.body[want].location) === (hp[want].toward || hp[want].location));
            }
            gs.fu = Math.max(0, i);
        }
    });

    function renderTurn() {
        const g = gs.game;
        const key = JSON.stringify([g.version, g.status, myTurn(), gs.plVersion, gs.sel, gs.fu, gs.selTile, getLang()]);
        if (key === gs.turnKey) return;
        gs.turnKey = key;
        const kids = [h('h2', {}, myTurn() ? t('it_is_your_turn') : t('your_tile'))];
        if (g.turn && g.turn.extra && g.status === 'active') {
            kids.push(h('p', { id: 'extra-turn', class: 'extra' }, t('extra_turn', { name: nameOf(g.turn.seat) })));
        }
        if (!myTurn()) {
            const s = mine();
            kids[0].textContent = g.status === 'active' ? t('waiting_for', { name: nameOf(g.turn.seat) }) : t('status_' + g.status);
            if (s && g.players[s.seat] && g.players[s.seat].hand) {
                kids.push(h('div', { class: 'hand' }, g.players[s.seat].hand.map((x) => tileSvg(gs.cat[x], g.ruleset, 0, 64))));
            }
        } else if (g.turn.phase === 'draw') {
            kids.push(h('button', { id: 'draw', class: 'primary', onclick: draw, 'aria-keyshortcuts': 'D' }, t('draw')));
        } else if (gs.pl) {
            const tiles = handTiles();
            if (tiles.length > 1) {
                kids.push(h('p', {}, t('your_hand')));
                kids.push(h('div', { class: 'hand', role: 'radiogroup', 'aria-label': t('your_hand') }, tiles.map((x) =>
                    h('button', { class: 'handtile' + (x === gs.selTile ? ' chosen' : ''), role: 'radio',
                        'aria-checked': x === gs.selTile ? 'true' : 'false', 'aria-label': x, 'data-tile': x,
                        onclick: () => { gs.selTile = x; gs.sel = null; gs.fu = 0; renderBoard(); renderTurn(); } },
                    tileSvg(gs.cat[x], g.ruleset, 0, 64)))));
            }
            if (g.hints !== false) {
                kids.push(h('div', { class: 'row' }, h('button', { id: 'hint', class: 'small', onclick: hint }, t('hint'))));
            }
            const p = current();
            const big = h('div', { class: 'drawn' }, tileSvg(gs.cat[gs.selTile], g.ruleset, p ? p.rotation : 0, 96),
                h('span', { class: 'tileid' }, gs.selTile));
            kids.push(big);
            if (!p) {
                kids.push(h('p', { class: 'muted' }, t('choose_square')));
            } else {
                kids.push(h('div', { class: 'row' },
                    h('button', { id: 'rotate', onclick: () => rotate(1), 'aria-keyshortcuts': 'R' }, '⟳ ' + t('rotate')),
                    h('span', { class: 'muted' }, `(${p.x}, ${p.y}) ${p.rotation}°`)));
                const fus = followups(p);
                kids.push(h('fieldset', { class: 'fus' }, h('legend', {}, t('followup')),
                    fus.map((f, i) => h('label', { class: 'fu' },
                        h('input', { type: 'radio', name: 'fu', value: i, checked: i === gs.fu,
                            onchange: () => { gs.fu = i; renderBoard(); } }), ' ', f.label))));
                kids.push(h('div', { class: 'row' },
                    h('button', { id: 'confirm', class: 'primary', onclick: confirmMove, 'aria-keyshortcuts': 'Enter' }, t('confirm')),
                    h('button', { onclick: () => { gs.sel = null; renderBoard(); renderTurn(); } }, t('cancel'))));
            }
        }
        el.turn.hidden = g.status !== 'active' && kids.length === 1;
        el.turn.replaceChildren(...kids);
        renderBar();
    }

    // The phone's action bar (see el.bar): what the turn panel offers, in one line.
    function renderBar() {
        const g = gs.game, kids = [];
        const p = myTurn() && gs.pl ? current() : null;
        if (myTurn() && g.turn.phase === 'draw') {
            kids.push(h('button', { class: 'primary', id: 'bar-draw', onclick: draw }, t('draw')));
        } else if (p) {
            const fus = followups(p);
            const fuSel = h('select', { id: 'bar-fu', 'aria-label': t('followup'),
                onchange: (e) => { gs.fu = Number(e.target.value); renderBoard(); renderTurn(); } },
            fus.map((f, i) => h('option', { value: i, selected: i === gs.fu }, f.label)));
            kids.push(h('button', { id: 'bar-rotate', onclick: () => rotate(1) }, '⟳ ' + t('rotate')), fuSel,
                h('button', { id: 'bar-confirm', class: 'primary', onclick: confirmMove }, t('confirm')),
                h('button', { id: 'bar-cancel', 'aria-label': t('cancel'),
                    onclick: () => { gs.sel = null; renderBoard(); renderTurn(); } }, '✕'));
        } else if (myTurn() && gs.pl) {
            kids.push(h('p', { class: 'muted' }, t('choose_square')));
        }
        el.bar.hidden = !kids.length;
        document.body.classList.toggle('has-bar', kids.length > 0);
        el.bar.replaceChildren(...kids);
    }

    function renderScores() {
        const g = gs.game, sc = gs.scores;
        if (!sc) return;
        const cols = (gs.ruleset && gs.ruleset.columns) || Object.keys(sc.players[0].breakdown || {});
        const proj = Object.fromEntries((sc.projected || []).map((p) => [p.seat, p.score]));
        const winners = new Set(sc.winners || []);
        const active = g.status === 'active';
        const s = mine();
        const rated = ratedPlayers(gs.history); // a rated game's end names each seat's player
        const rows = sc.players.map((p) => {
            const gp = g.players[p.seat] || {};
            const bank = gp.clock_ms !== undefined ? fmtDuration(gp.clock_ms) : null;
            const parts = cols.map((c) => `${t('col_' + c)} ${(p.breakdown || {})[c] ?? 0}`).join(' · ');
            const rating = seatRating(g, p.seat, gs.history, gs.botRatings, gs.knownRatings);
            const pid = gp.player_id || rated[p.seat];
            return h('tr', { class: (active && g.turn && g.turn.seat === p.seat ? 'moving ' : '') +
                (winners.has(p.seat) ? 'winner' : ''), 'data-seat': p.seat },
            h('th', { scope: 'row' }, seatBadge(p.seat), ' ',
                pid ? h('a', { href: '#/player/' + pid }, p.name) : p.name,
                s && s.seat === p.seat ? ' ' + t('seat_you') : '',
                gp.resigned ? ` (${t('resigned')})` : '',
                winners.has(p.seat) ? ' ★' : '', bank ? h('span', { class: 'muted bank' }, ` · ${bank}`) : null,
                rating ? h('div', { class: 'seat-rating', 'data-seat': p.seat }, rating) : null,
                h('div', { class: 'breakdown' }, parts),
                supplyLine(gp, p.seat)),
            h('td', { class: 'num total' }, String(p.score)),
            active ? h('td', { class: 'num muted' }, proj[p.seat] !== undefined ? String(proj[p.seat]) : '') : null,
            h('td', { class: 'num' }, gp.followers !== undefined ? String(gp.followers) : ''));
        });
        el.scores.replaceChildren(h('h2', { id: 'scores-h' }, t('scores')),
            h('div', { class: 'tablewrap' }, h('table', {},
                h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('player')), h('th', { scope: 'col', class: 'num' }, t('score')),
                    active ? h('th', { scope: 'col', class: 'num' }, t('projected')) : null,
                    h('th', { scope: 'col', class: 'num' }, t('followers')))),
                h('tbody', {}, rows))));
    }

    // What a seat holds besides its followers (the expansions' figures left in its supply,
    // its goods, a hills seat's stables), or null when the game has none of them.
    function supplyLine(gp, seat) {
        const bits = [];
        if (gp.stables !== undefined) bits.push(`${t('sup_stables')} ${gp.stables}`);
        for (const f of FIGURES) if (gp[f] !== undefined) bits.push(`${t('figure_' + f)} ${gp[f]}`);
        if (gp.goods) bits.push(t('sup_goods', { goods: goodsWords(gp.goods) || '0' }));
        return bits.length ? h('div', { class: 'supply', 'data-seat': seat }, bits.join(' · ')) : null;
    }

    function renderActions() {
        const g = gs.game, s = mine();
        const kids = [];
        const inv = store.get('invites', {})[id] || [];
        if (g.status === 'waiting' && inv.length) {
            kids.push(h('h2', {}, t('invites')));
            for (const i of inv) {
                const taken = g.players[i.seat] && !g.players[i.seat].open;
                const input = h('input', { readonly: true, value: i.link, class: 'invite', 'data-seat': i.seat,
                    'aria-label': `${t('invite_link')} ${i.seat + 1}` });
                const note = h('span', { class: 'muted', 'aria-live': 'polite' });
                kids.push(h('div', { class: 'row invite-row' }, h('span', {}, `#${i.seat + 1}`), input,
                    taken ? h('span', {}, '✓') : h('button', { class: 'small', onclick: async () => {
                        try { await navigator.clipboard.writeText(i.link); } catch { input.select(); document.execCommand('copy'); }
                        note.textContent = t('copied');
                    } }, t('copy')), note));
            }
        }
        const btns = [];
        const inGame = s && g.players[s.seat] && !g.players[s.seat].resigned;
        if (inGame && g.status === 'active') {
            btns.push(h('button', { id: 'resign', onclick: () => {
                if (!confirm(t('confirm_resign'))) return;
                act(() => post(`/v1/games/${id}/resign`, undefined, { token: tokenFor(id) }));
            } }, t('resign')));
        }
        if (s && (g.status === 'waiting' || (g.status === 'active' && g.turn.number <= g.players.length))) {
            btns.push(h('button', { id: 'abort', onclick: () => act(() => post(`/v1/games/${id}/abort`, undefined,
                { token: tokenFor(id) })) }, t('abort')));
        }
        if (s && g.status === 'finished') {
            btns.push(h('button', { id: 'rematch', class: 'primary', onclick: () => act(async () => {
                const r = await post(`/v1/games/${id}/rematch`, undefined, { token: tokenFor(id) });
                keepSeat(r.id, r.seat, r.token || (seatOf(r.id) && seatOf(r.id).token) || null);
                location.hash = '#/game/' + r.id;
            }) }, t('rematch')));
        }
        if (btns.length) kids.push(h('div', { class: 'row' }, btns));
        el.actions.hidden = !kids.length;
        el.actions.replaceChildren(...kids);
    }

    // A finished game's analysis, asked for once: its chart and each seat's average loss,
    // and the labels on the history's placements (renderHistory).
    function askAnalysis() {
        if (gs.analysisAsked) return;
        gs.analysisAsked = true;
        el.analysis.hidden = false;
        el.analysis.replaceChildren(h('h2', { id: 'analysis-h' }, t('analysis')),
            h('p', { class: 'muted', 'aria-live': 'polite' }, t('analysis_pending')));
        loadAnalysis(id, () => gs.stopped).then((a) => {
            gs.analysis = a;
            if (!a) { el.analysis.hidden = true; return; }
            renderAnalysis();
            renderHistory();
        }).catch(() => { el.analysis.hidden = true; });
    }
    function renderAnalysis() {
        const a = gs.analysis;
        const width = el.analysis.clientWidth ? el.analysis.clientWidth - 24 : 320;
        el.analysis.replaceChildren(h('h2', { id: 'analysis-h' }, t('analysis')),
            h('figure', { class: 'chartbox' }, marginChart(a, nameOf, width)),
            h('ul', { class: 'analysis-seats' }, ...a.seats.map((s) => h('li', { 'data-seat': s.seat }, seatBadge(s.seat),
                ' ', t('analysis_seat', { name: nameOf(s.seat), loss: s.average_loss.toFixed(2) })))));
    }

    function renderHistory() {
        const g = gs.game;
        const last = gs.history.slice(-150).reverse();
        // A line that names a place shows it on the board while pointed at or focused.
        const mark = (ev) => (ev.x === undefined ? {} : {
            tabindex: 0, 'data-x': ev.x, 'data-y': ev.y,
            onmouseenter: () => showPlace(el.board, { x: ev.x, y: ev.y }), onmouseleave: () => showPlace(el.board, null),
            onfocus: () => showPlace(el.board, { x: ev.x, y: ev.y }), onblur: () => showPlace(el.board, null) });
        // A placement's label from the analysis, once there is one.
        const by = gs.analysis ? placementsBySquare(gs.analysis) : null;
        const label = (ev) => {
            const p = by && ev.type === 'tile_placed' ? by.get(`${ev.x},${ev.y}`) : null;
            return p ? [' ', h('span', { class: 'move-label ' + p.label, 'data-label': p.label }, labelWords(p))] : [];
        };
        el.hist.replaceChildren(...last.map((ev) => h('li', { 'data-type': ev.type, ...mark(ev) }, describe(ev, g),
            ...label(ev))));
    }

    function tick() {
        const g = gs.game;
        // The bank of the seat to move runs down between answers.
        if (g && g.status === 'active' && g.players[g.turn.seat] && g.players[g.turn.seat].clock_ms !== undefined) {
            const since = Date.now() - gs.fetchedAt;
            const cell = el.scores.querySelector(`tr[data-seat="${g.turn.seat}"] .bank`);
            if (cell) cell.textContent = ` · ${fmtDuration(g.players[g.turn.seat].clock_ms - since)}`;
        }
        if (!g || g.status !== 'active' || !g.deadline) { el.clock.textContent = ''; return; }
        const left = new Date(g.deadline).getTime() - Date.now();
        el.clock.textContent = t('deadline', { t: fmtDuration(left) });
        el.clock.className = 'countdown' + (left < 30000 ? ' urgent' : '');
    }

    function onKey(e) {
        if (e.target && (e.target.tagName === 'INPUT' && e.target.type !== 'radio' || e.target.tagName === 'SELECT' ||
            e.target.tagName === 'TEXTAREA')) return;
        if (!myTurn()) return;
        if ((e.key === 'r' || e.key === 'R') && gs.sel) { e.preventDefault(); rotate(e.shiftKey ? -1 : 1); }
        else if ((e.key === 'd' || e.key === 'D') && gs.game.turn.phase === 'draw') { e.preventDefault(); draw(); }
        else if (e.key === 'Enter' && gs.sel && !(e.target && e.target.tagName === 'BUTTON') &&
            !(e.target && e.target.classList && e.target.classList.contains('cand'))) { e.preventDefault(); confirmMove(); }
        else if (e.key === 'Escape' && gs.sel) { gs.sel = null; renderBoard(); renderTurn(); }
    }
    document.addEventListener('keydown', onKey);
    gs.timer = setInterval(tick, 1000);

    (async () => {
        try {
            await refresh();
            // The computer players' ratings beside their seats (a rating is no reason to fail).
            if (gs.game && gs.game.players.some((x) => x.bot)) {
                botRatings().then((by) => { gs.botRatings = by; if (gs.scores) renderScores(); }).catch(() => {});
            }
            // People's ratings in the pool from their profiles, for the seats the state names
            // a player of (`player_id`) and this browser's player's own seat.
            const me = player(), s = mine(), ids = {};
            (gs.game ? gs.game.players : []).forEach((x, i) => { if (x.player_id) ids[i] = x.player_id; });
            if (me && s && !s.token) ids[s.seat] = me.id;
            gs.knownRatings = {};
            for (const [seat, pid] of Object.entries(ids)) {
                get(`/v1/players/${pid}`).then((p) => {
                    const r = p.ratings && p.ratings[gs.game.ruleset];
                    if (r) { gs.knownRatings[seat] = r; if (gs.scores) renderScores(); }
                }).catch(() => {});
            }
            // Events that came between the state and the history (computer players move
            // fast: a whole game can end there) are in no state yet, and the stream opens
            // after them: a game still going is read again, or the page could wait for one
            // that is over (a finished game's stream ends at once and the page learns nothing).
            await loadHistory();
            if (gs.game && gs.game.status === 'active') await refresh();
            renderHistory();
            if (gs.scores) renderScores(); // a game_finished in the history carries rating changes
            openStream();
        } catch (e) { showError(el.err, e); }
    })();

    return {
        stop() {
            gs.stopped = true;
            chat.stop();
            closeStream();
            document.body.classList.remove('has-bar');
            clearInterval(gs.timer);
            document.removeEventListener('keydown', onKey);
        },
        state: gs,
    };
}

// For tests and the curious: the current view's state.
window.tilehall = { get view() { return view; }, api: API };
route();
