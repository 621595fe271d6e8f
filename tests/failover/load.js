// load.js: the load of scripts/failover.sh. CLIENTS clients each play games on one of the
// servers (client i on URL i % count), every move with an Idempotency-Key and If-Match;
// a move that gets no answer or a 5xx is sent again, the same request, until it gets a
// final answer (that is what a client of an in-doubt commit must do). Every 2xx is
// recorded (game, key, request, answer bytes, times of its first and last attempt), and
// so is every other final answer. FOLLOWERS followers each watch the current game of one
// client through SSE (on the other server), reconnecting with Last-Event-ID whenever the
// stream ends or breaks, and record every event they get.
//
// Clients 0 and 1 play against a computer player (a server's job worker moves for it) in
// games with a webhook to a receiver here (the servers' webhook workers deliver to it):
// every bot move seen and every delivery is recorded, so that the check can tell that
// the background workers found the new primary too.
//
// The last RATED clients (2 unless --rated) play rated games (issue 25) between two players
// shared by all of them, so that both servers end games of the same ratings at once: each
// game is created by one player ({"player": "me"}, an open seat), joined by the other with
// its player token, and resigned by one of them at once, every request with an
// Idempotency-Key; the games are recorded (rated.json) for the check that every rated game
// that ended had its ratings changed once.
//
// On SIGINT: the clients stop, the computer players end their turns (at most 20 s), the
// followers catch up with their games' last event (at most 20 s), then every acknowledged
// move is sent once more, exactly as first sent, to the other server (its answer recorded
// as the replay), and everything is written to
// OUT: acks.jsonl, finals.jsonl (non-2xx final answers), replays.jsonl, followers.json,
// requests.jsonl (every attempt: start, end, status), background.json (bot moves seen,
// webhook deliveries received, after the webhooks caught up, at most 20 s).
//
//   node load.js --out DIR --clients N --followers F [--rated R] URL [URL ...]
'use strict';
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const crypto = require('node:crypto');

