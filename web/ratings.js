// ratings.js: ratings as the page shows them (api.md "Ratings and leaderboards"): a
// rating in words ("1642", marked while provisional), its change ("+12"), a computer
// player's think class, the computer players' ratings (GET /v1/bots, asked once a minute at
// most) and the rating changes that a finished game carries.
import { get } from './api.js';
import { h } from './dom.js';
import { t } from './i18n.js';

export const POOLS = ['classic', 'hills', 'discovery']; // the pools are the rulesets

// A computer player's think class from its thinking time (api.md: fast under 100 ms,
// normal 100-999 ms, slow 1,000 ms and more).
export const thinkClass = (ms) => (ms < 100 ? 'fast' : ms < 1000 ? 'normal' : 'slow');

// The number of a rating given as {rating, ...} or as a bare number; null when neither.
export function ratingNumber(r) {
    if (typeof r === 'number' && Number.isFinite(r)) return Math.round(r);
    if (r && typeof r === 'object' && Number.isFinite(r.rating)) return Math.round(r.rating);
    return null;
}

// A signed change in words: "+12", "−8", "±0".
export const signed = (d) => (d > 0 ? '+' + d : d < 0 ? '−' + -d : '±0');

// A rating as an element: its number, marked "?" while provisional (said in words to a
// screen reader), its deviation in the tooltip. Null when `r` holds no rating.
export function ratingBadge(r, cls = 'rating') {
    const n = ratingNumber(r);
    if (n === null) return null;
    const prov = r && typeof r === 'object' && r.provisional;
    const dev = r && typeof r === 'object' && Number.isFinite(r.deviation) ? Math.round(r.deviation) : null;
    return h('span', { class: cls + (prov ? ' provisional' : ''),
        title: dev !== null ? t('rating_title', { r: n, d: dev }) + (prov ? ' · ' + t('provisional') : '') : null },
    String(n), prov ? h('span', { 'aria-hidden': 'true' }, '?') : null,
    prov ? h('span', { class: 'sr-only' }, ' (' + t('provisional') + ')') : null);
}

// A change of rating as an element: "1500 → 1512 (+12)" ("1512 (+12)" on a phone).
export function ratingChange(before, after) {
    const d = after - before;
    return h('span', { class: 'rating change' }, h('span', { class: 'wide' }, `${before} → `), `${after} `,
        h('span', { class: d > 0 ? 'up' : d < 0 ? 'down' : '' }, `(${signed(d)})`));
}

// GET /v1/bots, kept a minute: {level: {think_class: {pool: rating}}}.
let bots = null;
export function botRatings() {
    if (!bots || Date.now() - bots.at > 60000) {
        const p = get('/v1/bots').then((b) => {
            const by = {};
            for (const x of b.bots || []) (by[x.level] ||= {})[x.think_class] = x.ratings || {};
            return by;
        });
        bots = { at: Date.now(), p };
        p.catch(() => { bots = null; });
    }
    return bots.p;
}

// The rating of computer player `level` thinking `ms` in `pool`, from botRatings()'s map.
export const botRating = (by, level, ms, pool) => ((by[level] || {})[thinkClass(ms)] || {})[pool] || null;

// {seat: {before, after}} from a game_finished event: each seat's rating before and after
// the game (api.md; openapi's SeatRatingChange), as `ratings: [{seat, before, after}]`
// (each a rating object {rating, deviation}, or a number; `rating_before` /
// `rating_after` taken as well) or the same fields on `players[]`. Empty when the event
// carries none (an unrated game).
export function ratingChanges(ev) {
    const out = {};
    const list = Array.isArray(ev && ev.ratings) ? ev.ratings : Array.isArray(ev && ev.players) ? ev.players : [];
    list.forEach((x, i) => {
        if (!x || typeof x !== 'object') return;
        const before = ratingNumber(x.before ?? x.rating_before);
        const after = ratingNumber(x.after ?? x.rating_after);
        if (before !== null && after !== null) out[Number.isInteger(x.seat) ? x.seat : i] = { before, after };
    });
    return out;
}

// A seat's change of rating in a finished rated game of a games list (`rating_before`,
// `rating_after`: null in an unrated one), as " (+12)", else "".
export function changeOf(seat) {
    const before = ratingNumber(seat.rating_before), after = ratingNumber(seat.rating_after);
    return before !== null && after !== null ? ` (${signed(after - before)})` : '';
}

// {seat: player id} of the people a game_finished event's `ratings` names.
export function ratedPlayers(events) {
    const fin = events.find((e) => e.type === 'game_finished');
    const out = {};
    for (const x of (fin && Array.isArray(fin.ratings) ? fin.ratings : [])) if (x && x.player_id) out[x.seat] = x.player_id;
    return out;
}

// What stands beside seat `s` of `game` in the scores: the seat's change of rating when
// the game's game_finished event (in `events`) or the seat carries one, else the rating
// the state gives the seat, else one known otherwise (`known`: people's ratings in the
// pool from their profiles, by seat), else a computer player's rating in the pool (`by`, from
// botRatings()), else null (an unrated seat: nothing shown).
export function seatRating(game, s, events, by, known = {}) {
    const fin = events.find((e) => e.type === 'game_finished');
    const p = (game.players || [])[s] || {};
    const ch = (fin && ratingChanges(fin)[s]) || ratingChanges({ players: [{ ...p, seat: s }] })[s];
    if (ch) return ratingChange(ch.before, ch.after);
    if (p.rating !== undefined && p.rating !== null) return ratingBadge(p.rating);
    if (known[s]) return ratingBadge(known[s]);
    if (p.bot && by) return ratingBadge(botRating(by, p.bot, p.think_ms, game.ruleset));
    return null;
}
