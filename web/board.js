// board.js: the game's board on the page. The tiles, symbols and figures are the server's
// own art (boardart.js: board.svg's groups, one source for the page and the pictures); over
// them the page lays the squares where the drawn tile may go (focusable buttons), the
// preview of the chosen placement with the spots of its follow-ups to touch, the last tile
// framed, scorings shown a moment with their points, and a place named in the history.
// The view zooms (wheel, pinch, buttons), pans (drag) and fits the whole board; a text
// view lists the board in words for screen readers.
import { fetchArt, looseTile, TILE } from './boardart.js';
import { boardWords } from './boardwords.js';
import { t } from './i18n.js';
import { SEAT_COLORS, seatColor, seatMarkOf } from './seats.js';
import { sketchTile } from './tilesketch.js';

export { SEAT_COLORS };

const NS = 'http://www.w3.org/2000/svg';
const SIDES = 'NESW';
const FLASH_MS = 2600; // how long a scoring stays highlighted
const MIN_SPAN = 5 * TILE; // the least a fitted view shows across
const GROUND = new Set(['field', 'meadow']);

// A location turned by `rot` degrees clockwise (N -> E at 90).
export function rotLoc(loc, rot) {
    const k = ((rot / 90) % 4 + 4) % 4;
    return loc.replace(/[NESW]/g, (c) => SIDES[(SIDES.indexOf(c) + k) % 4]);
}

// Where a piece on a location stands (unit square, board directions): the spots of the
// follow-ups to touch.
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

// Square (x, y)'s north-west corner in the page's picture (board.svg's squares, moved so
// that (0, 0) is at the origin).
const at = (x, y) => [x * TILE, y * TILE];

// The kind of the feature of catalogue tile `type`, turned `rot`, at board location `loc`.
function kindAt(type, rot, loc) {
    const f = ((type && type.features) || []).find((x) => x.locations.some((l) => rotLoc(l, rot) === loc));
    return f ? f.kind : null;
}

// ---- The view: zoom and pan ----------------------------------------------------------------

const views = new WeakMap(); // host -> the board's state (svg, view box, flashes, last drawing)

function viewOf(host) {
    let s = views.get(host);
    if (s) return s;
    const svg = el('svg', { class: 'board-svg', role: 'group', preserveAspectRatio: 'xMidYMid meet' });
    const stage = document.createElement('div');
    stage.className = 'board-stage';
    const tools = document.createElement('div');
    tools.className = 'board-tools';
    tools.setAttribute('role', 'toolbar');
    const words = document.createElement('details');
    words.className = 'board-words';
    s = { host, svg, stage, tools, words, box: null, bounds: null, manual: false, flashes: [], mark: null,
        args: null, artKey: '', lastTile: null, pointers: new Map(), drag: null };
    const button = (id, text, words, fn) => {
        const b = document.createElement('button');
        b.type = 'button';
        b.id = id;
        b.className = 'small';
        b.textContent = text;
        b.dataset.words = words;
        b.addEventListener('click', fn);
        return b;
    };
    // Made once (a drawing keeps the keyboard on them); their words follow the language.
    s.buttons = [
        button('zoom-in', '+', 'zoom_in', () => zoomBy(s, 1 / 1.3)),
        button('zoom-out', '−', 'zoom_out', () => zoomBy(s, 1.3)),
        button('fit', '⤢', 'fit_board', () => { s.manual = false; fit(s); }),
        button('to-last', '◎', 'last_move', () => centreOn(s, s.lastTile)),
    ];
    tools.append(...s.buttons);
    stage.append(svg, tools);
    host.replaceChildren(stage, words);
    listen(s);
    views.set(host, s);
    return s;
}

function setBox(s, box) {
    s.box = box;
    s.svg.setAttribute('viewBox', `${box.x} ${box.y} ${box.w} ${box.h}`);
}

// The whole board in view (with half a square around it): nothing is ever cut off.
function fit(s) {
    if (s.bounds) setBox(s, { ...s.bounds });
}

// Zoom by `f` (below 1: closer) about the picture point (cx, cy) (default: the middle).
function zoomBy(s, f, cx, cy) {
    if (!s.box || !s.bounds) return;
    const b = s.box;
    const w = Math.min(Math.max(b.w * f, TILE * 1.5), Math.max(s.bounds.w, s.bounds.h) * 3);
    const k = w / b.w;
    if (cx === undefined) { cx = b.x + b.w / 2; cy = b.y + b.h / 2; }
    s.manual = true;
    setBox(s, { x: cx - (cx - b.x) * k, y: cy - (cy - b.y) * k, w, h: b.h * k });
}

