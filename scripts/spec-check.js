#!/usr/bin/env node
// spec-check.js: checks openapi.yaml against the engine's names, which are part of the
// HTTP contract: ErrorCode is exactly the engine status names (core/status.c) and the
// service's own codes (the one list, api/base/codes.c), and every code literal that a file of
// api/ answers with (problem_reply, send_problem, json_fail, the code argument of
// clock_int) is in that list.
// Every code that an error response of some operation allows is an ErrorCode. Every
// response declares X-Request-Id and Cache-Control, which every answer carries.
//
//   node scripts/spec-check.js            (run by `make test-spec`)
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const yaml = require('js-yaml');

const root = path.join(__dirname, '..');
// The service's own codes: the one list, api/base/codes.c (between its BEGIN and END lines),
// which the server's api_code_known() and the tests use too.
const codesC = fs.readFileSync(path.join(root, 'api', 'base', 'codes.c'), 'utf8');
const listed = codesC.split('BEGIN service codes')[1];
const SERVICE_CODES = listed === undefined ? [] :
    [...listed.split('END service codes')[0].matchAll(/"([a-z_]+)"/g)].map(m => m[1]);

const spec = yaml.load(fs.readFileSync(path.join(root, 'openapi.yaml'), 'utf8'));
const statusC = fs.readFileSync(path.join(root, 'core', 'status.c'), 'utf8');
const engine = [...statusC.matchAll(/\[CC_ERR_\w+\]\s*=\s*\{\s*"([a-z_]+)"/g)].map(m => m[1]);
const enumCodes = spec.components.schemas.ErrorCode.enum;
const failures = [];

if (engine.length === 0) failures.push('found no engine status names in core/status.c');
for (const c of engine) {
    if (!enumCodes.includes(c)) failures.push(`engine status "${c}" is not in ErrorCode`);
}
for (const c of enumCodes) {
    if (!engine.includes(c) && !SERVICE_CODES.includes(c)) {
        failures.push(`ErrorCode "${c}" is neither an engine status nor a service code`);
    }
}
if (new Set(enumCodes).size !== enumCodes.length) failures.push('ErrorCode lists a code twice');
if (SERVICE_CODES.length === 0) failures.push('found no service codes in api/base/codes.c');
if (new Set(SERVICE_CODES).size !== SERVICE_CODES.length) failures.push('api/base/codes.c lists a code twice');
for (const c of SERVICE_CODES) {
    if (engine.includes(c)) failures.push(`api/base/codes.c lists the engine status "${c}"`);
    if (!enumCodes.includes(c)) failures.push(`service code "${c}" (api/base/codes.c) is not in ErrorCode`);
}

// Every code literal the server answers with is in the list. The calls that take a code:
// problem_reply(resp, STATUS, "code", ...), send_problem(..., STATUS, "code", ...),
// json_fail(err, "code", ...), and a decoder's code argument (clock_int(..., "code", ...)):
// any literal of the shape of a code (snake_case) that is an argument right after an
// HTTP status or an `err`, or is named *_code / code in an assignment.
const apiFiles = [];
const walk = dir => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const f = path.join(dir, e.name);
        if (e.isDirectory()) walk(f);
        else if (f.endsWith('.c')) apiFiles.push(f);
    }
};
walk(path.join(root, 'api'));
const CODE_USES = [
    /\b(?:problem_reply|send_problem)\s*\([^;]*?\b[1-5]\d\d\s*,\s*"([a-z][a-z0-9_]*)"/g,
    /\bjson_fail\s*\(\s*[\w>.-]+\s*,\s*"([a-z][a-z0-9_]*)"/g,
    /\bclock_int\s*\([^;]*?"((?:invalid|unknown)_[a-z0-9_]*)"/g,
];
let literals = 0;
for (const f of apiFiles) {
    if (f.endsWith(path.join('api', 'codes.c'))) continue;
    const src = fs.readFileSync(f, 'utf8');
    for (const re of CODE_USES) {
        for (const m of src.matchAll(re)) {
            literals++;
            if (!SERVICE_CODES.includes(m[1]) && !engine.includes(m[1])) {
                const line = src.slice(0, m.index).split('\n').length;
                failures.push(`${path.relative(root, f)}:${line}: code "${m[1]}" is not in api/base/codes.c`);
            }
        }
    }
}
if (literals === 0) failures.push('found no code literal in api/');

// The codes each error response allows (code: {const} or {enum} next to the Problem ref).
let responses = 0;
for (const [name, r] of Object.entries(spec.components.responses)) {
    const schema = r.content && r.content['application/problem+json'] && r.content['application/problem+json'].schema;
    if (!schema) continue;
    responses++;
    const narrowed = (schema.allOf || []).map(s => s.properties && s.properties.code).filter(Boolean);
    if (narrowed.length !== 1) {
        failures.push(`response ${name} does not name its codes`);
        continue;
    }
    const codes = narrowed[0].const !== undefined ? [narrowed[0].const] : narrowed[0].enum || [];
    for (const c of codes) {
        if (!enumCodes.includes(c)) failures.push(`response ${name} allows "${c}", which is not an ErrorCode`);
    }
}

// Every answer carries X-Request-Id and Cache-Control (api/http/): every response of
// every operation declares both (the validating proxy refuses undeclared headers).
let declared = 0;
const hasBoth = (where, r) => {
    if (r.$ref) return;
    declared++;
    const names = Object.keys(r.headers || {});
    for (const h of ['X-Request-Id', 'Cache-Control']) {
        if (!names.includes(h)) failures.push(`${where} does not declare the header ${h}`);
    }
};
for (const [p, item] of Object.entries(spec.paths)) {
    for (const [m, op] of Object.entries(item)) {
        for (const [code, r] of Object.entries((op && op.responses) || {})) hasBoth(`${m.toUpperCase()} ${p} ${code}`, r);
    }
}
for (const [name, r] of Object.entries(spec.components.responses)) hasBoth(`response ${name}`, r);

if (failures.length > 0) {
    for (const f of failures) process.stderr.write(`spec-check: ${f}\n`);
    process.exit(1);
}
process.stdout.write(`spec-check: ${engine.length} engine codes and ${SERVICE_CODES.length} service codes (api/base/codes.c) ` +
    `match ErrorCode; ${literals} code literals in api/ are listed; ${responses} error responses checked; ${declared} responses declare X-Request-Id and Cache-Control\n`);
