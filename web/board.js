// board.js: the board as SVG, drawn from the tile catalogue (GET /v1/rulesets/{r}/tiles):
// each tile's features as wedges and lines, the pieces at their locations, the squares
// where the drawn tile may go (focusable buttons), and a preview of the chosen placement.

export const SEAT_COLORS = ['#d32f2f', '#1565c0', '#f9c800', '#222222', '#8e24aa'];
const C = 64; // pixels a square
const NS = 'http://www.w3.org/2000/svg';

const COLORS = {
    field: '#8cc063', city: '#c98f55', road: '#f4f0e2', river: '#4aa3df', trail: '#a9824f',
    farmland: '#e5cc63', meadow: '#9fd27a', mountain: '#9a8f86', grassland: '#bcd97c',
    sea: '#3d8fd1', monastery: '#d94f3d',
};
const LINEAR = new Set(['road', 'river', 'trail']);
const SIDES = 'NESW';

// A location turned by `rot` degrees clockwise (N -> E at 90).
export function rotLoc(loc, rot) {
    const k = ((rot / 90) % 4 + 4) % 4;
    return loc.replace(/[NESW]/g, (c) => SIDES[(SIDES.indexOf(c) + k) % 4]);
}

// The stretch of the tile's edge a location covers (unit square), for its wedge.
const SEG = {
    NW: [[0, 0], [0.38, 0]], N: [[0.38, 0], [0.62, 0]], NE: [[0.62, 0], [1, 0]],
    EN: [[1, 0], [1, 0.38]], E: [[1, 0.38], [1, 0.62]], ES: [[1, 0.62], [1, 1]],
    SE: [[1, 1], [0.62, 1]], S: [[0.62, 1], [0.38, 1]], SW: [[0.38, 1], [0, 1]],
    WS: [[0, 1], [0, 0.62]], W: [[0, 0.62], [0, 0.38]], WN: [[0, 0.38], [0, 0]],
};
// Where a piece on a location stands (unit square, board directions).
export const SPOT = {
    N: [0.5, 0.17], NW: [0.2, 0.14], NE: [0.8, 0.14], E: [0.83, 0.5], EN: [0.86, 0.2],
    ES: [0.86, 0.8], S: [0.5, 0.83], SE: [0.8, 0.86], SW: [0.2, 0.86], W: [0.17, 0.5],
    WN: [0.14, 0.2], WS: [0.14, 0.8], C: [0.5, 0.5],
};

function el(name, attrs = {}, parent = null) {
    const e = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (parent) parent.appendChild(e);
    return e;
}

// Draws tile type `type` (a catalogue entry) into group `g` at rotation 0 in a unit square
// scaled to C; the caller's transform places and turns it.
function drawTile(g, type, ruleset) {
    const base = ruleset === 'hills' ? 'meadow' : ruleset === 'discovery' ? 'grassland' : 'field';
    el('rect', { x: 0, y: 0, width: C, height: C, fill: COLORS[base] }, g);
    if (!type) {
        el('text', { x: C / 2, y: C / 2, 'text-anchor': 'middle', 'font-size': 14 }, g).textContent = '?';
        return;
    }
    const feats = type.features || [];
    const order = (f) => (f.kind === 'field' || f.kind === 'meadow' || f.kind === 'grassland' ? 0 : 1);
    for (const f of [...feats].sort((a, b) => order(a) - order(b))) {
        if (LINEAR.has(f.kind) || f.kind === 'monastery') continue;
        for (const loc of f.locations) {
            const s = SEG[loc];
            if (!s) continue;
            el('polygon', {
                points: `${C / 2},${C / 2} ${s[0][0] * C},${s[0][1] * C} ${s[1][0] * C},${s[1][1] * C}`,
                fill: COLORS[f.kind] || '#ccc', stroke: COLORS[f.kind] || '#ccc', 'stroke-width': 0.6,
            }, g);
        }
        // A feature reaching several sides joins them through the middle.
        const sides = new Set(f.locations.map((l) => l[0]).filter((c) => SIDES.includes(c)));
        if (order(f) === 1 && sides.size > 1) {
            el('circle', { cx: C / 2, cy: C / 2, r: C * 0.24, fill: COLORS[f.kind] || '#ccc' }, g);
        }
        if (f.kind === 'city' && f.pennants) {
            const l = f.locations.find((x) => SPOT[x]) || 'N';
            const [px, py] = SPOT[l];
            el('path', { d: `M${px * C - 5},${py * C - 5} h10 v5 l-5,5 l-5,-5 z`, fill: '#1f4fa0' }, g);
        }
    }
    for (const f of feats) {
        if (!LINEAR.has(f.kind)) continue;
        const ends = f.locations.filter((l) => l.length === 1);
        const w = f.kind === 'river' ? 9 : 7;
        for (const l of ends) {
            const mid = { N: [0.5, 0], E: [1, 0.5], S: [0.5, 1], W: [0, 0.5] }[l];
            if (f.kind === 'road') {
                el('line', { x1: mid[0] * C, y1: mid[1] * C, x2: C / 2, y2: C / 2, stroke: '#6d6455',
                    'stroke-width': w + 2, 'stroke-linecap': 'round' }, g);
            }
            el('line', { x1: mid[0] * C, y1: mid[1] * C, x2: C / 2, y2: C / 2, stroke: COLORS[f.kind],
                'stroke-width': w, 'stroke-linecap': 'round' }, g);
        }
        if (ends.length === 1 || ends.length > 2) {
            el('circle', { cx: C / 2, cy: C / 2, r: 5, fill: '#7a6a55' }, g);
        }
    }
    if (feats.some((f) => f.kind === 'monastery')) {
        el('rect', { x: C / 2 - 9, y: C / 2 - 9, width: 18, height: 18, rx: 3, fill: COLORS.monastery,
            stroke: '#5a1f18' }, g);
    }
    el('rect', { x: 0, y: 0, width: C, height: C, fill: 'none', stroke: 'rgba(0,0,0,.35)', 'stroke-width': 1 }, g);
}

