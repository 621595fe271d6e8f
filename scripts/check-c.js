#!/usr/bin/env node
// check-c.js: rules of the house that the compiler does not check, over every C file of the
// checkout (git ls-files '*.c' '*.h': core/, api/, tests/, tools/). Each failure is printed
// as FILE:LINE: message and makes the exit status 1. Run by `make lint-c`.
//
//   1. No banned function is called anywhere, tests and tools included: atoi, sprintf,
//      strcpy, strcat, strtok, rand, gets. The check looks for the name as a whole word
//      followed by '(', outside comments and string literals, and not as a member
//      (x.rand(), p->gets()). Other functions are other names and pass: snprintf, fgets,
//      strtol, and strtok_r (re-entrant: no hidden static state, the reason strtok is
//      banned) or rand_r. Use snprintf, strtol, memcpy with a length, strtok_r or a
//      scanner of your own, and the engine's rng.h.
//   2. The engine (core/) has no I/O and knows nothing of the service: a quoted include in
//      core/ names a header in core/, and its system headers are only ISO C headers that
//      do no I/O and keep no time, thread, signal or locale state (CORE_SYSTEM below).
//      So no stdio.h, unistd.h, fcntl.h, sys/*, pthread.h, threads.h, time.h, signal.h,
//      locale.h, wchar.h, POSIX or library headers.
//   3. libpq is behind the store: only files under api/store/ include libpq-fe.h (and
//      tests/itest/, a separate program that reads the database to check what the server
//      stored, and tests/apidb/, the store's own tests that read back what it wrote).
//   4. libmicrohttpd is behind api/http/: no file outside it includes microhttpd.h; librsvg
//      and cairo are behind api/render/board_png.c: no other file includes their headers.
//   5. The attribute of results that must be checked is spelled once, as NODISCARD in
//      core/nodiscard.h: nowhere else does warn_unused_result appear.
//   6. No include cycle among api/'s modules, nor among core/'s: a module is a .c file with
//      its .h (and a folder's files by name within it); the store's files (api/store/) are
//      one module, and so are the files that share an internal header
//      (api/http/http_internal.h, core/bot_internal.h). Module A depends on B when a file of
//      A includes a header of B; a cycle (store -> clocks -> games -> store in api/, game ->
//      board -> game in core/, as there were) means no layer is below another.
//   7. The game service (api/game/) speaks in outcomes, never HTTP: none of its files
//      includes a header of api/http/ or api/routes/ (the routes map its outcomes).
//   8. api/ is in folders by layer, and a folder includes only headers of its own and of
//      the layers below it (LAYERS, lowest first): base (buffers, logs, configuration,
//      crypto, the request as plain data), ratings (the rating arithmetic), store
//      (PostgreSQL), game (the game service: every change of a game, the cache, the clock,
//      the game's JSON, the kinds of background work), json (request bodies, options,
//      exports), render (board pictures), jobs (the workers: computer players, deadlines,
//      webhooks, retention, live waits), http (libmicrohttpd, answers, limits), routes
//      (the handlers and the route table), and api/main.c on top. A header of a higher
//      layer included from a lower one is a failure, so each layer can be read, tested
//      and changed knowing only what lies below it.
//
//   node scripts/check-c.js [FILE...]     (no FILE: every C file git knows)
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const root = path.join(__dirname, '..');
const BANNED = ['atoi', 'sprintf', 'strcpy', 'strcat', 'strtok', 'rand', 'gets'];
const CORE_SYSTEM = new Set([
    'assert.h', 'complex.h', 'ctype.h', 'errno.h', 'fenv.h', 'float.h', 'inttypes.h',
    'iso646.h', 'limits.h', 'math.h', 'setjmp.h', 'stdalign.h', 'stdarg.h', 'stdatomic.h',
    'stdbool.h', 'stddef.h', 'stdint.h', 'stdlib.h', 'stdnoreturn.h', 'string.h',
    'tgmath.h', 'uchar.h',
]);
const PQ_ALLOWED = f => f.startsWith('api/store/') ||
    f.startsWith('tests/itest/') || f.startsWith('tests/apidb/');
