#!/usr/bin/env node
// spec-proxy.js: a validating proxy built on Prism's library: it forwards every request
// unchanged and checks every response against openapi.yaml.
//
//   node scripts/spec-proxy.js --port 4010 --upstream http://127.0.0.1:8080 [--spec openapi.yaml]
//       [--port-file FILE]
//
// --port 0 takes a port the kernel gives; --port-file FILE gets the port listened on (written
// whole, once listening), so that no caller picks a port and frees it for another to take.
//
// Start it through scripts/spec-proxy.sh, which also waits until it is ready.
//
// What `prism proxy openapi.yaml URL --errors` does, with the differences that tests of
// error answers need:
// - every request reaches the server byte for byte: Prism re-encodes JSON bodies, answers
//   malformed JSON with a 400 of its own, answers a missing bearer token with a 401 of its
//   own, and unknown paths and methods with a 404/405 of its own; here the server answers
//   all of those, and its answer is what gets checked;
// - the server's answer goes back byte for byte when it conforms;
// - a status that the operation does not document is a violation (Prism only warns about
//   an undocumented non-2xx status);
// - the media type must be one the document names for that status, exactly (Prism takes
//   application/json for application/problem+json);
// - for a path or method that the document does not have, the answer must be a 404
//   `not_found` or 405 `method_not_allowed` problem (with `Allow`); the document has no
//   HEAD operations, so a HEAD is answered that way too, as a problem without its body
//   (an answer to HEAD never has one: only its status, Content-Type and Allow are checked);
// - `Accept: text/event-stream` requests are streamed through (Prism would wait for the end
//   of the stream); only the status line is checked: a 200 must be text/event-stream, any
//   other status an application/problem+json answer.
// - `OPTIONS` (CORS preflights, which the document describes in its introduction rather
//   than as operations) passes through too: on a path of the document the answer must be a
//   `204` without a body whose `Allow` (and `Access-Control-Allow-Methods`, when it allows
//   the origin) name exactly the document's methods of that path; on any other path a 404
//   `not_found` problem.
// - every header of the answer must be declared for its status (`responses.*.headers`),
//   but for the framing headers (Content-Type, Content-Length, Date, Connection,
//   Keep-Alive, Transfer-Encoding) and, on the CORS paths (/v1/..., /openapi.yaml), the
//   CORS headers that the introduction declares for every answer (Access-Control-*, Vary),
//   and the security headers it declares for every answer (X-Content-Type-Options,
//   Referrer-Policy, X-Frame-Options, Content-Security-Policy);
//   answers that belong to no operation (404/405 above, preflights) may carry
//   X-Request-Id, Cache-Control and Allow, as the introduction says (Prism checks only
//   that the required headers are there and match their schemas).
// A response that breaks the document is answered `500` application/problem+json,
// type https://stoplight.io/prism/errors#VIOLATIONS, with the list under `validation` and
// in the `sl-violations` header (as Prism does), and logged on stderr.
'use strict';

const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const Module = require('node:module');

// Prism's mocker, which a proxy never runs, loads @faker-js/faker with all its locales when
// Prism is loaded (and json-schema-faker takes its `default` at once): 2.5 s of CPU of the
// 4.5 s a start took on a busy machine, and the tests start a proxy per server (make
// test-itest, make test-web). Faker and its `default` are stand-ins that load the real
// module when something reads from them, which a proxy never does.
function lazy(load) {
    let real = null;
    const get = () => real || (real = load());
    return new Proxy({}, {
        get: (_, key) => get()[key],
        has: (_, key) => key in get(),
        ownKeys: () => Reflect.ownKeys(get()),
        getOwnPropertyDescriptor: (_, key) => {
            const d = Object.getOwnPropertyDescriptor(get(), key);
            return d && { ...d, configurable: true };
        },
    });
}
const loadModule = Module._load;
Module._load = function lazyFaker(request, parent, isMain) {
    if (request !== '@faker-js/faker') return loadModule.call(this, request, parent, isMain);
    const faker = lazy(() => loadModule.call(this, request, parent, isMain));
    const fakerDefault = lazy(() => faker.default);
    return new Proxy({}, {
        get: (_, key) => (key === 'default' ? fakerDefault : faker[key]),
        has: (_, key) => key in faker,
    });
};
const { getHttpOperationsFromSpec, createInstance } = require('@stoplight/prism-http');
const { createLogger } = require('@stoplight/prism-core');
const TE = require('fp-ts/TaskEither');
const E = require('fp-ts/Either');