// Square (x, y) in the middle of the view (the zoom kept).
function centreOn(s, sq) {
    if (!sq || !s.box) return;
    const [x0, y0] = at(sq.x, sq.y);
    setBox(s, { ...s.box, x: x0 + TILE / 2 - s.box.w / 2, y: y0 + TILE / 2 - s.box.h / 2 });
}

// Whether square (x, y) lies wholly in the view box.
function inView(s, sq) {
    const b = s.box, [x0, y0] = at(sq.x, sq.y);
    return b && x0 >= b.x && y0 >= b.y && x0 + TILE <= b.x + b.w && y0 + TILE <= b.y + b.h;
}

// A screen point in the picture's coordinates.
function toPicture(s, clientX, clientY) {
    const m = s.svg.getScreenCTM();
    if (!m) return [0, 0];
    const p = new DOMPoint(clientX, clientY).matrixTransform(m.inverse());
    return [p.x, p.y];
}

// Wheel zooms about the pointer; one finger or the mouse drags; two fingers pinch.
function listen(s) {
    const svg = s.svg;
    svg.addEventListener('wheel', (e) => {
        e.preventDefault();
        const [cx, cy] = toPicture(s, e.clientX, e.clientY);
        zoomBy(s, Math.exp(Math.max(-1, Math.min(1, e.deltaY * 0.002))), cx, cy);
    }, { passive: false });
    // Moves and releases are followed on the window while a pointer is down (a drag may
    // leave the board; capturing the pointer instead would take the click from a square).
    svg.addEventListener('pointerdown', (e) => {
        if (!s.pointers.size) {
            window.addEventListener('pointermove', move);
            window.addEventListener('pointerup', up);
            window.addEventListener('pointercancel', up);
        }
        s.pointers.set(e.pointerId, [e.clientX, e.clientY]);
        s.drag = { x: e.clientX, y: e.clientY, box: { ...s.box }, moved: false, pinch: null };
    });
    const move = (e) => {
        if (!s.pointers.has(e.pointerId) || !s.drag || !s.box) return;
        s.pointers.set(e.pointerId, [e.clientX, e.clientY]);
        const rect = svg.getBoundingClientRect();
        const scale = Math.max(s.box.w / rect.width, s.box.h / rect.height); // picture px a screen px
        if (s.pointers.size >= 2) {
            const [[ax, ay], [bx, by]] = [...s.pointers.values()];
            const d = Math.hypot(ax - bx, ay - by);
            if (!s.drag.pinch) { s.drag.pinch = d; return; }
            const [cx, cy] = toPicture(s, (ax + bx) / 2, (ay + by) / 2);
            zoomBy(s, s.drag.pinch / d, cx, cy);
            s.drag.pinch = d;
            s.drag.moved = true;
            return;
        }
        const dx = e.clientX - s.drag.x, dy = e.clientY - s.drag.y;
        if (!s.drag.moved && Math.hypot(dx, dy) < 6) return; // a tap, not a drag
        s.drag.moved = true;
        s.manual = true;
        setBox(s, { ...s.drag.box, x: s.drag.box.x - dx * scale, y: s.drag.box.y - dy * scale });
    };
    const up = (e) => {
        s.pointers.delete(e.pointerId);
        if (s.pointers.size === 0 && s.drag) {
            s.dragged = s.drag.moved; // the click that ends a drag chooses nothing
            s.drag = null;
        }
        if (!s.pointers.size) {
            window.removeEventListener('pointermove', move);
            window.removeEventListener('pointerup', up);
            window.removeEventListener('pointercancel', up);
        }
    };
    svg.addEventListener('click', (e) => {
        if (s.dragged) { e.stopPropagation(); e.preventDefault(); }
        s.dragged = false;
    }, true);
}

// ---- Drawing ------------------------------------------------------------------------------

// A square the art has not reached yet (the picture is on its way): its tile's id.
function placeholder(layer, b) {
    const [x0, y0] = at(b.x, b.y);
    el('rect', { x: x0, y: y0, width: TILE, height: TILE, class: 'tile-wait' }, layer);
    el('text', { x: x0 + TILE / 2, y: y0 + TILE / 2 + 5, 'text-anchor': 'middle', class: 'tile-wait-id' }, layer)
        .textContent = b.tile;
}