const MHD_ALLOWED = f => f.startsWith('api/http/');
const RSVG_ALLOWED = f => f === 'api/render/board_png.c';
const LAYERS = ['base', 'ratings', 'store', 'game', 'json', 'render', 'jobs', 'http', 'routes', 'main'];
// The layer of an api/ file: its folder (api/main.c is 'main'); null outside api/.
const layerOf = f => !f.startsWith('api/') ? null
    : f === 'api/main.c' ? 'main' : f.split('/').length === 3 ? f.split('/')[1] : '(top)';

// The source with comments and the insides of string and character literals blanked
// (newlines kept), so offsets and line numbers still match the original.
function blank(src) {
    let out = '';
    let i = 0;
    const n = src.length;
    const keepNl = s => s.replace(/[^\n]/g, ' ');
    while (i < n) {
        const c = src[i], d = src[i + 1];
        if (c === '/' && d === '*') {
            const end = src.indexOf('*/', i + 2);
            const j = end < 0 ? n : end + 2;
            out += keepNl(src.slice(i, j));
            i = j;
        } else if (c === '/' && d === '/') {
            let j = src.indexOf('\n', i);
            if (j < 0) j = n;
            out += keepNl(src.slice(i, j));
            i = j;
        } else if (c === '"' || c === '\'') {
            let j = i + 1;
            while (j < n && src[j] !== c && src[j] !== '\n') j += src[j] === '\\' ? 2 : 1;
            out += c + keepNl(src.slice(i + 1, j)) + (j < n ? src[j] : '');
            i = j + 1;
        } else {
            out += c;
            i++;
        }
    }
    return out;
}

function lineOf(src, offset) {
    let line = 1;
    for (let i = 0; i < offset; i++) if (src.charCodeAt(i) === 10) line++;
    return line;
}

function files() {
    const args = process.argv.slice(2);
    if (args.length) return args;
    const out = execFileSync('git', ['ls-files', '*.c', '*.h'], { cwd: root, encoding: 'utf8' });
    return out.split('\n').filter(Boolean);
}

