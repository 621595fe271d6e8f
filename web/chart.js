// chart.js: a rating's history as a small SVG line chart (the rating after each rated
// game; a hollow point while the rating was still provisional), drawn with SVG attributes
// only (the page's Content-Security-Policy refuses style attributes). One image with a
// summary for screen readers; the table beside it (profile.js) has every number.
import { getLang, t } from './i18n.js';

const NS = 'http://www.w3.org/2000/svg';
const H = 200, PAD_L = 44, PAD_R = 10, PAD_T = 10, PAD_B = 22;
const PROVISIONAL = 110; // a deviation above this is provisional (api.md)

export function el(name, attrs, parent, text) {
    const e = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
}

// A step of 10, 25, 50, 100 ... that cuts `span` into at most about four parts.
export function niceStep(span) {
    for (const s of [10, 25, 50, 100, 200, 250, 500, 1000]) if (span / s <= 4) return s;
    return 2000;
}

// The chart of `points` ([{rating_before, rating_after, deviation_after, rated_at}], oldest
// first), its summary naming `poolName`, `width` pixels wide (drawn at its size, so that
// its words stay readable on a phone).
export function ratingChart(points, poolName, width) {
    const W = Math.max(280, Math.min(720, Math.round(width) || 600));
    const ys = [points[0].rating_before, ...points.map((p) => p.rating_after)];
    const devs = [null, ...points.map((p) => p.deviation_after)];
    let lo = Math.min(...ys), hi = Math.max(...ys);
    const pad = Math.max(20, (hi - lo) * 0.15);
    lo -= pad;
    hi += pad;
    const step = niceStep(hi - lo);
    const x = (i) => PAD_L + (ys.length === 1 ? 0 : (i * (W - PAD_L - PAD_R)) / (ys.length - 1));
    const y = (v) => PAD_T + ((hi - v) * (H - PAD_T - PAD_B)) / (hi - lo);
    const svg = el('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart', role: 'img',
        'aria-label': t('chart_summary', { pool: poolName, n: points.length, from: ys[0], to: ys[ys.length - 1],
            lo: Math.min(...ys), hi: Math.max(...ys) }) });
    el('rect', { x: PAD_L, y: PAD_T, width: W - PAD_L - PAD_R, height: H - PAD_T - PAD_B, fill: '#fffdf8',
        stroke: '#d9d0bf' }, svg);
    for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) {
        el('line', { x1: PAD_L, x2: W - PAD_R, y1: y(v), y2: y(v), stroke: '#e6dfd0' }, svg);
        el('text', { x: PAD_L - 6, y: y(v) + 4, 'text-anchor': 'end', 'font-size': 12, fill: '#5c554b' }, svg, String(v));
    }
    el('polyline', { points: ys.map((v, i) => `${x(i)},${y(v)}`).join(' '), fill: 'none', stroke: '#1f6f43',
        'stroke-width': 2.5, 'stroke-linejoin': 'round' }, svg);
    ys.forEach((v, i) => {
        const prov = devs[i] === null || devs[i] > PROVISIONAL;
        const c = el('circle', { cx: x(i), cy: y(v), r: ys.length > 40 ? 2.5 : 4, fill: prov ? '#fffdf8' : '#1f6f43',
            stroke: '#1f6f43', 'stroke-width': 2, class: 'pt' + (prov ? ' provisional' : '') }, svg);
        el('title', {}, c, i ? `${new Date(points[i - 1].rated_at).toLocaleDateString(getLang())}: ${v}` : String(v));
    });
    el('text', { x: PAD_L, y: H - 6, 'font-size': 12, fill: '#5c554b' }, svg, t('chart_first'));
    el('text', { x: W - PAD_R, y: H - 6, 'font-size': 12, fill: '#5c554b', 'text-anchor': 'end' }, svg, t('chart_last'));
    el('circle', { cx: W / 2 - 40, cy: H - 10, r: 4, fill: '#fffdf8', stroke: '#1f6f43', 'stroke-width': 2 }, svg);
    el('text', { x: W / 2 - 32, y: H - 6, 'font-size': 12, fill: '#5c554b' }, svg, t('chart_provisional'));
    return svg;
}
