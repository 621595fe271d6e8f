// proxy.test.js: the validating proxy (scripts/spec-proxy.sh) in front of a stub server
// with canned answers: conforming answers pass byte for byte, every kind of mismatch is
// turned into a 500 VIOLATIONS problem, and requests reach the server unchanged.
// Run by `make test-spec` (node --test tests/spec/).
'use strict';

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const http = require('node:http');
const path = require('node:path');
const fs = require('node:fs');
const { execFile } = require('node:child_process');

const ROOT = path.join(__dirname, '..', '..');
const ID = '0b7f4c1e-2d3a-4f5b-8c6d-7e8f9a0b1c2d';
const GAME = {
    id: ID, ruleset: 'classic', options: { edition: 'standard', river: false }, version: 0,
    status: 'active', turn: { number: 1, seat: 0, phase: 'draw', tile: null },
    deck_remaining: 71,
    players: [{ seat: 0, name: 'Ann', score: 0, followers: 7 }, { seat: 1, name: 'Bob', score: 0, followers: 7 }],
    board: [{ x: 0, y: 0, tile: 'D', rotation: 0, pieces: [] }],
    discarded: [],
};
const problem = (status, code) => ({
    type: `https://tilehall.dev/problems/${code}`, title: 'T', status, detail: 'A sentence.', code,
});

let stub, proxyPid, base;
const received = []; // what the stub got: {method, url, headers, body}
let logFile; // the proxy's log: the itest runner fails the run on its VIOLATION lines