const MAX_BODY = 16 * 1024 * 1024; // requests above the server's 64 KiB limit pass too
const ERROR = 0; // DiagnosticSeverity.Error
const PROBLEM_KEYS = ['type', 'title', 'status', 'detail', 'code'];
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade',
    'proxy-connection', 'te', 'trailer']);

function parseArgs(argv) {
    const args = { spec: path.join(__dirname, '..', 'openapi.yaml'), host: '127.0.0.1' };
    for (let i = 0; i < argv.length; i += 2) {
        const key = argv[i].replace(/^--/, '');
        if (!['port', 'upstream', 'spec', 'host', 'port-file'].includes(key) || i + 1 >= argv.length) {
            throw new Error(`unknown or incomplete argument ${argv[i]}`);
        }
        args[key] = argv[i + 1];
    }
    if (!args.port || !args.upstream) throw new Error('--port and --upstream are required');
    args.upstream = new URL(args.upstream);
    return args;
}

function log(msg) {
    process.stderr.write(`spec-proxy: ${msg}\n`);
}

function readBody(req) {
    return new Promise((resolve, reject) => {
        const chunks = [];
        let size = 0;
        req.on('data', c => {
            size += c.length;
            if (size > MAX_BODY) {
                reject(new Error('request body too large for the proxy'));
                req.destroy();
            } else {
                chunks.push(c);
            }
        });
        req.on('end', () => resolve(Buffer.concat(chunks)));
        req.on('error', reject);
    });
}

// Sends the request as it came (method, path and query, headers, body bytes) upstream.
// Resolves to the response with its raw body, or with the stream when `stream` is set.
function sendUpstream(upstream, req, raw, stream) {
    const headers = { ...req.headers, host: upstream.host };
    return new Promise((resolve, reject) => {
        const up = http.request({
            host: upstream.hostname,
            port: upstream.port || 80,
            method: req.method,
            path: req.url,
            headers,
        }, res => {
            if (stream) return resolve({ res });
            const chunks = [];
            res.on('data', c => chunks.push(c));
            res.on('end', () => resolve({ res, body: Buffer.concat(chunks) }));
            res.on('error', reject);
        });
        up.on('error', reject);
        up.end(raw.length ? raw : undefined);
    });
}

function isJson(contentType) {
    const t = (contentType || '').split(';')[0].trim().toLowerCase();
    return t === 'application/json' || /^application\/[^/]+\+json$/.test(t);
}

// The response as Prism's validator reads it (headers lower-case and joined, JSON parsed).
function toPrismResponse(res, body) {
    const headers = {};
    for (let i = 0; i < res.rawHeaders.length; i += 2) {
        const name = res.rawHeaders[i].toLowerCase();
        headers[name] = name in headers ? `${headers[name]},${res.rawHeaders[i + 1]}` : res.rawHeaders[i + 1];
    }
    let parsed = body.toString('utf8');
    if (res.statusCode !== 204 && isJson(headers['content-type'])) {
        try {
            parsed = JSON.parse(parsed);
        } catch {
            // left as text: the validator reports it against the schema
        }
    }
    return { statusCode: res.statusCode, headers, body: parsed };
}

