// playnow.js: play now (issue 26, api.md "Play now"): a form with a seek's choices
// (ruleset, its options, players, a clock from a short list, rated, computer players after
// a while), the waiting view of a seek (#/seek/<id>: a long poll of GET /v1/seeks/{id}
// ?wait=, cancelled with DELETE, off to the game once matched), and the open
// correspondence seeks (GET /v1/seeks), each accepted by seeking the same game.
// What the page keeps and the player come from app.js (`ctx`): {player(), ensurePlayer(name),
// keepSeat(game, seat, token), rulesets(), rulesetName(r)}.
import { ApiError, get, call, post, randomKey } from './api.js';
import { $, clearError, errBox, field, h, showError } from './dom.js';
import { t } from './i18n.js';
import { optionControls, readOptions } from './options.js';

const WAIT = 25; // seconds a poll of the seek waits (the server allows 30)

// The clocks offered: live ones (a bank) and correspondence ones (a time per turn).
const CLOCKS = {
    live5: { initial_seconds: 300, increment_seconds: 5 },
    live10: { initial_seconds: 600, increment_seconds: 10 },
    corr1: { turn_seconds: 86400 },
    corr3: { turn_seconds: 3 * 86400 },
};

// A clock in words: "5 min + 5 s" or "1 day per turn".
export function clockWords(c) {
    if (!c) return t('clock_none');
    if (c.turn_seconds !== undefined) {
        const d = c.turn_seconds / 86400;
        return Number.isInteger(d) ? t('clock_days_turn', { n: d }) : t('clock_secs_turn', { n: c.turn_seconds });
    }
    return t('clock_bank_words', { min: Math.round(c.initial_seconds / 60), inc: c.increment_seconds || 0 });
}

// The home page's "Play now" card.
export function playNowSection(ctx) {
    const err = errBox('seek-err');
    const rsSel = h('select', { id: 'seek-ruleset' });
    const opts = h('div', { class: 'opts' });
    const count = h('select', { id: 'seek-players' }, [2, 3, 4, 5, 6].map((n) => h('option', { value: n }, String(n))));
    const clock = h('select', { id: 'seek-clock', 'aria-describedby': 'seek-clock-help' },
        Object.entries(CLOCKS).map(([k, c]) => h('option', { value: k }, clockWords(c))));
    const rated = h('input', { type: 'checkbox', id: 'seek-rated' });
    const bots = h('input', { type: 'checkbox', id: 'seek-bots', checked: true, 'aria-describedby': 'seek-bots-help' });
    let list = [];
    ctx.rulesets().then((rs) => {
        list = rs;
        rsSel.replaceChildren(...rs.map((r) => h('option', { value: r.name }, ctx.rulesetName(r.name))));
        optionControls(rs[0], opts, 'seek-opt');
    }).catch((e) => showError(err, e));
    rsSel.addEventListener('change', () => optionControls(list.find((r) => r.name === rsSel.value), opts, 'seek-opt'));

    async function seek() {
        clearError(err);
        try {
            const me = await ctx.ensurePlayer($('#myname') && $('#myname').value.trim());
            const body = { ruleset: rsSel.value, options: readOptions(opts), players: Number(count.value),
                clock: CLOCKS[clock.value], rated: rated.checked, bot_after_seconds: bots.checked ? 30 : null };
            const s = await post('/v1/seeks', body, { token: me.token, key: randomKey() });
            location.hash = '#/seek/' + s.id;
        } catch (e) { showError(err, e); }
    }
    return h('section', { class: 'card', id: 'play-now', 'aria-labelledby': 'playnow-h' },
        h('h2', { id: 'playnow-h' }, t('play_now')),
        h('p', { class: 'muted' }, t('play_now_help')),
        field('seek-ruleset', t('ruleset'), rsSel),
        h('fieldset', {}, h('legend', {}, t('options')), opts),
        field('seek-players', t('players_n'), count),
        field('seek-clock', t('clock'), clock, t('seek_clock_help')),
        field('seek-rated', t('rated_game'), rated),
        field('seek-bots', t('seek_bots'), bots, t('seek_bots_help')),
        h('button', { id: 'seek-go', class: 'primary', onclick: seek }, t('play_now')),
        err);
}