const args = process.argv.slice(2);
const opt = { out: '.', clients: 8, followers: 2, rated: 2 };
const bases = [];
for (let i = 0; i < args.length; i++) {
    if (args[i] === '--out') opt.out = args[++i];
    else if (args[i] === '--clients') opt.clients = Number(args[++i]);
    else if (args[i] === '--followers') opt.followers = Number(args[++i]);
    else if (args[i] === '--rated') opt.rated = Number(args[++i]);
    else bases.push(args[i]);
}
if (!bases.length) {
    console.error('usage: node load.js --out DIR --clients N --followers F URL [URL ...]');
    process.exit(2);
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
let stopping = false;
const acks = [];
const finals = [];
const attempts = [];
const followers = [];
const botMoves = []; // {game, version, t}: a computer player's move seen
const hooks = new Map(); // game -> {seqs: {seq: first time}, n}
const botGames = [];
const ratedGames = []; // {game, ended}: a rated game, ended once its resignation got a 2xx
let ratedPlayers = null; // [{id, auth}] x 2, made once
let hookUrl = '';
let rng = 0x2545f491;
function rand(n) {
    rng ^= rng << 13;
    rng ^= rng >>> 17;
    rng ^= rng << 5;
    return (rng >>> 0) % n;
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// One HTTP request: {status, body (string), t0, t1}; status 0 when no answer came.
function request(base, method, p, headers, body) {
    return new Promise((resolve) => {
        const t0 = Date.now();
        const h = Object.assign({}, headers);
        if (body !== undefined) {
            h['Content-Type'] = 'application/json';
            h['Content-Length'] = Buffer.byteLength(body);
        } else if (method === 'POST') {
            h['Content-Length'] = 0;
        }
        const u = new URL(base + p);
        const req = http.request(
            { host: u.hostname, port: u.port, path: u.pathname + u.search, method, headers: h, agent },
            (res) => {
                const chunks = [];
                res.on('data', (c) => chunks.push(c));
                res.on('end', () => {
                    const a = { status: res.statusCode, body: Buffer.concat(chunks).toString(), t0, t1: Date.now() };
                    attempts.push({ m: method, p, s: a.status, t0, t1: a.t1 });
                    resolve(a);
                });
                res.on('error', () => {
                    attempts.push({ m: method, p, s: 0, t0, t1: Date.now() });
                    resolve({ status: 0, body: '', t0, t1: Date.now() });
                });
            },
        );
        req.setTimeout(30000, () => req.destroy(new Error('timeout')));
        req.on('error', () => {
            attempts.push({ m: method, p, s: 0, t0, t1: Date.now() });
            resolve({ status: 0, body: '', t0, t1: Date.now() });
        });
        if (body !== undefined) req.write(body);
        req.end();
    });
}

const json = (s) => {
    try {
        return JSON.parse(s);
    } catch {
        return null;
    }
};

// A request sent again (the same bytes) until it gets a final answer: no answer, 5xx and
// 429 are not final. Returns the final answer with first (the first attempt's start) and
// tries; null when the load stops first.
async function until_final(base, method, p, headers, body) {
    let first = 0;
    for (let tries = 1; ; tries++) {
        const a = await request(base, method, p, headers, body);
        if (!first) first = a.t0;
        if (a.status !== 0 && a.status < 500 && a.status !== 429) return Object.assign(a, { first, tries });
        // Reads may be given up when the load stops; a move never is (its key must get its
        // final answer, else the checker could not tell what happened to it).
        if (stopping && method === 'GET') return null;
        if (tries > 600) return Object.assign(a, { first, tries });
        await sleep(50);
    }
}

// One move: sent until final, recorded.
async function move(c, g, kind, p, headers, body) {
    const a = await until_final(c.base, 'POST', p, headers, body);
    const rec = {
        game: g.id, seat: g.seat, key: headers['Idempotency-Key'], kind, path: p, headers, body,
        status: a.status, answer: a.body, first: a.first, t0: a.t0, t1: a.t1, tries: a.tries, client: c.id,
    };
    if (a.status >= 200 && a.status < 300) acks.push(rec);
    else finals.push(rec);
    return a;
}

async function create(c) {
    const bot = c.id < 2;
    const np = bot ? 1 : 2 + rand(3);
    const players = [];
    for (let i = 0; i < np; i++) players.push({ name: `P${i}` });
    const spec = { ruleset: 'classic', seed: rand(1000000), players };
    if (bot) {
        players.push({ bot: 'random', think_ms: 10 });
        spec.webhook = { url: hookUrl };
    }
    const body = JSON.stringify(spec);
    const key = crypto.randomBytes(24).toString('hex');
    const headers = { 'Idempotency-Key': key };
    const a = await until_final(c.base, 'POST', '/v1/games', headers, body);
    if (!a || a.status !== 201) return null;
    const j = json(a.body);
    const rec = { game: j.id, key, kind: 'create', path: '/v1/games', headers, body, status: a.status,
        answer: a.body, first: a.first, t0: a.t0, t1: a.t1, tries: a.tries, client: c.id };
    acks.push(rec);
    if (bot) botGames.push(j.id);
    return { id: j.id, tokens: j.players.map((x) => x.token), seat: 0, version: 1 };
}

// One step of game g: a draw or a placement. Returns false when the game is over or
// must be left (a final answer other than a 2xx).
async function step(c, g) {
    const s = await until_final(c.base, 'GET', `/v1/games/${g.id}`, {});
    if (!s || s.status !== 200) return false;
    const st = json(s.body);
    if (!st || st.status !== 'active') return false;
    const seat = st.turn.seat;
    if (!g.tokens[seat]) {
        // The computer player's turn: a server's job worker moves for it.
        await sleep(20);
        return true;
    }
    if (g.bot_wait && st.version > g.version) botMoves.push({ game: g.id, version: st.version, t: Date.now() });
    g.seat = seat;
    const headers = { Authorization: `Bearer ${g.tokens[seat]}`, 'If-Match': `"${st.version}"` };
    if (st.turn.phase === 'draw') {
        headers['Idempotency-Key'] = `d-${st.version}`;
        const a = await move(c, g, 'draw', `/v1/games/${g.id}/draw`, headers, undefined);
        g.version = st.version + 1;
        g.bot_wait = false;
        return a.status >= 200 && a.status < 300;
    }
    const pl = await until_final(c.base, 'GET', `/v1/games/${g.id}/placements`, {});
    if (!pl || pl.status !== 200) return false;
    const list = (json(pl.body) || {}).placements || [];
    if (!list.length) return false;
    const p = list[rand(list.length)];
    const b = { x: p.x, y: p.y, rotation: p.rotation };
    if (p.tile) b.tile = p.tile;
    if (p.follower && p.follower.length && rand(2)) b.follower = p.follower[rand(p.follower.length)];
    headers['Idempotency-Key'] = `p-${st.version}`;
    const a = await move(c, g, 'place', `/v1/games/${g.id}/placements`, headers, JSON.stringify(b));
    g.version = st.version + 1;
    g.bot_wait = true; // the next state seen of a newer version: the bot moved
    return a.status >= 200 && a.status < 300;
}

// The two players of the rated games, made once (a lost answer makes another: harmless).
async function rated_players(c) {
    while (!ratedPlayers && !stopping) {
        const ps = [];
        for (const name of ['Ann', 'Bob']) {
            const a = await until_final(c.base, 'POST', '/v1/players', {}, JSON.stringify({ name }));
            const j = a && a.status === 201 ? json(a.body) : null;
            if (j) ps.push({ id: j.id, auth: `Bearer ${j.token}` });
        }
        if (ps.length === 2 && !ratedPlayers) ratedPlayers = ps;
        if (!ratedPlayers) await sleep(100);
    }
    return ratedPlayers;
}

// One rated game of client c: created by one player, joined by the other, resigned by one.
async function rated_game(c) {
    const ps = await rated_players(c);
    if (!ps) return;
    const who = rand(2);
    const spec = { rated: true, players: [{ player: 'me' }, { open: true }], clock: { turn_seconds: 86400 } };
    const body = JSON.stringify(spec);
    const ch = { Authorization: ps[who].auth, 'Idempotency-Key': crypto.randomBytes(12).toString('hex') };
    const a = await until_final(c.base, 'POST', '/v1/games', ch, body);
    if (!a || a.status !== 201) return;
    const j = json(a.body);
    acks.push({ game: j.id, key: ch['Idempotency-Key'], kind: 'create', path: '/v1/games', headers: ch, body,
        status: a.status, answer: a.body, first: a.first, t0: a.t0, t1: a.t1, tries: a.tries, client: c.id });
    const rec = { game: j.id, ended: false };
    ratedGames.push(rec);
    const g = { id: j.id, seat: 1 };
    const jh = { Authorization: ps[1 - who].auth, 'Idempotency-Key': `j-${j.id}` };
    const joined = await move(c, g, 'join', `/v1/games/${j.id}/join`, jh, JSON.stringify({ invite: j.players[1].invite }));
    if (joined.status !== 200) return;
    g.seat = rand(2);
    const rh = { Authorization: ps[g.seat === 0 ? who : 1 - who].auth, 'Idempotency-Key': `r-${j.id}` };
    const r = await move(c, g, 'resign', `/v1/games/${j.id}/resign`, rh, undefined);
    rec.ended = r.status === 200;
}

// A follower: the SSE stream of game `id` on server `base`, resumed with Last-Event-ID.
function follow(f) {
    return new Promise((resolve) => {
        const headers = { Accept: 'text/event-stream' };
        if (f.last > 0) headers['Last-Event-ID'] = String(f.last);
        const base = bases[(f.server + f.connects) % bases.length];
        f.connects++;
        const u = new URL(`${base}/v1/games/${f.game}/events${f.last > 0 ? '' : '?after=0'}`);
        let buf = '';
        let ev = {};
        const req = http.get({ host: u.hostname, port: u.port, path: u.pathname + u.search, headers }, (res) => {
            if (res.statusCode !== 200) {
                res.resume();
                res.on('end', resolve);
                return;
            }
            res.setEncoding('utf8');
            res.on('data', (d) => {
                buf += d;
                let i;
                while ((i = buf.indexOf('\n')) >= 0) {
                    const line = buf.slice(0, i).replace(/\r$/, '');
                    buf = buf.slice(i + 1);
                    if (line === '') {
                        if (ev.id !== undefined) {
                            const id = Number(ev.id);
                            f.events.push({ id, type: ev.event, data: ev.data });
                            f.last = id;
                            if (ev.event === 'game_finished') f.done = true;
                        }
                        ev = {};
                    } else if (line.startsWith('id:')) ev.id = line.slice(3).trim();
                    else if (line.startsWith('event:')) ev.event = line.slice(6).trim();
                    else if (line.startsWith('data:')) ev.data = (ev.data ? ev.data + '\n' : '') + line.slice(5).trimStart();
                }
            });
            res.on('end', resolve);
            res.on('error', resolve);
            res.on('close', resolve);
            f.req = req;
            // Each stream is left after 1 to 3 s, so that every follower resumes with
            // Last-Event-ID many times (on the other server each time), across the
            // failover too.
            setTimeout(() => req.destroy(), 1000 + rand(2000));
        });
        req.on('error', resolve);
    });
}

async function follower_main(f) {
    while (!f.done && !f.closed) {
        await follow(f);
        if (!f.done && !f.closed) {
            f.reconnects++;
            await sleep(100);
        }
    }
}

async function client_main(c) {
    if (c.id >= opt.clients - opt.rated && c.id >= opt.followers) {
        while (!stopping) await rated_game(c);
        return;
    }
    while (!stopping) {
        const g = await create(c);
        if (!g) {
            await sleep(100);
            continue;
        }
        if (c.id < opt.followers) {
            const f = { game: g.id, server: c.id + 1, connects: 0, reconnects: 0, last: 0, events: [], done: false };
            followers.push(f);
            f.running = follower_main(f);
        }
        while (!stopping && (await step(c, g)));
    }
}

// The webhook receiver: every delivery's game and seq, the time it first came.
function receiver() {
    return new Promise((resolve) => {
        const srv = http.createServer((req, res) => {
            const d = String(req.headers['x-tilehall-delivery'] || '');
            req.resume();
            req.on('end', () => {
                const i = d.lastIndexOf(':');
                if (i > 0) {
                    const game = d.slice(0, i);
                    const seq = Number(d.slice(i + 1));
                    if (!hooks.has(game)) hooks.set(game, { seqs: {}, n: 0 });
                    const h = hooks.get(game);
                    h.n++;
                    if (!h.seqs[seq]) h.seqs[seq] = Date.now();
                }
                res.writeHead(200);
                res.end();
            });
        });
        srv.listen(0, '127.0.0.1', () => resolve(srv));
    });
}

async function main() {
    const t0 = Date.now();
    const hookServer = await receiver();
    hookUrl = `http://127.0.0.1:${hookServer.address().port}/hook`;
    const cs = [];
    for (let i = 0; i < opt.clients; i++) cs.push({ id: i, base: bases[i % bases.length] });
    const running = cs.map(client_main);
    process.on('SIGINT', () => {
        stopping = true;
    });
    await Promise.all(running);
    // The computer players finish the turns they were given before the clients stopped
    // (their games grow until then: the followers and the webhooks must see those events
    // too).
    const botDeadline = Date.now() + 20000;
    for (const id of botGames) {
        while (Date.now() < botDeadline) {
            const j = json((await request(bases[0], 'GET', `/v1/games/${id}`, {})).body);
            if (j && (j.status !== 'active' || !(j.players[j.turn.seat] || {}).bot)) break;
            await sleep(100);
        }
    }
    // The followers catch up with the last event of their games.
    const deadline = Date.now() + 20000;
    for (const f of followers) {
        while (!f.done && Date.now() < deadline) {
            const a = await request(bases[0], 'GET', `/v1/games/${f.game}/events?after=0&limit=1`, {});
            const j = json(a.body);
            if (j && typeof j.last_seq === 'number' && f.last >= j.last_seq) break;
            await sleep(200);
        }
        f.closed = true;
        if (f.req) f.req.destroy();
    }
    // The webhooks catch up with their games' last event.
    const hookDeadline = Date.now() + 20000;
    for (const id of botGames) {
        while (Date.now() < hookDeadline) {
            const a = await request(bases[0], 'GET', `/v1/games/${id}/events?after=0&limit=1`, {});
            const j = json(a.body);
            const h = hooks.get(id);
            if (j && typeof j.last_seq === 'number' && h && Object.keys(h.seqs).length >= j.last_seq) break;
            await sleep(200);
        }
    }
    hookServer.close();
    // Every acknowledged request again, as first sent, on another server.
    const replays = [];
    let i = 0;
    async function replayer() {
        while (i < acks.length) {
            const r = acks[i++];
            const base = bases[(r.client + 1) % bases.length];
            const a = await until_final(base, 'POST', r.path, r.headers, r.body);
            replays.push({ game: r.game, key: r.key, path: r.path, status: a.status, answer: a.body });
        }
    }
    await Promise.all(Array.from({ length: 8 }, replayer));
    const w = (name, rows) => fs.writeFileSync(path.join(opt.out, name), rows.map((x) => JSON.stringify(x)).join('\n') + (rows.length ? '\n' : ''));
    w('acks.jsonl', acks);
    w('finals.jsonl', finals);
    w('replays.jsonl', replays);
    w('requests.jsonl', attempts);
    fs.writeFileSync(path.join(opt.out, 'followers.json'),
        JSON.stringify(followers.map((f) => ({ game: f.game, reconnects: f.reconnects, events: f.events, done: f.done }))));
    fs.writeFileSync(path.join(opt.out, 'background.json'), JSON.stringify({
        botGames, botMoves, hooks: Object.fromEntries([...hooks].map(([k, v]) => [k, v])),
    }));
    fs.writeFileSync(path.join(opt.out, 'rated.json'), JSON.stringify(ratedGames));
    const took = (Date.now() - t0) / 1000;
    console.log(`load: ${took.toFixed(1)} s, ${opt.clients} clients, ${attempts.length} requests, ` +
        `${acks.length} acknowledged writes, ${finals.length} other final answers, ` +
        `${followers.length} followers (${followers.reduce((n, f) => n + f.reconnects, 0)} reconnects), ` +
        `${replays.length} replays, ${botMoves.length} bot moves seen, ` +
        `${ratedGames.length} rated games (${ratedGames.filter((r) => r.ended).length} ended), ` +
        `${[...hooks.values()].reduce((n, h) => n + h.n, 0)} webhook deliveries`);
    agent.destroy();
}
main().catch((e) => {
    console.error(e);
    process.exit(1);
});