// Checks the answer to a path or method that the document does not describe (`head`: the
// request was a HEAD, whose answer has no body to check).
function checkUnrouted(out, head) {
    const problems = [];
    const add = message => problems.push({ location: ['response'], severity: 'Error', code: 'unrouted', message });
    if (out.statusCode !== 404 && out.statusCode !== 405) {
        add(`a path or method the document does not have must be answered 404 or 405, not ${out.statusCode}`);
        return problems;
    }
    const ct = (out.headers['content-type'] || '').split(';')[0].trim();
    if (ct !== 'application/problem+json') add(`content type must be application/problem+json, not "${ct}"`);
    if (out.statusCode === 405 && !out.headers.allow) add('a 405 answer must have an Allow header');
    if (head) {
        if (out.body !== '') add('an answer to HEAD must have no body');
        return problems;
    }
    const b = out.body;
    if (typeof b !== 'object' || b === null || Array.isArray(b)) {
        add('body must be a problem object');
        return problems;
    }
    for (const k of PROBLEM_KEYS) if (!(k in b)) add(`problem must have "${k}"`);
    for (const k of Object.keys(b)) if (!PROBLEM_KEYS.includes(k)) add(`problem has unknown property "${k}"`);
    if (b.status !== out.statusCode) add(`problem status ${b.status} differs from the HTTP status ${out.statusCode}`);
    const want = out.statusCode === 404 ? 'not_found' : 'method_not_allowed';
    if (b.code !== want) add(`problem code must be "${want}", not "${b.code}"`);
    return problems;
}

// The regular expression of operation `op`'s path (a parameter is one segment), made once.
const pathRegexes = new WeakMap();
function pathRegex(op) {
    let re = pathRegexes.get(op);
    if (!re) {
        re = new RegExp('^' + op.path.split(/\{[^}]+\}/).map(p => p.replace(/[.*+?^$()|[\]\\]/g, '\\$&')).join('[^/]+') + '$');
        pathRegexes.set(op, re);
    }
    return re;
}

// The operations of the document on `pathname`, of every method.
function operationsOnPath(operations, pathname) {
    return operations.filter(op => pathRegex(op).test(pathname));
}

// The document's methods of `pathname` ("GET, POST" as a sorted list), or null when no path
// of the document has it.
function documentedMethods(operations, pathname) {
    const methods = new Set(operationsOnPath(operations, pathname).map(op => op.method.toUpperCase()));
    return methods.size ? [...methods].sort() : null;
}

// Checks the answer to an OPTIONS request (a CORS preflight).
function checkOptions(operations, pathname, out) {
    const problems = [];
    const add = message => problems.push({ location: ['response'], severity: 'Error', code: 'preflight', message });
    const want = documentedMethods(operations, pathname);
    if (!want) return checkUnrouted(out, false);
    if (out.statusCode !== 204) {
        add(`OPTIONS on a documented path must be answered 204, not ${out.statusCode}`);
        return problems;
    }
    if (out.body !== '') add('a 204 answer must have no body');
    const list = h => (h || '').split(',').map(m => m.trim()).filter(Boolean).sort().join(', ');
    // Access-Control-Allow-Methods only where the answer allows the origin (CORS_ORIGINS).
    const names = out.headers['access-control-allow-origin'] ? ['allow', 'access-control-allow-methods'] : ['allow'];
    for (const name of names) {
        if (list(out.headers[name]) !== want.join(', ')) {
            add(`${name} must name the document's methods ${want.join(', ')}, not "${out.headers[name] || ''}"`);
        }
    }
    return problems;
}

// Checks that the answer's media type is one the operation documents for its status, exactly.
function checkMediaType(resource, out) {
    const response = (resource.responses || []).find(r => String(r.code) === String(out.statusCode));
    const documented = response && response.contents ? response.contents.map(c => c.mediaType.toLowerCase()) : [];
    if (documented.length === 0) return [];
    const got = (out.headers['content-type'] || '').split(';')[0].trim().toLowerCase();
    if (documented.includes(got)) return [];
    return [{
        location: ['response', 'header', 'content-type'], severity: 'Error', code: 'mediaType',
        message: `The received media type "${got}" is not the one documented for ${out.statusCode}: ${documented.join(', ')}`,
    }];
}

