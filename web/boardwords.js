// boardwords.js: the board in words, for screen readers and anyone who would rather read
// (Lichess's blind mode is the model): the last tile, then every tile in the order placed
// with its features and the pieces on it and whose they are, then the squares the drawn
// tile may go to. A <details> under the board; filled again when the board is drawn.
import { seatMarkOf } from './seats.js';
import { t } from './i18n.js';

const kinds = (type) => [...new Set(((type && type.features) || []).map((f) => t('kind_' + f.kind)))].join(', ');

function pieceWords(game, p) {
    const pl = game.players[p.seat];
    return t('words_piece', { name: pl ? pl.name : `#${p.seat}`, seat: seatMarkOf(p.seat),
        figure: t('piece_' + (p.figure || p.kind)), kind: p.feature ? t('kind_' + p.feature) : '',
        loc: p.location });
}

function tileWords(game, cat, b) {
    const base = t('words_tile', { tile: b.tile, x: b.x, y: b.y, rot: b.rotation, kinds: kinds(cat[b.tile]) });
    const pieces = (b.pieces || []).map((p) => pieceWords(game, p));
    return pieces.length ? `${base} ${pieces.join(' ')}` : base;
}

// Fills `box` (a <details>) with `game`'s board in words; `cands` the squares offered.
export function boardWords(box, game, cat, cands) {
    const tiles = game.board || [];
    const key = JSON.stringify([game.version, cands.length, t('board_words')]);
    if (box.dataset.key === key) return;
    box.dataset.key = key;
    const sum = document.createElement('summary');
    sum.textContent = t('board_words');
    const kids = [sum];
    const para = (text, cls) => {
        const p = document.createElement('p');
        p.textContent = text;
        if (cls) p.className = cls;
        kids.push(p);
    };
    const last = tiles[tiles.length - 1];
    if (last) para(t('words_last', { what: tileWords(game, cat, last) }), 'words-last');
    const ol = document.createElement('ol');
    ol.className = 'words-tiles';
    for (const b of tiles) {
        const li = document.createElement('li');
        li.textContent = tileWords(game, cat, b);
        ol.appendChild(li);
    }
    kids.push(ol);
    if (cands.length) para(t('words_cands', { squares: cands.map((c) => `(${c.x}, ${c.y})`).join(', ') }));
    box.replaceChildren(...kids);
}