// The figure of seat `seat` (the picture's own sample) standing, or lying when `lying`, at
// picture point (x, y); a stable as a house in the seat's colour.
function figure(layer, art, seat, kind, lying, x, y) {
    const sample = art && art.seatSample(seat);
    if (kind === 'stable' || !sample) {
        el('path', { d: `M${x - 7},${y + 6} v-7 l7,-6 l7,6 v7 z`, fill: seatColor(seat), stroke: '#111',
            'stroke-width': 1.2, class: 'preview-piece' }, layer);
    } else {
        sample.setAttribute('transform', `translate(${x},${y})${lying ? ' rotate(-90)' : ''}`);
        sample.setAttribute('class', 'preview-piece');
        layer.appendChild(sample);
    }
    badge(layer, seat, x + 8, y - 9);
}

// Seat `seat`'s number on a white disc at (x, y): with the colour, never the colour alone.
function badge(layer, seat, x, y) {
    const g = el('g', { class: 'seat-badge', 'aria-hidden': 'true' }, layer);
    el('circle', { cx: x, cy: y, r: 5.5, fill: '#fff', stroke: seatColor(seat), 'stroke-width': 1.5 }, g);
    el('text', { x, y: y + 3, 'text-anchor': 'middle', 'font-size': 8, 'font-weight': 700, fill: '#111' }, g)
        .textContent = seatMarkOf(seat);
}

// The server's pieces with a seat number at each one's upper right (the seat read from
// its title; its box taken through its own transform: a follower is drawn about (0, 0)).
function drawPieces(layer, art, dx, dy) {
    if (!art.pieces) return;
    const g = document.importNode(art.pieces, true);
    g.setAttribute('transform', `translate(${dx},${dy})`);
    layer.appendChild(g);
    const toLayer = layer.getScreenCTM();
    for (const p of g.children) {
        const m = /of seat (\d+)/.exec((p.querySelector('title') || {}).textContent || '');
        const own = p.getScreenCTM && p.getScreenCTM();
        if (!m || !own || !toLayer) continue;
        const box = p.getBBox();
        const k = toLayer.inverse().multiply(own);
        const corners = [[box.x, box.y], [box.x + box.width, box.y], [box.x, box.y + box.height],
            [box.x + box.width, box.y + box.height]].map(([x, y]) => new DOMPoint(x, y).matrixTransform(k));
        badge(layer, Number(m[1]), Math.max(...corners.map((c) => c.x)), Math.min(...corners.map((c) => c.y)));
    }
}

// The scorings shown now: each feature's tiles framed and its points.
function drawFlashes(s, layer) {
    const now = Date.now();
    s.flashes = s.flashes.filter((f) => f.until > now);
    for (const f of s.flashes) {
        for (const sq of f.squares) {
            const [x0, y0] = at(sq.x, sq.y);
            el('rect', { x: x0 + 2, y: y0 + 2, width: TILE - 4, height: TILE - 4, class: 'flash' }, layer);
        }
        const [x0, y0] = at(f.squares[0].x, f.squares[0].y);
        const tag = el('g', { class: 'flash-points' }, layer);
        el('rect', { x: x0 + 8, y: y0 + 18, width: TILE - 16, height: 22, rx: 6 }, tag);
        el('text', { x: x0 + TILE / 2, y: y0 + 34, 'text-anchor': 'middle' }, tag).textContent = `+${f.points}`;
    }
}

// Draws `game` (the state) into `host`. `cat` maps tile id -> catalogue entry.
// `cands`: squares [{x, y, label}] to offer; `preview`: {tile, x, y, rotation, piece} or
// null; `onPick(x, y)` runs when a square is chosen (click, Enter, Space). `more`:
// {followups: [{label, piece}] of the preview, fu: the chosen one's index, onFollowup(i)}.
// The picture comes from the server once a version; until then the squares show ids.
export function drawBoard(host, game, cat, cands, preview, onPick, label, more = {}) {
    const s = viewOf(host);
    s.args = [game, cat, cands, preview, onPick, label, more];
    const key = `${game.id}@${game.version}`;
    if (s.artKey !== key) {
        s.artKey = key;
        s.art = null;
        fetchArt(game.id, game.version, game.ruleset).then((art) => {
            if (s.artKey !== key || !art) return;
            if (art.count !== (game.board || []).length) return; // a newer picture than this state
            s.art = art;
            fillPending(game.ruleset);
            if (s.args) paint(s);
        });
    }
    paint(s);
    return { svg: s.svg, at, C: TILE };
}

