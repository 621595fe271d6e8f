// check.js: the checker of one round of scripts/failover.sh, over what tests/failover/
// load.js recorded and the new primary's tables (COPY of actions, events and games).
//
//   node check.js --run DIR --mode sync|async --bound MS
//
// Checks, and prints a line for each:
//   - every acknowledged write is in the new primary: a created game's row; a move's
//     action (game, version) and each of its events (game, seq) with the same payload;
//   - each game's events are seq 1..last_seq with no gap or repeat (games.last_seq);
//   - every acknowledged request, sent again with its key, got the first answer byte for
//     byte (the same status too);
//   - no attempt took longer than the outage (kill to promoted) plus MS, and no move
//     from its first attempt to its final answer either;
//   - every follower saw its game's events exactly once, in order, up to the newest,
//     each equal to the stored one;
//   - no move ended in a final answer other than a 2xx;
//   - every rated game that ended had its ratings changed once (a history row per seat of
//     each finished rated game, none of a running one, each rating's history a chain).
// Prints the time from the kill to the first 2xx of a write sent after it (on the new
// primary). Exit status: 0 all held; 3 acknowledged writes were lost (what the async
// control must find; in sync mode that is a failure all the same); 1 another failure.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const args = process.argv.slice(2);
const opt = { run: '.', mode: 'sync', bound: 3000 };
for (let i = 0; i < args.length; i++) {
    if (args[i] === '--run') opt.run = args[++i];
    else if (args[i] === '--mode') opt.mode = args[++i];
    else if (args[i] === '--bound') opt.bound = Number(args[++i]);
}
const file = (n) => path.join(opt.run, n);
const lines = (n) => (fs.existsSync(file(n)) ? fs.readFileSync(file(n), 'utf8').split('\n').filter((l) => l) : []);
const jsonl = (n) => lines(n).map((l) => JSON.parse(l));
// COPY ... TO STDOUT (text format): tab-separated, backslash escapes, \N for NULL.
const unescape = (f) => (f === '\\N' ? null : f.replace(/\\(.)/g, (_, c) => ({ n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v' })[c] || c));
const tsv = (n) => lines(n).map((l) => l.split('\t').map(unescape));
// JSON with sorted keys: jsonb reorders them.
function canon(v) {
    if (Array.isArray(v)) return `[${v.map(canon).join(',')}]`;
    if (v && typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canon(v[k])}`).join(',')}}`;
    return JSON.stringify(v);
}
const parse = (s) => {
    try {
        return JSON.parse(s);
    } catch {
        return null;
    }
};

const [tKill, tPromoted] = fs.readFileSync(file('times'), 'utf8').trim().split(/\s+/).map(Number);
const acks = jsonl('acks.jsonl');
const finals = jsonl('finals.jsonl');
const replays = jsonl('replays.jsonl');
const requests = jsonl('requests.jsonl');
const followers = JSON.parse(fs.readFileSync(file('followers.json'), 'utf8'));
const actions = new Map();
for (const [g, v, kind] of tsv('actions.tsv')) actions.set(`${g}/${v}`, kind);
const events = new Map(); // game -> Map(seq -> canon payload)
for (const [g, seq, , payload] of tsv('events.tsv')) {
    if (!events.has(g)) events.set(g, new Map());
    const m = events.get(g);
    if (m.has(Number(seq))) m.set(`dup${seq}`, 1);
    m.set(Number(seq), canon(parse(payload)));
}
const games = new Map();
for (const [id, version, lastSeq, status] of tsv('games.tsv')) games.set(id, { version: Number(version), lastSeq: Number(lastSeq), status });

let failures = 0;
const say = (ok, what) => {
    console.log(`check: ${ok ? 'ok  ' : 'FAIL'} ${what}`);
    if (!ok) failures++;
};

// 1. Every acknowledged write is stored.
let lost = 0;
let moves = 0;
const lostExamples = [];
for (const a of acks) {
    const ans = parse(a.answer) || {};
    let ok = true;
    if (a.kind === 'create') {
        ok = games.has(a.game);
    } else {
        moves++;
        const version = typeof ans.version === 'number' ? ans.version : ans.game && ans.game.version;
        const evs = ans.events || (ans.game && ans.game.events) || [];
        ok = actions.has(`${a.game}/${version}`);
        const m = events.get(a.game) || new Map();
        for (const e of evs) if (m.get(e.seq) !== canon(e)) ok = false;
    }
    if (!ok) {
        lost++;
        if (lostExamples.length < 3) lostExamples.push(`${a.kind} ${a.game} key ${a.key}`);
    }
}
const lostOk = lost === 0;
console.log(`check: ${lostOk ? 'ok  ' : 'LOST'} ${acks.length} acknowledged writes (${moves} moves): ${lost} not in the new primary${lost ? ` (e.g. ${lostExamples.join('; ')})` : ''}`);

// 2. Event sequences without gap or repeat.
let badSeq = 0;
for (const [id, g] of games) {
    const m = events.get(id) || new Map();
    let ok = m.size === g.lastSeq;
    for (let s = 1; ok && s <= g.lastSeq; s++) if (!m.has(s)) ok = false;
    if (!ok) badSeq++;
}
say(badSeq === 0, `${games.size} games: events 1..last_seq without gap or repeat in ${games.size - badSeq}`);

// 3. Replays of every acknowledged request.
const firstBy = new Map(acks.map((a) => [`${a.game}|${a.path}|${a.key}`, a]));
let replayBad = 0;
let replayExample = '';
for (const r of replays) {
    const a = firstBy.get(`${r.game}|${r.path}|${r.key}`);
    if (!a || a.status !== r.status || a.answer !== r.answer) {
        replayBad++;
        if (!replayExample) replayExample = ` (e.g. ${r.path} key ${r.key}: ${a && a.status} then ${r.status})`;
    }
}
const retried = acks.filter((a) => a.tries > 1).length;
say(replayBad === 0 && replays.length === acks.length,
    `${replays.length} keys sent again: ${replays.length - replayBad} got the first answer byte for byte${replayBad ? replayExample : ''}; ${retried} writes needed more than one attempt (in doubt or refused during the outage)`);

// 4. Answer times.
const outage = tPromoted - tKill;
const limit = outage + opt.bound;
let slowest = 0;
for (const q of requests) slowest = Math.max(slowest, q.t1 - q.t0);
let slowestMove = 0;
for (const a of acks.concat(finals)) slowestMove = Math.max(slowestMove, a.t1 - a.first);
say(slowest <= limit && slowestMove <= limit,
    `${requests.length} attempts: slowest answer ${slowest} ms, slowest write from its first attempt to its final answer ${slowestMove} ms; limit: outage ${outage} ms + ${opt.bound} ms`);

// 5. The followers.
let followBad = 0;
let reconnects = 0;
let seen = 0;
for (const f of followers) {
    reconnects += f.reconnects;
    seen += f.events.length;
    const m = events.get(f.game) || new Map();
    const g = games.get(f.game);
    let ok = !!g && f.events.length === g.lastSeq;
    f.events.forEach((e, i) => {
        if (e.id !== i + 1 || m.get(e.id) !== canon(parse(e.data))) ok = false;
    });
    if (!ok) followBad++;
}
say(followBad === 0, `${followers.length} SSE followers (${reconnects} reconnects with Last-Event-ID, ${seen} events): every event exactly once, in order, equal to the stored one in ${followers.length - followBad}`);

// 6. Final answers other than 2xx.
const kinds = {};
for (const f of finals) {
    const code = (parse(f.answer) || {}).code || '';
    kinds[`${f.status} ${code}`] = (kinds[`${f.status} ${code}`] || 0) + 1;
}
say(finals.length === 0, `${finals.length} writes ended in an answer other than 2xx${finals.length ? `: ${JSON.stringify(kinds)}` : ''}`);

// 7. The background workers: the computer players moved after the promotion, and every
// event of their games reached its webhook (at least once: deliveries are retried).
const bg = fs.existsSync(file('background.json')) ? JSON.parse(fs.readFileSync(file('background.json'), 'utf8')) : { botGames: [], botMoves: [], hooks: {} };
const botAfter = bg.botMoves.filter((m) => m.t > tPromoted).length;
let undelivered = 0;
let hookAfter = 0;
let delivered = 0;
for (const id of bg.botGames) {
    const g = games.get(id);
    const h = bg.hooks[id] || { seqs: {} };
    for (let q = 1; g && q <= g.lastSeq; q++) {
        if (!h.seqs[q]) undelivered++;
        else {
            delivered++;
            if (h.seqs[q] > tPromoted) hookAfter++;
        }
    }
}
say(bg.botGames.length > 0 && botAfter > 0, `${bg.botGames.length} games against a computer player: ${bg.botMoves.length} of its moves seen, ${botAfter} after the promotion (the job workers moved to the new primary)`);
// An event not delivered yet is excused only behind a delivery of its webhook still held
// by a claim's lease (ms left > 0, not delivered): a claim whose answer was lost with the
// old primary holds its deliveries until the lease (WEBHOOK_TIMEOUT_MS + 30 s) runs out.
const leased = new Map(); // game -> [seq, attempts, ms left] of an undelivered leased row
for (const [g, seq, attempts, done, left] of tsv('deliveries.tsv'))
    if (done === 'f' && Number(left) > 0 && (!leased.has(g) || leased.get(g)[0] > Number(seq)))
        leased.set(g, [Number(seq), Number(attempts), Number(left)]);
let excused = 0;
let unexcused = 0;
const heldBy = [];
for (const id of bg.botGames) {
    const g = games.get(id);
    const h = bg.hooks[id] || { seqs: {} };
    const l = leased.get(id);
    for (let q = 1; g && q <= g.lastSeq; q++) {
        if (h.seqs[q]) continue;
        if (l && q >= l[0]) excused++;
        else unexcused++;
    }
    if (l && !h.seqs[l[0]]) heldBy.push(`event ${l[0]} of ${id.slice(0, 8)}, attempt ${l[1]}, ${Math.round(l[2] / 1000)} s of lease left`);
}
say(bg.botGames.length > 0 && unexcused === 0 && hookAfter > 0,
    `their webhooks: ${delivered} events delivered, ${hookAfter} of them first after the promotion, ${undelivered} not yet${excused ? ` (${excused} behind a claim made in doubt at the failover, delivered when its lease ends: ${heldBy.join('; ')})` : ''}${unexcused ? `, ${unexcused} with no excuse` : ''}`);

// 8. Rated games (issue 25): every rated game that ended has its ratings changed once: as
// many history rows as seats for each finished rated game (none for one still running),
// every one whose resignation was acknowledged among them, each subject's history a chain
// (each game's rating before is the one after its previous game: no update lost, none
// applied twice) and its count of games equal to its history's length.
const rated = fs.existsSync(file('rated.json')) ? JSON.parse(fs.readFileSync(file('rated.json'), 'utf8')) : [];
const ratedRows = tsv('rated.tsv'); // id, status, seats
const history = tsv('history.tsv'); // game, seat, subject, pool, before, after
const counts = tsv('rating_counts.tsv'); // subject, pool, games
const rows = new Map();
for (const [g] of history) rows.set(g, (rows.get(g) || 0) + 1);
let ratedBad = 0;
let ratedEnded = 0;
const ratedExamples = [];
for (const [id, status, seats] of ratedRows) {
    const want = status === 'finished' ? Number(seats) : 0;
    if (status === 'finished') ratedEnded++;
    if ((rows.get(id) || 0) !== want) {
        ratedBad++;
        if (ratedExamples.length < 3) ratedExamples.push(`${id.slice(0, 8)} ${status} with ${rows.get(id) || 0} rows`);
    }
}
const ratedStatus = new Map(ratedRows.map(([id, status]) => [id, status]));
let ackedUnended = 0;
for (const r of rated) if (r.ended && ratedStatus.get(r.game) !== 'finished') ackedUnended++;
const chains = new Map();
for (const [, , subject, pool, before, after] of history) {
    const k = `${subject}/${pool}`;
    if (!chains.has(k)) chains.set(k, []);
    chains.get(k).push([before, after]);
}
let broken = 0;
for (const c of chains.values()) for (let i = 1; i < c.length; i++) if (c[i][0] !== c[i - 1][1]) broken++;
let miscounted = 0;
for (const [subject, pool, n] of counts) if ((chains.get(`${subject}/${pool}`) || []).length !== Number(n)) miscounted++;
say(rated.length > 0 && ratedEnded > 0 && ratedBad === 0 && ackedUnended === 0 && broken === 0 && miscounted === 0,
    `${ratedRows.length} rated games, ${ratedEnded} ended (${rated.filter((r) => r.ended).length} resignations acknowledged): ratings changed once for each ended game and never for one still running${ratedBad ? `: ${ratedBad} wrong (e.g. ${ratedExamples.join('; ')})` : ''}; ${history.length} history rows, ${chains.size} ratings, ${broken} breaks in their chains, ${miscounted} game counts that differ from the history${ackedUnended ? `; ${ackedUnended} acknowledged ends not finished` : ''}`);

// The time from the kill to the first 2xx of a write sent after it.
const after = acks.filter((a) => a.t0 > tKill).map((a) => a.t1 - tKill);
const first = after.length ? Math.min(...after) : -1;
console.log(`check: kill to first 2xx on the new primary: ${first} ms (promoted after ${outage} ms)`);
if (first < 0) failures++;

if (opt.mode === 'async') {
    if (lost > 0) {
        console.log(`check: the negative control found ${lost} lost acknowledged writes, as it must with asynchronous replication`);
        process.exit(3);
    }
    console.log('check: the negative control lost nothing this time: the standby had received all the WAL before the kill (walreceiver buffer)');
    process.exit(0);
}
if (!lostOk) process.exit(3);
process.exit(failures ? 1 : 0);
