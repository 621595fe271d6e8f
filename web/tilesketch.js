// tilesketch.js: a tile sketched from the tile catalogue (GET /v1/rulesets/{r}/tiles) for
// the moments the server's art (boardart.js) has not shown that tile yet: the board's
// squares before its picture arrives, a hand held while another seat moves. Areas as
// wedges, roads and rivers as lines, a monastery's square; replaced by the art as it comes.
import { TILE } from './boardart.js';

const NS = 'http://www.w3.org/2000/svg';
const C = TILE;
// board_svg.c's fills of the kinds (kind_style), so a sketch reads like the art.
const COLORS = {
    field: '#8fc163', city: '#c99a5b', road: '#f6f1e4', river: '#4f9ee6', trail: '#c99a62',
    farmland: '#e9c649', meadow: '#a9d47c', mountain: '#9d8f80', grassland: '#bfdc73', sea: '#5ea9dc',
};
const LINEAR = new Set(['road', 'river', 'trail']);
const GROUND = new Set(['field', 'meadow', 'grassland']);
const SIDES = 'NESW';
// The stretch of the tile's edge a location covers (unit square), for its wedge.
const SEG = {
    NW: [[0, 0], [0.38, 0]], N: [[0.38, 0], [0.62, 0]], NE: [[0.62, 0], [1, 0]],
    EN: [[1, 0], [1, 0.38]], E: [[1, 0.38], [1, 0.62]], ES: [[1, 0.62], [1, 1]],
    SE: [[1, 1], [0.62, 1]], S: [[0.62, 1], [0.38, 1]], SW: [[0.38, 1], [0, 1]],
    WS: [[0, 1], [0, 0.62]], W: [[0, 0.62], [0, 0.38]], WN: [[0, 0.38], [0, 0]],
};
const MID = { N: [0.5, 0], E: [1, 0.5], S: [0.5, 1], W: [0, 0.5] };

function el(name, attrs, parent) {
    const e = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (parent) parent.appendChild(e);
    return e;
}

// Catalogue tile `type` at rotation 0 in a TILE-px square, as a <g> (the caller turns it).
export function sketchTile(type, ruleset) {
    const g = el('g', { class: 'sketch' });
    const base = ruleset === 'hills' ? 'meadow' : ruleset === 'discovery' ? 'grassland' : 'field';
    el('rect', { x: 0, y: 0, width: C, height: C, fill: COLORS[base] }, g);
    if (!type) return g;
    const feats = type.features || [];
    for (const f of [...feats].sort((a, b) => GROUND.has(b.kind) - GROUND.has(a.kind))) {
        if (LINEAR.has(f.kind) || f.kind === 'monastery') continue;
        const fill = COLORS[f.kind] || '#ccc';
        for (const loc of f.locations) {
            const s = SEG[loc];
            if (!s) continue;
            el('polygon', { points: `${C / 2},${C / 2} ${s[0][0] * C},${s[0][1] * C} ${s[1][0] * C},${s[1][1] * C}`,
                fill, stroke: fill, 'stroke-width': 0.6 }, g);
        }
        const sides = new Set(f.locations.map((l) => l[0]).filter((c) => SIDES.includes(c)));
        if (!GROUND.has(f.kind) && sides.size > 1) el('circle', { cx: C / 2, cy: C / 2, r: C * 0.24, fill }, g);
    }
    for (const f of feats) {
        if (!LINEAR.has(f.kind)) continue;
        for (const l of f.locations.filter((x) => MID[x])) {
            el('line', { x1: MID[l][0] * C, y1: MID[l][1] * C, x2: C / 2, y2: C / 2, stroke: COLORS[f.kind],
                'stroke-width': f.kind === 'river' ? 8 : 5, 'stroke-linecap': 'round' }, g);
        }
    }
    if (feats.some((f) => f.kind === 'monastery')) {
        el('rect', { x: C / 2 - 7, y: C / 2 - 5, width: 14, height: 10, fill: '#efe6d2', stroke: '#4a3b2a' }, g);
    }
    el('rect', { x: 0, y: 0, width: C, height: C, fill: 'none', stroke: '#333333', 'stroke-width': 1 }, g);
    return g;
}