// Headers any HTTP answer may carry (framing), which the document does not declare.
const FRAMING_HEADERS = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive',
    'transfer-encoding']);
// The CORS headers, declared once in the document's introduction ("Browsers (CORS)") for
// every answer under /v1 and /openapi.yaml rather than with each response.
const CORS_HEADERS = new Set(['access-control-allow-origin', 'access-control-expose-headers', 'vary']);
const CORS_PREFLIGHT_HEADERS = new Set(['access-control-allow-methods', 'access-control-allow-headers',
    'access-control-max-age']);
// The browser security headers, declared once in the introduction ("Browsers (CORS)") for
// every answer (and with the page and the picture, where their values are checked).
const SECURITY_HEADERS = new Set(['x-content-type-options', 'referrer-policy', 'x-frame-options',
    'content-security-policy']);
// The headers of an answer that belongs to no operation (404 for a path the document does
// not have, 405 for a method a path does not have), declared in the introduction too.
const UNROUTED_HEADERS = new Set(['x-request-id', 'cache-control', 'allow']);

// Checks that the answer carries no header the document does not declare for it: those of
// `declared` (lower-case names: the operation's response headers, or the introduction's
// for answers that belong to no operation), the framing headers, and the CORS headers on
// the paths that have CORS (`preflight`: those of a preflight answer too).
function checkDeclaredHeaders(out, pathname, declared, preflight) {
    const problems = [];
    const cors = pathname === '/v1' || pathname.startsWith('/v1/') || pathname === '/openapi.yaml';
    for (const name of Object.keys(out.headers)) {
        if (FRAMING_HEADERS.has(name) || SECURITY_HEADERS.has(name) || declared.has(name)) continue;
        if (cors && (CORS_HEADERS.has(name) || (preflight && CORS_PREFLIGHT_HEADERS.has(name)))) continue;
        problems.push({
            location: ['response', 'header', name], severity: 'Error', code: 'undeclaredHeader',
            message: `The header "${name}" is not declared for ${out.statusCode} (responses.*.headers)`,
        });
    }
    return problems;
}

// The lower-case names of the headers the operation declares for the answer's status.
function declaredHeaders(resource, statusCode) {
    const response = resource && (resource.responses || []).find(r => String(r.code) === String(statusCode));
    return new Set(response ? (response.headers || []).map(h => h.name.toLowerCase()) : []);
}

// The operation of `method` and `pathname` (literal paths before templated ones), or null.
function findOperation(operations, method, pathname) {
    let found = null;
    for (const op of operations) {
        if (op.method !== method.toLowerCase()) continue;
        if (!pathRegex(op).test(pathname)) continue;
        if (!op.path.includes('{')) return op;
        found = found || op;
    }
    return found;
}

// Logs the violations `v` of the answer `status` to `req` and answers `res` 500 with them
// (an answer that is not checked against a schema: event streams, preflights).
function answerViolations(req, res, status, v) {
    for (const x of v) log(`VIOLATION ${req.method} ${req.url} -> ${status}: ${x.message}`);
    res.writeHead(500, { 'content-type': 'application/problem+json', 'sl-violations': JSON.stringify(v).slice(0, 4000) });
    res.end(JSON.stringify({ type: 'https://stoplight.io/prism/errors#VIOLATIONS',
        title: 'Request/Response not valid', status: 500,
        detail: `The server's ${status} answer does not conform to openapi.yaml.`, validation: v }));
}

function severityName(s) {
    return ['Error', 'Warning', 'Information', 'Hint'][s] || String(s);
}