function paint(s) {
    const [game, cat, cands, preview, onPick, label, more] = s.args;
    const svg = s.svg, art = s.art;
    const tiles = game.board || [];
    svg.setAttribute('aria-label', label);
    const focused = document.activeElement && svg.contains(document.activeElement) ? document.activeElement : null;
    const refocus = focused && focused.dataset ? { x: focused.dataset.x, y: focused.dataset.y, cls: focused.getAttribute('class') } : null;
    svg.replaceChildren();
    // The extent: every tile and every square offered, and half a square around.
    const xs = tiles.map((b) => b.x).concat(cands.map((c) => c.x)), ys = tiles.map((b) => b.y).concat(cands.map((c) => c.y));
    if (!xs.length) { xs.push(0); ys.push(0); }
    const pad = TILE / 2;
    const bounds = { x: Math.min(...xs) * TILE - pad, y: Math.min(...ys) * TILE - pad };
    bounds.w = (Math.max(...xs) + 1) * TILE + pad - bounds.x;
    bounds.h = (Math.max(...ys) + 1) * TILE + pad - bounds.y;
    // A small board is not blown up past a few squares across (a tile stays tile-sized).
    for (const [pos, len] of [['x', 'w'], ['y', 'h']]) {
        const grow = Math.max(0, MIN_SPAN - bounds[len]);
        bounds[pos] -= grow / 2;
        bounds[len] += grow;
    }
    const last = tiles.length ? tiles[tiles.length - 1] : null;
    const moved = last && (!s.lastTile || s.lastTile.x !== last.x || s.lastTile.y !== last.y);
    s.bounds = bounds;
    s.lastTile = last;
    if (!s.box || !s.manual) fit(s);
    else if (moved && !inView(s, last)) centreOn(s, last);

    const artLayer = el('g', { class: 'art' }, svg);
    if (art) {
        const [ox, oy] = art.origin(0, 0);
        const g = el('g', { transform: `translate(${-ox},${-oy})` }, artLayer);
        for (const b of tiles) {
            const tg = art.tiles.get(`${b.x},${b.y}`);
            if (tg) g.appendChild(document.importNode(tg, true));
        }
        drawPieces(artLayer, art, -ox, -oy);
    } else {
        for (const b of tiles) placeholder(artLayer, b);
    }
    if (last && tiles.length > 1) {
        const [x0, y0] = at(last.x, last.y);
        el('rect', { x: x0 + 1.5, y: y0 + 1.5, width: TILE - 3, height: TILE - 3, class: 'last-placed' }, svg);
    }
    drawFlashes(s, el('g', { class: 'flashes', 'pointer-events': 'none' }, svg));
    if (s.mark) {
        const [x0, y0] = at(s.mark.x, s.mark.y);
        el('rect', { x: x0 - 3, y: y0 - 3, width: TILE + 6, height: TILE + 6, class: 'place-mark' }, svg);
    }
    for (const c of cands) {
        const [x0, y0] = at(c.x, c.y);
        const chosen = preview && preview.x === c.x && preview.y === c.y;
        const r = el('rect', { x: x0 + 3, y: y0 + 3, width: TILE - 6, height: TILE - 6, rx: 6,
            class: 'cand' + (chosen ? ' chosen' : ''), tabindex: 0, role: 'button',
            'aria-label': c.label || `(${c.x}, ${c.y})`, 'aria-pressed': chosen ? 'true' : 'false',
            'data-x': c.x, 'data-y': c.y }, svg);
        r.addEventListener('click', () => onPick(c.x, c.y));
        r.addEventListener('keydown', (e) => {
            if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); onPick(c.x, c.y); }
        });
    }
    if (preview) drawPreview(s, svg, preview, cat, game, onPick, more);
    // The keyboard's place survives the drawing.
    if (refocus) {
        const again = [...svg.querySelectorAll('[tabindex]')].find((e) => e.dataset.x === refocus.x &&
            e.dataset.y === refocus.y && e.getAttribute('class') === refocus.cls);
        if (again) again.focus({ preventScroll: true });
    }
    for (const b of s.buttons) {
        b.setAttribute('aria-label', t(b.dataset.words));
        b.title = t(b.dataset.words);
    }
    s.tools.setAttribute('aria-label', t('board_tools'));
    boardWords(s.words, game, cat, cands);
}