function drawPiece(svg, x0, y0, piece, marker = false) {
    const [px, py] = SPOT[piece.location] || SPOT.C;
    const cx = x0 + px * C, cy = y0 + py * C;
    const fill = SEAT_COLORS[piece.seat % SEAT_COLORS.length];
    if (piece.kind === 'stable') {
        el('rect', { x: cx - 7, y: cy - 7, width: 14, height: 14, fill, stroke: '#000', 'stroke-width': 1.5,
            class: marker ? 'marker' : 'piece' }, svg);
    } else {
        el('circle', { cx, cy, r: 8, fill, stroke: marker ? '#fff' : '#000', 'stroke-width': marker ? 3 : 1.5,
            class: marker ? 'marker' : 'piece' }, svg);
    }
}

// Draws `game` (the state) into `host` (emptied). `cat` maps tile id -> catalogue entry.
// `cands`: squares [{x, y}] to offer; `preview`: {tile, x, y, rotation, piece} or null;
// `onPick(x, y)` runs when a square is chosen by click, Enter or Space.
export function drawBoard(host, game, cat, cands, preview, onPick, label) {
    const tiles = game.board || [];
    const xs = tiles.map((b) => b.x).concat(cands.map((c) => c.x));
    const ys = tiles.map((b) => b.y).concat(cands.map((c) => c.y));
    const minx = Math.min(...xs) - 1, maxx = Math.max(...xs) + 1;
    const miny = Math.min(...ys) - 1, maxy = Math.max(...ys) + 1;
    const w = (maxx - minx + 1) * C, h = (maxy - miny + 1) * C;
    const svg = el('svg', { viewBox: `0 0 ${w} ${h}`, width: w, height: h, role: 'group',
        'aria-label': label, class: 'board-svg' });
    const at = (x, y) => [(x - minx) * C, (y - miny) * C];
    for (const b of tiles) {
        const [x0, y0] = at(b.x, b.y);
        const g = el('g', { transform: `translate(${x0},${y0}) rotate(${b.rotation},${C / 2},${C / 2})`,
            class: 'tile', 'data-x': b.x, 'data-y': b.y }, svg);
        drawTile(g, cat[b.tile], game.ruleset);
    }
    for (const b of tiles) {
        const [x0, y0] = at(b.x, b.y);
        for (const p of b.pieces || []) drawPiece(svg, x0, y0, p);
    }
    for (const c of cands) {
        const [x0, y0] = at(c.x, c.y);
        const chosen = preview && preview.x === c.x && preview.y === c.y;
        const r = el('rect', { x: x0 + 3, y: y0 + 3, width: C - 6, height: C - 6, rx: 6,
            class: 'cand' + (chosen ? ' chosen' : ''), tabindex: 0, role: 'button',
            'aria-label': c.label || `(${c.x}, ${c.y})`, 'aria-pressed': chosen ? 'true' : 'false',
            'data-x': c.x, 'data-y': c.y }, svg);
        r.addEventListener('click', () => onPick(c.x, c.y));
        r.addEventListener('keydown', (e) => {
            if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); onPick(c.x, c.y); }
        });
    }
    if (preview) {
        const [x0, y0] = at(preview.x, preview.y);
        const g = el('g', { transform: `translate(${x0},${y0}) rotate(${preview.rotation},${C / 2},${C / 2})`,
            class: 'preview', 'pointer-events': 'none' }, svg);
        drawTile(g, cat[preview.tile], game.ruleset);
        el('rect', { x: x0 + 1, y: y0 + 1, width: C - 2, height: C - 2, fill: 'none', stroke: '#fff',
            'stroke-width': 3, 'pointer-events': 'none' }, svg);
        if (preview.piece) {
            const px = preview.piece.x !== undefined ? at(preview.piece.x, preview.piece.y) : [x0, y0];
            drawPiece(svg, px[0], px[1], preview.piece, true);
        }
        // Clicking the chosen square again turns the tile: a transparent button on top.
        const hit = el('rect', { x: x0, y: y0, width: C, height: C, fill: 'transparent', class: 'hit' }, svg);
        hit.addEventListener('click', () => onPick(preview.x, preview.y));
    }
    host.replaceChildren(svg);
    return { svg, at, C };
}

// A single tile as a small SVG (the drawn tile, the hand), at `rotation`.
export function tileSvg(type, ruleset, rotation = 0, size = 96) {
    const svg = el('svg', { viewBox: `0 0 ${C} ${C}`, width: size, height: size, class: 'tile-svg',
        'aria-hidden': 'true' });
    const g = el('g', { transform: `rotate(${rotation},${C / 2},${C / 2})` }, svg);
    drawTile(g, type, ruleset);
    return svg;
}