async function main() {
    const args = parseArgs(process.argv.slice(2));
    const operations = await getHttpOperationsFromSpec(path.resolve(args.spec));
    const logger = createLogger('PROXY', { level: 'silent' });
    const raws = new WeakMap(); // Prism's input -> the HTTP request and its raw body

    // Prism's forwarder re-encodes the body; this one sends the request as it came.
    const forward = ({ data }, baseUrl, upstreamProxy, resource) => () => TE.tryCatch(async () => {
        const { req, raw } = raws.get(data);
        const { res, body } = await sendUpstream(args.upstream, req, raw, false);
        const out = toPrismResponse(res, body);
        raws.set(out, { res, body, resource });
        return out;
    }, E.toError);

    const config = {
        isProxy: true,
        upstream: args.upstream,
        upstreamProxy: undefined,
        validateRequest: false, // the server judges requests; tests send bad ones on purpose
        validateResponse: true,
        checkSecurity: false, // likewise: the server answers a missing token
        errors: false, // a request that matches no route is still forwarded
        mock: { dynamic: false },
    };
    const prism = createInstance(config, { logger, forward });

    const server = http.createServer(async (req, res) => {
        const started = Date.now();
        try {
            const accept = req.headers.accept || '';
            if (accept.includes('text/event-stream')) {
                const raw = await readBody(req);
                const { res: up } = await sendUpstream(args.upstream, req, raw, true);
                const ct = (up.headers['content-type'] || '').split(';')[0].trim().toLowerCase();
                const want = up.statusCode === 200 ? 'text/event-stream' : 'application/problem+json';
                if (ct !== want) {
                    up.resume();
                    const v = [{ location: ['response', 'header', 'content-type'], severity: 'Error', code: 'mediaType',
                        message: `An event stream request answered ${up.statusCode} must be ${want}, not "${ct}"` }];
                    answerViolations(req, res, up.statusCode, v);
                    return;
                }
                {
                    const pathname = new URL(req.url, 'http://proxy.invalid').pathname;
                    const op = findOperation(operations, req.method, pathname);
                    const declared = op ? declaredHeaders(op, up.statusCode) : UNROUTED_HEADERS;
                    const v = checkDeclaredHeaders(toPrismResponse(up, Buffer.alloc(0)), pathname, declared, false);
                    if (v.length > 0) {
                        up.resume();
                        answerViolations(req, res, up.statusCode, v);
                        return;
                    }
                }
                res.writeHead(up.statusCode, up.rawHeaders.filter((_, i, a) =>
                    i % 2 === 0 ? !HOP_BY_HOP.has(a[i].toLowerCase()) : !HOP_BY_HOP.has(a[i - 1].toLowerCase())));
                up.pipe(res);
                // A client that goes away ends the upstream stream too (the server sees it).
                res.on('close', () => up.destroy());
                return;
            }
            const raw = await readBody(req);
            const u = new URL(req.url, 'http://proxy.invalid');
            if (req.method === 'OPTIONS') {
                const { res: up, body } = await sendUpstream(args.upstream, req, raw, false);
                const out = toPrismResponse(up, body);
                const v = checkOptions(operations, u.pathname, out);
                if (v.length === 0) {
                    // A preflight's headers are the introduction's ("Browsers (CORS)").
                    const declared = out.statusCode === 204 ? new Set(['x-request-id', 'cache-control', 'allow']) : UNROUTED_HEADERS;
                    v.push(...checkDeclaredHeaders(out, u.pathname, declared, out.statusCode === 204));
                }
                const headers = [];
                for (let i = 0; i < up.rawHeaders.length; i += 2) {
                    if (!HOP_BY_HOP.has(up.rawHeaders[i].toLowerCase())) headers.push(up.rawHeaders[i], up.rawHeaders[i + 1]);
                }
                if (v.length > 0) {
                    answerViolations(req, res, up.statusCode, v);
                    return;
                }
                res.writeHead(up.statusCode, headers);
                res.end(body);
                return;
            }
            const query = {};
            for (const k of u.searchParams.keys()) {
                const v = u.searchParams.getAll(k);
                query[k] = v.length === 1 ? v[0] : v;
            }
            const input = {
                method: req.method.toLowerCase(),
                url: { path: u.pathname, query },
                headers: req.headers,
                body: raw.length ? raw.toString('utf8') : undefined,
            };
            raws.set(input, { req, raw });
            // Prism's router scores every operation of the document against every request
            // (a third of a proxied request's CPU): it is given those on the request's path, which
            // are the only ones it could choose, or all when none is (it then says so itself).
            const onPath = operationsOnPath(operations, u.pathname);
            const result = await prism.request(input, onPath.length ? onPath : operations)();
            if (E.isLeft(result)) throw result.left;
            const { output, validations } = result.right;
            const unrouted = validations.input.some(v => v.message === 'Selected route not found');
            let violations;
            if (unrouted) {
                violations = checkUnrouted(output, req.method === 'HEAD');
                violations.push(...checkDeclaredHeaders(output, u.pathname, UNROUTED_HEADERS, false));
            } else {
                violations = validations.output
                    .filter(v => v.severity === ERROR || /Unable to match the returned status code/.test(v.message))
                    .map(v => ({ location: ['response', ...(v.path || [])], severity: 'Error', code: v.code, message: v.message }));
                violations.push(...checkMediaType(raws.get(output).resource, output));
                violations.push(...checkDeclaredHeaders(output, u.pathname,
                    declaredHeaders(raws.get(output).resource, output.statusCode), false));
                for (const v of validations.output) {
                    if (v.severity !== ERROR && !/Unable to match/.test(v.message)) {
                        log(`note: ${req.method} ${req.url} -> ${output.statusCode}: ${severityName(v.severity)}: ${v.message}`);
                    }
                }
            }
            if (violations.length > 0) {
                for (const v of violations) {
                    log(`VIOLATION ${req.method} ${req.url} -> ${output.statusCode}: ${v.location.join('.')} ${v.message}`);
                }
                const body = JSON.stringify({
                    type: 'https://stoplight.io/prism/errors#VIOLATIONS',
                    title: 'Request/Response not valid',
                    status: 500,
                    detail: `The server's ${output.statusCode} answer does not conform to openapi.yaml.`,
                    validation: violations,
                    upstream: { status: output.statusCode, headers: output.headers, body: output.body },
                });
                res.writeHead(500, {
                    'content-type': 'application/problem+json',
                    'sl-violations': JSON.stringify(violations).slice(0, 4000),
                });
                res.end(body);
                return;
            }
            const { res: up, body } = raws.get(output);
            const headers = [];
            for (let i = 0; i < up.rawHeaders.length; i += 2) {
                if (!HOP_BY_HOP.has(up.rawHeaders[i].toLowerCase())) headers.push(up.rawHeaders[i], up.rawHeaders[i + 1]);
            }
            res.writeHead(up.statusCode, headers);
            res.end(body);
        } catch (e) {
            log(`ERROR ${req.method} ${req.url}: ${e && e.message ? e.message : e} (${Date.now() - started} ms)`);
            if (!res.headersSent) {
                res.writeHead(502, { 'content-type': 'application/problem+json' });
                res.end(JSON.stringify({
                    type: 'https://stoplight.io/prism/errors#UPSTREAM',
                    title: 'The proxy could not get an answer',
                    status: 502,
                    detail: String(e && e.message ? e.message : e),
                }));
            } else {
                res.destroy();
            }
        }
    });
    server.keepAliveTimeout = 65000;
    server.requestTimeout = 0; // long polls wait up to 60 s
    server.listen(Number(args.port), args.host, () => {
        const { port } = server.address();
        if (args['port-file']) {
            fs.writeFileSync(`${args['port-file']}.tmp`, `${port}\n`);
            fs.renameSync(`${args['port-file']}.tmp`, args['port-file']);
        }
        log(`listening on http://${args.host}:${port}, checking answers of ${args.upstream.href} against ${args.spec} (${operations.length} operations)`);
    });
}

main().catch(e => {
    log(`fatal: ${e && e.stack ? e.stack : e}`);
    process.exit(1);
});