const failures = [];
const list = files();
const bannedRe = new RegExp(`(^|[^\\w.>])(${BANNED.join('|')})\\s*\\(`, 'g');
for (const file of list) {
    const raw = fs.readFileSync(path.join(root, file), 'utf8');
    const code = blank(raw);
    const fail = (offset, msg) => failures.push(`${file}:${lineOf(raw, offset)}: ${msg}`);

    for (const m of code.matchAll(bannedRe)) {
        fail(m.index + m[1].length, `banned function ${m[2]}() (see scripts/check-c.js)`);
    }
    // What can fail is marked NODISCARD (core/nodiscard.h), the attribute spelled once.
    if (file !== 'core/nodiscard.h') {
        for (const m of code.matchAll(/warn_unused_result/g))
            fail(m.index, 'warn_unused_result spelled out: use NODISCARD (core/nodiscard.h)');
    }

    // Includes: found in the blanked text (so none inside a comment), named from the raw.
    for (const m of code.matchAll(/^[ \t]*#[ \t]*include[ \t]*([<"])/gm)) {
        const at = m.index + m[0].length - 1;
        const close = m[1] === '<' ? '>' : '"';
        const end = raw.indexOf(close, at + 1);
        if (end < 0) continue;
        const name = raw.slice(at + 1, end);
        const quoted = m[1] === '"';
        if (file.startsWith('core/')) {
            if (quoted) {
                const target = path.normalize(path.join(path.dirname(file), name));
                if (!target.startsWith('core/') || !fs.existsSync(path.join(root, target)))
                    fail(at, `core/ includes "${name}": the engine includes only its own headers`);
            } else if (!CORE_SYSTEM.has(name)) {
                fail(at, `core/ includes <${name}>: the engine does no I/O (only the ISO C ` +
                     'headers listed in scripts/check-c.js)');
            }
        }
        const base = path.basename(name);
        if (base === 'libpq-fe.h' && !PQ_ALLOWED(file))
            fail(at, 'libpq-fe.h outside the store (api/store/)');
        if (base === 'microhttpd.h' && !MHD_ALLOWED(file))
            fail(at, 'microhttpd.h outside api/http/');
        if ((name.startsWith('librsvg') || base.startsWith('cairo')) && !RSVG_ALLOWED(file))
            fail(at, `${name} outside api/render/board_png.c`);
    }
}

// Rule 6: the modules' include graphs of api/ and of core/, without cycles.
// A module's files that share an internal header (NAME_internal.h: api/http/http.c,
// http_wait.c, http_answer.c; core/bot.c, bot_eval.c, bot_hard.c) are one module, NAME.
const internalOf = f => {
    const m = /^((?:api\/[a-z_]+|core)\/)([a-z]+)/.exec(f);
    return m && fs.existsSync(path.join(root, `${m[1]}${m[2]}_internal.h`)) ? `${m[1]}${m[2]}` : null;
};
const apiModule = f => (f.startsWith('api/store/') ? 'store'
    : (internalOf(f) || f).replace(/^api\//, '').replace(/\.[ch]$/, ''));
const coreModule = f => (internalOf(f) || f).replace(/^core\//, '').replace(/\.[ch]$/, '');
// The quoted includes of `file` as [name, line]: its own headers, by path or by bare name.
function quotedIncludes(file) {
    const raw = fs.readFileSync(path.join(root, file), 'utf8');
    const code = blank(raw);
    const out = [];
    for (const m of code.matchAll(/^[ \t]*#[ \t]*include[ \t]*"/gm)) {
        const at = m.index + m[0].length;
        out.push([raw.slice(at, raw.indexOf('"', at)), raw.slice(0, at).split('\n').length]);
    }
    return out;
}
// The module graph of the files of `tree` (each file's module by `moduleOf`): for each
// module, the modules whose headers its files include; `onInclude(file, line, name, target)`
// sees every include of one of the tree's headers.
function moduleGraph(tree, moduleOf, onInclude) {
    const deps = new Map();
    const own = list.filter(f => f.startsWith(`${tree}/`));
    const headers = new Set(own.filter(f => f.endsWith('.h')));
    // Headers are included by their bare name (every folder is on the include path: mk/api.mk).
    const byName = new Map([...headers].map(h => [path.basename(h), h]));
    for (const file of own) {
        const from = moduleOf(file);
        if (!deps.has(from)) deps.set(from, new Set());
        for (const [name, line] of quotedIncludes(file)) {
            const near = path.normalize(path.join(path.dirname(file), name));
            const target = headers.has(near) ? near : byName.get(path.basename(name)) || null;
            if (!target) continue;
            if (moduleOf(target) !== from) deps.get(from).add(moduleOf(target));
            onInclude(file, line, name, target);
        }
    }
    return deps;
}
// Every cycle of `deps` that a depth-first walk meets, as a failure named after `tree`.
function failCycles(tree, deps) {
    const state = new Map(); // 1: on the path, 2: done
    const stack = [];
    const visit = m => {
        state.set(m, 1);
        stack.push(m);
        for (const d of [...(deps.get(m) || [])].sort()) {
            if (state.get(d) === 1) {
                const cycle = stack.slice(stack.indexOf(d)).concat(d);
                failures.push(`${tree}/: include cycle ${cycle.join(' -> ')} (see scripts/check-c.js)`);
            } else if (!state.has(d)) {
                visit(d);
            }
        }
        stack.pop();
        state.set(m, 2);
    };
    for (const m of [...deps.keys()].sort()) if (!state.has(m)) visit(m);
}
// Rule 8 rides on api/'s walk: each include's layers.
const apiDeps = moduleGraph('api', apiModule, (file, line, name, target) => {
    const [lf, lt] = [layerOf(file), layerOf(target)];
    if (lf === '(top)' || !LAYERS.includes(lf))
        failures.push(`${file}: api/ files live in a layer's folder (scripts/check-c.js, rule 8)`);
    else if (lf === 'game' && (lt === 'http' || lt === 'routes'))
        failures.push(`${file}:${line}: api/game/ includes "${name}": the game service answers no request`);
    else if (LAYERS.indexOf(lt) > LAYERS.indexOf(lf))
        failures.push(`${file}:${line}: layer ${lf} includes "${name}" of the higher layer ${lt} ` +
                      '(scripts/check-c.js, rule 8)');
});
failCycles('api', apiDeps);
failCycles('core', moduleGraph('core', coreModule, () => {}));

for (const f of failures) console.error(f);
if (failures.length) {
    console.error(`check-c: ${failures.length} problem(s)`);
    process.exit(1);
}
console.log(`check-c: ${list.length} C files: no banned function, NODISCARD spelled once, core/ without I/O, ` +
            'libpq in api/store/, libmicrohttpd in api/http/ and librsvg in board_png.c only, no include cycle in api/ or core/, ' +
            'no HTTP in api/game/, api/ layered by folder');