// The stub's canned answers, by "METHOD path".
function answer(req, body) {
    const json = (status, obj, headers = {}) => [status, { 'content-type': 'application/json', ...headers }, JSON.stringify(obj)];
    const prob = (status, code, headers = {}) => [status, { 'content-type': 'application/problem+json', ...headers }, JSON.stringify(problem(status, code))];
    const key = `${req.method} ${req.url}`;
    switch (key) {
    case `GET /v1/games/${ID}`: return [200, { 'content-type': 'application/json', etag: '"0"' }, '{"id":"' + ID + '",  ' + JSON.stringify(GAME).slice(1 + JSON.stringify({ id: ID }).length - 1)];
    case 'GET /v1/games/extra': return json(200, { ...GAME, extra: 1 }, { etag: '"0"' });
    case 'GET /v1/games/noetag': return json(200, GAME);
    case 'GET /v1/games/finished-no-seed': return json(200, { ...GAME, status: 'finished' }, { etag: '"0"' });
    case 'GET /v1/games/seed-while-active': return json(200, { ...GAME, seed: '42', deck: [] }, { etag: '"0"' });
    case 'GET /v1/games/wrong-code': return prob(404, 'not_your_turn');
    case 'GET /v1/games/missing': return prob(404, 'not_found');
    case 'GET /v1/games/undocumented': return prob(409, 'wrong_phase');
    case 'GET /v1/games/text': return [404, { 'content-type': 'text/plain' }, 'no'];
    case 'GET /v1/games/extra-header': return json(200, GAME, { etag: '"0"', 'x-powered-by': 'stub' });
    case 'GET /v1/games/declared-headers':
        return json(200, GAME, { etag: '"0"', 'x-request-id': 'r1', 'cache-control': 'no-cache',
            'access-control-allow-origin': '*', 'access-control-expose-headers': 'ETag', vary: 'Origin' });
    case 'GET /v1/games/location-on-get': return json(200, GAME, { etag: '"0"', location: '/v1/games/x' });
    case 'GET /v1/games/sse-extra-header/events':
        return [200, { 'content-type': 'text/event-stream', 'x-debug': '1' }, 'id: 1\nevent: game_created\ndata: {}\n\n'];
    case 'GET /healthz-cors': return prob(404, 'not_found', { 'access-control-allow-origin': '*' });
    case 'GET /nowhere-extra-header': return prob(404, 'not_found', { 'x-request-id': 'r2', 'x-debug': '1' });
    case `GET /v1/games/${ID}/events`:
        if ((req.headers.accept || '').includes('text/event-stream')) {
            return [200, { 'content-type': 'text/event-stream' }, 'id: 1\nevent: game_created\ndata: {}\n\n'];
        }
        return json(200, { events: [], has_more: false, last_seq: 1, status: 'active' });
    case 'GET /v1/games/sse-as-json/events': return json(200, { events: [] });
    case 'GET /readyz': return prob(503, 'database_unavailable', { 'retry-after': '2' });
    case 'GET /healthz': return json(200, { status: 'ok' });
    case 'GET /metrics': return [200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' }, 'up 1\n'];
    case 'GET /nowhere': return prob(404, 'not_found');
    case 'GET /nowhere-bad': return [404, { 'content-type': 'text/html' }, '<h1>no</h1>'];
    case `DELETE /v1/games/${ID}`: return prob(405, 'method_not_allowed', { allow: 'GET' });
    case 'DELETE /v1/games/no-allow': return prob(405, 'method_not_allowed');
    case `HEAD /v1/games/${ID}`: return prob(405, 'method_not_allowed', { allow: 'GET' });
    case 'HEAD /v1/games/no-allow': return prob(405, 'method_not_allowed');
    case 'HEAD /healthz': return json(200, { status: 'ok' });
    case `OPTIONS /v1/games/${ID}/placements`:
        return [204, { allow: 'GET, POST', 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET, POST' }, ''];
    case 'OPTIONS /v1/games/x/placements': // a method short
        return [204, { allow: 'GET, POST', 'access-control-allow-origin': '*', 'access-control-allow-methods': 'POST' }, ''];
    case 'OPTIONS /v1/games': return [200, { allow: 'POST', 'content-type': 'application/json' }, '{}'];
    case 'OPTIONS /healthz': return [204, { allow: 'GET' }, ''];
    case 'OPTIONS /v1/games/y/placements': // a header no preflight has
        return [204, { allow: 'GET, POST', 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET, POST',
            'access-control-max-age': '600', 'x-debug': '1' }, ''];
    case 'POST /v1/games': {
        try {
            JSON.parse(body);
        } catch {
            return prob(400, 'invalid_json');
        }
        return json(400, problem(400, 'unknown_field'));
    }
    case `POST /v1/games/${ID}/draw`:
        if (!req.headers.authorization) return prob(401, 'missing_token', { 'www-authenticate': 'Bearer' });
        return prob(403, 'not_your_turn');
    default: return prob(404, 'not_found');
    }
}

function request(method, url, { headers = {}, body } = {}) {
    return new Promise((resolve, reject) => {
        const req = http.request(base + url, { method, headers }, res => {
            const chunks = [];
            res.on('data', c => chunks.push(c));
            res.on('end', () => {
                const text = Buffer.concat(chunks).toString('utf8');
                let json;
                try {
                    json = JSON.parse(text);
                } catch {
                    json = undefined;
                }
                resolve({ status: res.statusCode, headers: res.headers, text, json });
            });
        });
        req.on('error', reject);
        req.end(body);
    });
}

function assertViolation(r, pattern) {
    assert.equal(r.status, 500, r.text);
    assert.equal(r.json.type, 'https://stoplight.io/prism/errors#VIOLATIONS');
    assert.ok(r.json.validation.some(v => pattern.test(v.message)), JSON.stringify(r.json.validation));
}

before(async () => {
    stub = http.createServer((req, res) => {
        const chunks = [];
        req.on('data', c => chunks.push(c));
        req.on('end', () => {
            const body = Buffer.concat(chunks).toString('utf8');
            received.push({ method: req.method, url: req.url, headers: req.headers, body });
            const [status, headers, text] = answer(req, body);
            res.writeHead(status, headers);
            res.end(text);
        });
    });
    await new Promise(r => stub.listen(0, '127.0.0.1', r));
    const log = path.join(ROOT, 'build', 'spec-proxy-selftest.log');
    fs.mkdirSync(path.dirname(log), { recursive: true });
    fs.rmSync(log, { force: true });
    logFile = log;
    // Asynchronously: the script waits for an answer that this process's stub gives.
    const out = await new Promise((resolve, reject) => execFile(path.join(ROOT, 'scripts', 'spec-proxy.sh'),
        ['0', `http://127.0.0.1:${stub.address().port}`, log], { encoding: 'utf8', timeout: 60000 },
        (err, stdout, stderr) => (err ? reject(new Error(`spec-proxy.sh: ${err.message} ${stderr}`)) : resolve(stdout))));
    // "PID PORT": the port the kernel gave the proxy (no port picked and freed here).
    const [pid, port] = out.trim().split(' ').map(Number);
    proxyPid = pid;
    base = `http://127.0.0.1:${port}`;
});

after(() => {
    if (proxyPid) process.kill(proxyPid);
    stub.close();
});

test('a conforming answer passes byte for byte', async () => {
    const r = await request('GET', `/v1/games/${ID}`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.headers.etag, '"0"');
    assert.ok(r.text.startsWith(`{"id":"${ID}",  `), r.text);
    assert.deepEqual(r.json, GAME);
});

test('operational endpoints pass', async () => {
    assert.equal((await request('GET', '/healthz')).status, 200);
    assert.equal((await request('GET', '/metrics')).text, 'up 1\n');
    const ready = await request('GET', '/readyz');
    assert.equal(ready.status, 503);
    assert.equal(ready.headers['retry-after'], '2');
});

test('an undocumented property is a violation', async () => {
    assertViolation(await request('GET', '/v1/games/extra'), /additional properties/);
});

test('a missing required header is a violation', async () => {
    assertViolation(await request('GET', '/v1/games/noetag'), /etag/);
});

test('seed and deck: required once finished, absent before', async () => {
    assertViolation(await request('GET', '/v1/games/finished-no-seed'), /seed/);
    assertViolation(await request('GET', '/v1/games/seed-while-active'), /./);
});

test('a code that the status does not allow is a violation', async () => {
    // (GET /v1/games/{id}'s 404 allows not_found and version_not_found: an enum.)
    assertViolation(await request('GET', '/v1/games/wrong-code'), /constant|allowed values/);
    assert.equal((await request('GET', '/v1/games/missing')).status, 404);
});

test('an undocumented status is a violation', async () => {
    assertViolation(await request('GET', '/v1/games/undocumented'), /status code/);
});

test('an undocumented media type is a violation', async () => {
    assertViolation(await request('GET', '/v1/games/text'), /media type/);
});

test('unknown paths and methods must be answered with 404/405 problems', async () => {
    assert.equal((await request('GET', '/nowhere')).status, 404);
    assertViolation(await request('GET', '/nowhere-bad'), /problem/);
    const r = await request('DELETE', `/v1/games/${ID}`);
    assert.equal(r.status, 405, r.text);
    assert.equal(r.headers.allow, 'GET');
    assertViolation(await request('DELETE', '/v1/games/no-allow'), /Allow/);
});

test('HEAD is no method of the document: 405 (or 404) without a body, with Allow', async () => {
    const r = await request('HEAD', `/v1/games/${ID}`);
    assert.equal(r.status, 405, r.text);
    assert.equal(r.headers.allow, 'GET');
    assert.equal(r.text, '');
    assert.equal((await request('HEAD', '/nowhere')).status, 404);
    // The proxy answers a violation with a body even to HEAD; its status tells.
    assert.equal((await request('HEAD', '/v1/games/no-allow')).status, 500);
    assert.equal((await request('HEAD', '/healthz')).status, 500);
});

test('OPTIONS (a CORS preflight): 204 naming the methods of the path, 404 elsewhere', async () => {
    const r = await request('OPTIONS', `/v1/games/${ID}/placements`);
    assert.equal(r.status, 204, r.text);
    assert.equal(r.headers['access-control-allow-origin'], '*');
    assertViolation(await request('OPTIONS', '/v1/games/x/placements'), /access-control-allow-methods/);
    assertViolation(await request('OPTIONS', '/v1/games'), /204/);
    assert.equal((await request('OPTIONS', '/healthz')).status, 204);
    assert.equal((await request('OPTIONS', '/nowhere')).status, 404);
});

test('malformed JSON reaches the server unchanged', async () => {
    const body = '{"ruleset": ';
    const r = await request('POST', '/v1/games', { headers: { 'content-type': 'application/json' }, body });
    assert.equal(r.status, 400, r.text);
    assert.equal(r.json.code, 'invalid_json');
    assert.equal(received.at(-1).body, body);
});

test('a request without a token reaches the server', async () => {
    const r = await request('POST', `/v1/games/${ID}/draw`);
    assert.equal(r.status, 401, r.text);
    assert.equal(r.json.code, 'missing_token');
    assert.equal(received.at(-1).headers.authorization, undefined);
});

test('an answer with a wrong body for its status is a violation', async () => {
    // The stub answers 400 with content type application/json instead of problem+json.
    const r = await request('POST', '/v1/games', { headers: { 'content-type': 'application/json' }, body: '{}' });
    assertViolation(r, /media type/);
});

test('event streams pass through; a stream answered as JSON is a violation', async () => {
    const sse = { headers: { accept: 'text/event-stream' } };
    const r = await request('GET', `/v1/games/${ID}/events`, sse);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.text, 'id: 1\nevent: game_created\ndata: {}\n\n');
    assertViolation(await request('GET', '/v1/games/sse-as-json/events', sse), /text\/event-stream/);
    assert.equal((await request('GET', `/v1/games/${ID}/events`)).text,
        '{"events":[],"has_more":false,"last_seq":1,"status":"active"}');
});

test('a header the document does not declare for the answer is a violation', async () => {
    // Declared: the response's own headers, the framing ones, and the CORS headers of the
    // introduction on /v1 paths.
    assert.equal((await request('GET', '/v1/games/declared-headers')).status, 200);
    assertViolation(await request('GET', '/v1/games/extra-header'), /"x-powered-by" is not declared/);
    // Location is declared for a creation's 201, not for a game's 200.
    assertViolation(await request('GET', '/v1/games/location-on-get'), /"location" is not declared/);
    // Answers that belong to no operation: X-Request-Id, Cache-Control, Allow only, and
    // no CORS headers outside /v1 and /openapi.yaml.
    assertViolation(await request('GET', '/nowhere-extra-header'), /"x-debug" is not declared/);
    assertViolation(await request('GET', '/healthz-cors'), /"access-control-allow-origin" is not declared/);
    assertViolation(await request('OPTIONS', '/v1/games/y/placements'), /"x-debug" is not declared/);
    const sse = { headers: { accept: 'text/event-stream' } };
    assertViolation(await request('GET', '/v1/games/sse-extra-header/events', sse), /"x-debug" is not declared/);
});

test('each kind of mismatch leaves the line that fails the itest run in the log', async () => {
    // tests/itest/itest.c counts the lines starting "spec-proxy: VIOLATION" and fails the
    // run on any: one wrong answer of each kind (status, content type, body, header).
    const cases = [
        ['/v1/games/undocumented', /status code/],
        ['/v1/games/text', /media type/],
        ['/v1/games/extra', /additional properties/],
        ['/v1/games/extra-header', /not declared/],
    ];
    for (const [url, pattern] of cases) {
        assertViolation(await request('GET', url), pattern);
        const lines = fs.readFileSync(logFile, 'utf8').split('\n')
            .filter(l => l.startsWith('spec-proxy: VIOLATION ') && l.includes(` GET ${url} -> `));
        assert.ok(lines.some(l => pattern.test(l)), `no VIOLATION line for ${url} in ${logFile}`);
    }
    // A conforming answer leaves none.
    const before = fs.readFileSync(logFile, 'utf8');
    assert.equal((await request('GET', `/v1/games/${ID}`)).status, 200);
    const added = fs.readFileSync(logFile, 'utf8').slice(before.length);
    assert.ok(!/^spec-proxy: VIOLATION/m.test(added), added);
});