// The open correspondence seeks, each with "Accept" (or, for one's own, a link to its
// waiting view). Returns the card with stop().
export function openSeeksSection(ctx) {
    const list = h('ul', { class: 'games', id: 'open-seeks' });
    const err = errBox('open-seeks-err');
    async function accept(s) {
        clearError(err);
        try {
            const me = await ctx.ensurePlayer($('#myname') && $('#myname').value.trim());
            const mine = await post('/v1/seeks', { ruleset: s.ruleset, options: s.options, players: s.players, clock: s.clock,
                rated: s.rated }, { token: me.token, key: randomKey() });
            location.hash = '#/seek/' + mine.id;
        } catch (e) { showError(err, e); }
    }
    async function load() {
        try {
            const r = await get('/v1/seeks');
            const me = ctx.player();
            if (!r.seeks.length) { list.replaceChildren(h('li', { class: 'muted' }, t('no_seeks'))); return; }
            list.replaceChildren(...r.seeks.map((s) => {
                const own = me && s.player.id === me.id;
                const who = h('span', { class: 'who' });
                who.textContent = s.player.name;
                const exp = (s.options && s.options.expansions) || [];
                return h('li', { 'data-seek': s.id }, who, h('span', {}, ctx.rulesetName(s.ruleset)),
                    h('span', { class: 'status' }, [t('players_of', { n: s.players }), clockWords(s.clock),
                        ...exp.map((x) => t('val_' + x))].join(' · ')),
                    s.rated ? h('span', { class: 'badge rated' }, t('rated')) : null,
                    own ? h('a', { href: '#/seek/' + s.id }, t('seek_yours'))
                        : h('button', { class: 'small accept', onclick: () => accept(s),
                            'aria-label': t('seek_accept_of', { name: s.player.name }) }, t('seek_accept')));
            }));
        } catch (e) { showError(err, e); }
    }
    load();
    const timer = setInterval(load, 15000);
    const sec = h('section', { class: 'card', 'aria-labelledby': 'seeks-h' },
        h('h2', { id: 'seeks-h' }, t('open_seeks')), h('p', { class: 'muted' }, t('open_seeks_help')), list,
        h('button', { class: 'small', onclick: load }, t('refresh')), err);
    sec.stop = () => clearInterval(timer);
    return sec;
}

// The waiting view of seek `id` in `main`: polls until matched (then opens the game),
// cancelled or expired. Returns {stop}.
export function seekView(main, id, ctx) {
    const st = { stopped: false, ctl: null, start: Date.now() };
    const line = h('p', { id: 'seek-status', role: 'status' }, t('seek_waiting'));
    const since = h('p', { class: 'muted', id: 'seek-elapsed' });
    const err = errBox('seek-view-err');
    const cancel = h('button', { id: 'seek-cancel', onclick: async () => {
        clearError(err);
        try {
            await call('DELETE', `/v1/seeks/${id}`, { token: ctx.player().token });
            // The poll answers `cancelled` (or the game, if it was matched just before).
        } catch (e) { showError(err, e); }
    } }, t('cancel'));
    main.replaceChildren(h('section', { class: 'card page', 'aria-labelledby': 'seek-h' },
        h('h1', { id: 'seek-h' }, t('play_now')), line, since, h('div', { class: 'row' }, cancel,
            h('a', { href: '#/' }, t('back'))), err));
    const timer = setInterval(() => { since.textContent = t('seek_elapsed', { n: Math.floor((Date.now() - st.start) / 1000) }); }, 1000);

    function show(s) {
        if (s.status === 'matched') {
            ctx.keepSeat(s.game_id, s.seat, null);
            location.hash = '#/game/' + s.game_id;
            return true;
        }
        if (s.status !== 'waiting') {
            line.textContent = t('seek_' + s.status);
            cancel.hidden = true;
            return true;
        }
        line.textContent = t('seek_waiting_for', { n: s.players, clock: clockWords(s.clock), ruleset: ctx.rulesetName(s.ruleset) });
        return false;
    }
    (async () => {
        let wait = 0;
        while (!st.stopped) {
            const me = ctx.player();
            if (!me) { showError(err, new Error(t('need_name'))); return; }
            try {
                st.ctl = new AbortController();
                const s = await get(`/v1/seeks/${id}?wait=${wait}`, { token: me.token, signal: st.ctl.signal });
                if (st.stopped || show(s)) return;
                wait = WAIT;
            } catch (e) {
                if (st.stopped) return;
                showError(err, e);
                if (e instanceof ApiError && e.status < 500) { cancel.hidden = true; return; }
                await new Promise((ok) => setTimeout(ok, 3000));
            }
        }
    })();
    return { stop() { st.stopped = true; clearInterval(timer); if (st.ctl) st.ctl.abort(); } };
}
