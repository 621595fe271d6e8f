// analysis.js: a finished game's analysis (GET /v1/games/{id}/analysis, docs/clients.md):
// asked for until the server has it (202 with Retry-After meanwhile), a small SVG chart of
// each seat's expected final margin after its placements over the game, and each
// placement's label for the history. Drawn with SVG attributes only (the page's
// Content-Security-Policy refuses style attributes).
import { call } from './api.js';
import { el, niceStep } from './chart.js';
import { t } from './i18n.js';
import { SEAT_COLORS } from './seats.js';

const H = 170, PAD_L = 40, PAD_R = 10, PAD_T = 10, PAD_B = 24;
const LOUD = { mistake: '#f08c2e', blunder: '#7a1010' }; // labels marked on the chart

// The analysis of game `id`, asked again after each 202's Retry-After (at most `tries`
// times) until it is there: its body, or null (given up, or `stopped()` became true).
export async function loadAnalysis(id, stopped, tries = 60) {
    for (let i = 0; i < tries && !stopped(); i++) {
        const r = await call('GET', `/v1/games/${id}/analysis`);
        if (r.status === 200) return r.body;
        const wait = Math.max(1, (r.body && r.body.retry_after) || 2);
        await new Promise((res) => setTimeout(res, wait * 1000));
    }
    return null;
}

// The placements of analysis `a` by their square ("x,y": each square is placed on once).
export function placementsBySquare(a) {
    const m = new Map();
    for (const p of a.placements) m.set(`${p.x},${p.y}`, p);
    return m;
}

// The words of one placement's label and loss ("mistake, −6.2").
export function labelWords(p) {
    return t('analysis_label', { label: t('label_' + p.label), loss: p.loss.toFixed(1) });
}

// The chart of analysis `a`: one line per seat (named by `nameOf(seat)`) through the
// margins after its own placements, the placements in order along x; mistakes and
// blunders marked. `width` pixels wide.
export function marginChart(a, nameOf, width) {
    const W = Math.max(280, Math.min(720, Math.round(width) || 600));
    const ps = a.placements, n = Math.max(ps.length, 1);
    const vs = ps.map((p) => p.played_margin);
    let lo = Math.min(0, ...vs), hi = Math.max(0, ...vs);
    const pad = Math.max(5, (hi - lo) * 0.1);
    lo -= pad;
    hi += pad;
    const step = niceStep(hi - lo);
    const x = (i) => PAD_L + (n === 1 ? 0 : (i * (W - PAD_L - PAD_R)) / (n - 1));
    const y = (v) => PAD_T + ((hi - v) * (H - PAD_T - PAD_B)) / (hi - lo);
    const svg = el('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart analysis-chart', role: 'img',
        'aria-label': t('analysis_summary', { n: ps.length }) });
    el('rect', { x: PAD_L, y: PAD_T, width: W - PAD_L - PAD_R, height: H - PAD_T - PAD_B, fill: '#fffdf8',
        stroke: '#d9d0bf' }, svg);
    for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) {
        el('line', { x1: PAD_L, x2: W - PAD_R, y1: y(v), y2: y(v), stroke: v === 0 ? '#9c9281' : '#e6dfd0' }, svg);
        el('text', { x: PAD_L - 6, y: y(v) + 4, 'text-anchor': 'end', 'font-size': 12, fill: '#5c554b' }, svg, String(v));
    }
    for (const seat of a.seats) {
        const colour = SEAT_COLORS[seat.seat % SEAT_COLORS.length]; // as the board's figures
        const mine = ps.map((p, i) => [p, i]).filter(([p]) => p.seat === seat.seat);
        el('polyline', { points: mine.map(([p, i]) => `${x(i)},${y(p.played_margin)}`).join(' '), fill: 'none',
            stroke: colour, 'stroke-width': 2, 'stroke-linejoin': 'round', class: 'seat-line',
            'data-seat': seat.seat }, svg);
        for (const [p, i] of mine) {
            if (!LOUD[p.label]) continue;
            const c = el('circle', { cx: x(i), cy: y(p.played_margin), r: 4, fill: LOUD[p.label], stroke: colour,
                class: 'pt ' + p.label }, svg);
            el('title', {}, c, `${nameOf(p.seat)} · ${labelWords(p)}`);
        }
    }
    el('text', { x: PAD_L, y: H - 6, 'font-size': 12, fill: '#5c554b' }, svg, t('analysis_first'));
    el('text', { x: W - PAD_R, y: H - 6, 'font-size': 12, fill: '#5c554b', 'text-anchor': 'end' }, svg,
        t('analysis_last'));
    return svg;
}
