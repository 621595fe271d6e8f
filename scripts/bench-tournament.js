// bench-tournament.js: the entrants of `make bench-tournament` (scripts/bench-tournament.sh
// runs it), playing a tournament to its end through the HTTP API.
//
//   node scripts/bench-tournament.js play BASE_A BASE_B TOURNAMENT TOKENS PAR
//
// TOKENS is a file of "<player id> <token>" lines. Each round, as soon as
// GET /v1/tournaments/{id} shows its games, every game is played to its end, PAR games at
// once, alternately through the two servers: the seat to move draws, asks the server's
// computer player for its move (GET .../hint?level=greedy, think_ms=10) and plays it as it
// is, with the entrant's own player token. So the games are played by computer players,
// move by move, and the server pairs the next round when the last one ends. Prints one line
// of JSON: games, moves, requests, retries (503 and 409/412 answers, played again after a
// fresh read).
'use strict';
const fs = require('fs');

const LEVEL = 'greedy';
const THINK_MS = 10;

async function call(base, method, path, token, body) {
    const headers = {};
    if (token) headers.Authorization = `Bearer ${token}`;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    for (let tries = 0; ; tries++) {
        try {
            const r = await fetch(base + path, {
                method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
            const text = await r.text();
            return {status: r.status, body: text ? JSON.parse(text) : null};
        } catch (e) {
            if (tries >= 5) throw e;
            await sleep(100);
        }
    }
}

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

async function pool(items, width, fn) {
    let next = 0;
    const worker = async () => {
        while (next < items.length) await fn(items[next++]);
    };
    await Promise.all(Array.from({length: Math.min(width, items.length)}, worker));
}

const stats = {games: 0, moves: 0, requests: 0, retries: 0};

// Plays game `id` through `base` to its end, each seat with its entrant's token.
async function playGame(base, id, tokens) {
    const req = async (method, path, token, body) => {
        stats.requests++;
        return call(base, method, path, token, body);
    };
    let g = (await req('GET', `/v1/games/${id}`)).body;
    const seatToken = g.players.map((p) => tokens.get(p.player_id));
    let turn = g.turn, status = g.status;
    while (status === 'active') {
        const token = seatToken[turn.seat];
        let r;
        if (turn.phase === 'draw') {
            r = await req('POST', `/v1/games/${id}/draw`, token, {});
            if (r.status === 200) {
                turn = r.body.game.turn;
                status = r.body.game.status;
                continue;
            }
        } else {
            const h = await req('GET', `/v1/games/${id}/hint?level=${LEVEL}&think_ms=${THINK_MS}`,
                token);
            if (h.status === 200) {
                r = await req('POST', `/v1/games/${id}/placements`, token, h.body.placement);
                if (r.status === 201) {
                    stats.moves++;
                    turn = r.body.turn;
                    status = r.body.status;
                    continue;
                }
            } else {
                r = h;
            }
        }
        // Busy (503) or the game moved on meanwhile (409, 412): read it again.
        if (![409, 412, 503].includes(r.status)) {
            throw new Error(`game ${id}: ${r.status} ${JSON.stringify(r.body)}`);
        }
        stats.retries++;
        if (r.status === 503) await sleep(50);
        g = (await req('GET', `/v1/games/${id}`)).body;
        turn = g.turn;
        status = g.status;
    }
    stats.games++;
}

async function play(a, b, id, tokensFile, par) {
    const tokens = new Map(fs.readFileSync(tokensFile, 'utf8').split('\n').filter(Boolean)
        .map((l) => l.split(' ')));
    let played = 0;
    for (;;) {
        const t = (await call(a, 'GET', `/v1/tournaments/${id}`)).body;
        if (t.status === 'finished' || t.status === 'cancelled') break;
        if (t.round <= played) {
            await sleep(20);
            continue;
        }
        const round = t.pairings.find((p) => p.round === t.round);
        // A round's tables are paired a moment before their games exist: wait for them all.
        if (!round || round.tables.some((x) => x.players.length > 1 && !x.game)) {
            await sleep(20);
            continue;
        }
        played = t.round;
        const games = round.tables.filter((x) => x.game).map((x) => x.game);
        await pool(games.map((g, i) => [i % 2 ? b : a, g]), Number(par),
            ([base, g]) => playGame(base, g, tokens));
    }
    console.log(JSON.stringify(stats));
}

const [cmd, ...args] = process.argv.slice(2);
if (cmd === 'play') {
    play(...args).catch((e) => {
        console.error(e);
        process.exit(1);
    });
} else {
    console.error('usage: bench-tournament.js play BASE_A BASE_B TOURNAMENT TOKENS PAR');
    process.exit(2);
}
