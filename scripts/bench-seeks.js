// bench-seeks.js: the clients of `make bench-seeks` (scripts/bench-seeks.sh runs it).
//
//   node scripts/bench-seeks.js players N BASE_A BASE_B FILE   N players (tokens into FILE)
//   node scripts/bench-seeks.js seek FILE BASE_A BASE_B ROUND  every player of FILE seeks
//
// A seek round: the players, shuffled, form groups of 2 to 4 (random sizes), each group
// seeking in one of six pools (2, 3 or 4 seats, two clocks of this round's own), so that
// every pool holds whole tables; all the seeks are posted at once, half to each server, and
// each player then long-polls its seek (wait=30) on the server it posted to until it is no
// longer waiting. A POST carries an Idempotency-Key and is sent again, as docs/clients.md
// tells clients, when it is answered 408 (the server could not read it in time) or 503, or
// its connection fails (at most POST_TRIES times); a long poll so answered is sent again
// ("retried" counts both). A game's time is
// from the creation of its last seek (the POST's answer) until the last of its seekers has
// its answer. Prints one line of JSON: seeks, games, matched, p50/p95/max of the games'
// times (ms), and how long the whole round took.
'use strict';
const fs = require('fs');

const [cmd, ...args] = process.argv.slice(2);
const now = () => performance.now();
const GIVE_UP_MS = 90000; // a seek still waiting after this long counts as not matched
const POST_TRIES = 5; // a seek's POST is sent at most this many times (408, 503, no answer)

async function json(base, method, path, token, body, key) {
    const headers = {'Content-Type': 'application/json'};
    if (token) headers.Authorization = `Bearer ${token}`;
    if (key) headers['Idempotency-Key'] = key;
    const r = await fetch(base + path, {method, headers, body: body && JSON.stringify(body)});
    const text = await r.text();
    return {status: r.status, body: text ? JSON.parse(text) : null};
}

// Runs fn(i) for i in [0, n) with at most `width` at a time.
async function pool(n, width, fn) {
    let next = 0;
    const worker = async () => {
        while (next < n) await fn(next++);
    };
    await Promise.all(Array.from({length: Math.min(width, n)}, worker));
}

async function players(n, a, b, file) {
    const tokens = new Array(n);
    await pool(Number(n), 32, async (i) => {
        const r = await json(i % 2 ? b : a, 'POST', '/v1/players', null, {name: `S${i}`});
        if (r.status !== 201) throw new Error(`player ${i}: ${r.status}`);
        tokens[i] = r.body.token;
    });
    fs.writeFileSync(file, tokens.join('\n') + '\n');
}

function percentile(sorted, p) {
    if (!sorted.length) return 0;
    return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function seek(file, a, b, round) {
    const tokens = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
    const order = tokens.map((t, i) => i);
    for (let i = order.length - 1; i > 0; i--) {
        const j = Math.floor(Math.random() * (i + 1));
        [order[i], order[j]] = [order[j], order[i]];
    }
    // Groups of 2-4 (never leaving a lone player), each in a pool of its size.
    const bodies = new Array(tokens.length);
    for (let at = 0; at < order.length;) {
        const left = order.length - at;
        let size = 2 + Math.floor(Math.random() * 3);
        if (size > left || left - size === 1) size = left <= 4 ? left : 2;
        const clock = {turn_seconds: 90000 + Number(round) * 10 + Math.floor(Math.random() * 2)};
        for (let k = 0; k < size; k++) bodies[order[at + k]] = {players: size, clock};
        at += size;
    }
    const seeks = tokens.map((token, i) => ({token, base: i % 2 ? b : a, body: bodies[i]}));
    const t0 = now();
    let failed = 0;
    const refusals = {}; // "POST 503": how many
    const refused = (what, r) => {
        failed++;
        const k = `${what} ${r.status} ${(r.body && r.body.code) || ''}`.trim();
        refusals[k] = (refusals[k] || 0) + 1;
    };
    let retried = 0;
    const key = `bench-${round}-${Date.now()}-`;
    await Promise.all(seeks.map(async (s, i) => {
        let r;
        for (let t = 1; ; t++) {
            r = await json(s.base, 'POST', '/v1/seeks', s.token, s.body, key + i).catch(
                (e) => ({status: 0, body: {code: e.message}}));
            if (![0, 408, 503].includes(r.status) || t === POST_TRIES) break;
            retried++;
            await new Promise((ok) => setTimeout(ok, 250 * t));
        }
        s.created = now();
        if (r.status !== 201) {
            refused('POST', r);
            return;
        }
        s.id = r.body.id;
        while (now() - t0 < GIVE_UP_MS) {
            const p = await json(s.base, 'GET', `/v1/seeks/${s.id}?wait=30`, s.token).catch(
                (e) => ({status: 0, body: {code: e.message}}));
            if ([0, 408, 503].includes(p.status)) { // as a POST's: poll again
                retried++;
                await new Promise((ok) => setTimeout(ok, 250));
                continue;
            }
            if (p.status !== 200) {
                refused('GET', p);
                return;
            }
            if (p.body.status !== 'waiting') {
                s.answered = now();
                s.status = p.body.status;
                s.game = p.body.game_id;
                return;
            }
        }
    }));
    const games = new Map();
    for (const s of seeks) {
        if (s.status !== 'matched') continue;
        const g = games.get(s.game) || {created: 0, answered: 0, seats: 0, players: s.body.players};
        g.created = Math.max(g.created, s.created);
        g.answered = Math.max(g.answered, s.answered);
        g.seats++;
        games.set(s.game, g);
    }
    const times = [...games.values()].map((g) => g.answered - g.created).sort((x, y) => x - y);
    const wrong = [...games.values()].filter((g) => g.seats !== g.players).length;
    const r1 = (x) => Math.round(x * 10) / 10;
    console.log(JSON.stringify({
        seeks: seeks.length,
        matched: seeks.filter((s) => s.status === 'matched').length,
        failed,
        retried,
        refusals,
        games: games.size,
        wrong_tables: wrong,
        p50_ms: r1(percentile(times, 50)),
        p95_ms: r1(percentile(times, 95)),
        max_ms: r1(times.length ? times[times.length - 1] : 0),
        round_ms: r1(now() - t0),
    }));
}

(cmd === 'players' ? players(...args) : seek(...args)).catch((e) => {
    console.error(`bench-seeks: ${e.message}`);
    process.exit(1);
});
