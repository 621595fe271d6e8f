// boardart.js: the server's own pictures of a game (GET /v1/games/{id}/board.svg, the art
// of board.png too) taken apart for the page, so that the page and the pictures draw tiles,
// symbols and figures one way, from one source (api/render/board_svg.c): each placed
// tile's group, the pieces, the tile(s) to place (at rotation 0), each seat's follower and
// the key's stable as samples. The page lays its own layers (squares to choose, the
// preview, zoom) over these in the picture's coordinates.
import { API } from './api.js';

export const TILE = 60; // px a square in board.svg (board_svg.c TILE)

// Art seen so far of loose tiles (the drawn tile, a hand), by ruleset and tile id: the turn
// panel shows a tile from here after the picture showed it once.
const looseArt = new Map();

const num = (e, a) => Number(e.getAttribute(a));

// The picture `text` (an SVG document) taken apart: {tiles: Map "x,y" -> <g>, pieces: <g>
// or null, origin(x, y) -> [px, py] of square (x, y)'s north-west corner, seatSample(seat),
// stableSample, count}. Null when it is not a board picture.
export function parseArt(text, ruleset) {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    if (doc.querySelector('parsererror') || !doc.documentElement) return null;
    const tiles = new Map();
    let ref = null; // one square's board coordinates and picture corner: the rest follow
    for (const g of doc.querySelectorAll('g.tile')) {
        const m = /^tile_(-?\d+)_(-?\d+)$/.exec(g.getAttribute('id') || '');
        const outline = g.querySelector(':scope > rect:last-of-type');
        if (!m || !outline) continue;
        const x = Number(m[1]), y = Number(m[2]);
        g.removeAttribute('id'); // ids stay unique in the page: data attributes instead
        g.setAttribute('data-x', x);
        g.setAttribute('data-y', y);
        tiles.set(`${x},${y}`, g);
        if (!ref) ref = { x, y, px: num(outline, 'x'), py: num(outline, 'y') };
    }
    for (const g of doc.querySelectorAll('g.loose-tile')) {
        const id = ((g.querySelector('title') || {}).textContent || '').replace(/^tile /, '');
        const outline = g.querySelector(':scope > rect:last-of-type');
        if (id && outline) looseArt.set(`${ruleset}/${id}`, { g, px: num(outline, 'x'), py: num(outline, 'y') });
    }
    if (!ref) return null;
    const samples = {};
    for (const p of doc.querySelectorAll('g.player')) {
        const s = /^seat_(\d+)$/.exec(p.getAttribute('id') || '');
        const f = p.querySelector('.swatch.follower');
        if (s && f) samples[Number(s[1])] = f;
    }
    return {
        tiles,
        pieces: doc.querySelector('g.pieces'),
        origin: (x, y) => [ref.px + (x - ref.x) * TILE, ref.py + (y - ref.y) * TILE],
        // Seat `seat`'s follower as the picture's legend draws it, centred on (0, 0).
        seatSample(seat) {
            const f = samples[seat];
            if (!f) return null;
            const c = document.importNode(f, true);
            c.setAttribute('transform', '');
            c.removeAttribute('class');
            return c;
        },
        fillOf: (seat) => (samples[seat] ? samples[seat].getAttribute('fill') : null),
        count: tiles.size,
    };
}

// A loose tile's art (its group, drawn at rotation 0) moved to (0, 0), or null if the
// picture never showed that tile.
export function looseTile(ruleset, id) {
    const a = looseArt.get(`${ruleset}/${id}`);
    if (!a) return null;
    const g = document.importNode(a.g, true);
    g.setAttribute('transform', `translate(${-a.px},${-a.py})`);
    return g;
}

// The picture of game `id` at `version`, fetched once a version: a promise of parseArt's
// answer (null when the server refuses or the text is no board).
const cache = new Map();
export function fetchArt(id, version, ruleset) {
    const key = `${id}@${version}`;
    if (!cache.has(key)) {
        for (const k of cache.keys()) if (k.startsWith(id + '@')) cache.delete(k); // one game's art kept
        cache.set(key, fetch(`${API}/v1/games/${id}/board.svg`)
            .then((r) => (r.ok ? r.text() : null))
            .then((text) => (text ? parseArt(text, ruleset) : null))
            .catch(() => null));
    }
    return cache.get(key);
}