// The chosen placement: the tile (the server's art of the drawn tile, turned), its frame,
// the chosen follow-up's figure and a spot to touch for each follow-up.
function drawPreview(s, svg, preview, cat, game, onPick, more) {
    const [x0, y0] = at(preview.x, preview.y);
    const g = el('g', { transform: `translate(${x0},${y0}) rotate(${preview.rotation},${TILE / 2},${TILE / 2})`,
        class: 'preview', 'pointer-events': 'none' }, svg);
    g.appendChild(looseTile(game.ruleset, preview.tile) || sketchTile(cat[preview.tile], game.ruleset));
    el('rect', { x: x0 + 1, y: y0 + 1, width: TILE - 2, height: TILE - 2, class: 'preview-frame' }, svg);
    // Touching the chosen square again turns the tile: a transparent button on top.
    const hit = el('rect', { x: x0, y: y0, width: TILE, height: TILE, fill: 'transparent', class: 'hit' }, svg);
    hit.addEventListener('click', () => onPick(preview.x, preview.y));
    const fus = more.followups || [];
    const chosen = fus[more.fu || 0];
    const spotAt = (piece) => {
        const [sx, sy] = piece.x !== undefined ? at(piece.x, piece.y) : [x0, y0];
        const [ux, uy] = SPOT[piece.location] || SPOT.C;
        return [sx + ux * TILE, sy + uy * TILE];
    };
    fus.forEach((f, i) => {
        if (!f.piece || i === (more.fu || 0)) return;
        const [px, py] = spotAt(f.piece);
        // A small mark in a larger ring that takes the touch (a finger is wider than the mark).
        const spot = el('g', { class: 'fu-spot', role: 'button', 'data-fu': i, 'aria-label': f.label }, svg);
        el('title', {}, spot).textContent = f.label;
        el('circle', { cx: px, cy: py, r: 11, class: 'fu-ring' }, spot);
        el('circle', { cx: px, cy: py, r: 6, class: 'fu-mark' }, spot);
        spot.addEventListener('click', (e) => { e.stopPropagation(); if (more.onFollowup) more.onFollowup(i); });
    });
    if (chosen && chosen.piece) {
        const p = chosen.piece;
        const [px, py] = spotAt(p);
        const type = p.x === undefined ? cat[preview.tile] : null;
        const lying = type ? GROUND.has(kindAt(type, preview.rotation, p.location)) : false;
        const layer = el('g', { class: 'preview-fu', 'data-fu': more.fu || 0 }, svg);
        figure(layer, s.art, p.seat, p.kind, lying, px, py);
        // Touching the chosen figure takes it back (nothing more after placing).
        layer.addEventListener('click', (e) => { e.stopPropagation(); if (more.onFollowup) more.onFollowup(0); });
    }
}

// A single tile as a small SVG (the drawn tile, the hand) at `rotation`: the server's art
// once a picture showed it, else a sketch from the catalogue (filled in when the art comes).
const pending = new Set();
export function tileSvg(type, ruleset, rotation = 0, size = 96) {
    const svg = el('svg', { viewBox: `0 0 ${TILE} ${TILE}`, width: size, height: size, class: 'tile-svg',
        'aria-hidden': 'true' });
    const g = el('g', { transform: `rotate(${rotation},${TILE / 2},${TILE / 2})` }, svg);
    const art = type && looseTile(ruleset, type.id);
    g.appendChild(art || sketchTile(type, ruleset));
    if (!art && type) {
        svg.dataset.tile = type.id;
        svg.dataset.ruleset = ruleset;
        pending.add(svg);
    }
    return svg;
}

function fillPending(ruleset) {
    for (const svg of pending) {
        if (!svg.isConnected) { pending.delete(svg); continue; }
        if (svg.dataset.ruleset !== ruleset) continue;
        const art = looseTile(ruleset, svg.dataset.tile);
        if (!art) continue;
        svg.firstChild.replaceChildren(art);
        pending.delete(svg);
    }
}

// A scoring event (feature_scored) shown on the board a moment: the tiles it names (its
// tile and those its pieces went back from) framed, and its points.
export function flashScore(host, ev) {
    if (ev.type !== 'feature_scored' || ev.x === undefined) return;
    const s = viewOf(host);
    const squares = [{ x: ev.x, y: ev.y }];
    for (const r of ev.returned || []) {
        if (!squares.some((q) => q.x === r.x && q.y === r.y)) squares.push({ x: r.x, y: r.y });
    }
    s.flashes.push({ squares, points: ev.points, until: Date.now() + FLASH_MS });
    if (s.args) paint(s);
    setTimeout(() => { if (s.args) paint(s); }, FLASH_MS + 50);
}

// The place a history line names, marked on the board (null: none), and brought into view.
export function showPlace(host, place) {
    const s = viewOf(host);
    s.mark = place;
    if (place && s.box && !inView(s, place)) centreOn(s, place);
    if (s.args) paint(s);
}
