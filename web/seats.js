// seats.js: how the page tells seats apart: board.svg's colours (board_svg.c seat_fill;
// tests/web/board.test.mjs compares them with the picture's) and a number per seat, so
// that colour is never the only cue (the board's figures and the scores carry both).
export const SEAT_COLORS = ['#1f5fd6', '#d62b2b', '#1f9e3a', '#f2cc1d', '#222222', '#8a8a8a'];

export const seatColor = (seat) => SEAT_COLORS[seat % SEAT_COLORS.length];
export const seatMarkOf = (seat) => String(seat + 1);

// Seat `seat`'s disc for a line of text: its colour with its number on it. The colours go
// through the CSSOM (the page's Content-Security-Policy refuses style attributes).
export function seatBadge(seat) {
    const e = document.createElement('span');
    e.className = 'seatdot';
    e.style.background = seatColor(seat);
    e.style.color = seat === 3 ? '#111' : '#fff'; // the yellow seat wants dark ink
    e.textContent = seatMarkOf(seat);
    e.setAttribute('aria-hidden', 'true');
    return e;
}
