#!/usr/bin/env node
// check-sql.js: the service sends only parameterised SQL. In api/ (its folders included),
// every call that hands SQL text to libpq (PQexec, PQexecParams, PQprepare, PQsendQuery,
// PQsendQueryParams) or to store_db.c's db_exec() must pass, as its SQL, string literals (and upper-case macros that
// are literals), an entry of store_db.c's stmt_sql[] table, a migration file's text
// (list[i].sql), or db_exec()'s own parameter; and no SQL keyword may stand in a
// printf-style format, so no statement is ever built from values. Values go as parameters
// ($1, $2 ...). Run by the security itest (tests/itest/t_hardening.c).
//
//   node scripts/check-sql.js
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const dir = path.join(root, 'api');
const CALLS = /\b(PQexec|PQexecParams|PQprepare|PQsendQuery|PQsendQueryParams|db_exec)\s*\(/g;
const failures = [];
let calls = 0;

// The source without comments (strings kept).
function stripComments(src) {
    return src.replace(/\/\*[\s\S]*?\*\//g, m => m.replace(/[^\n]/g, ' '))
        .replace(/\/\/[^\n]*/g, m => ' '.repeat(m.length));
}

// The top-level arguments of the call whose '(' is at `open`.
function args(src, open) {
    const out = [];
    let depth = 0, cur = '', inStr = false;
    for (let i = open + 1; i < src.length; i++) {
        const c = src[i];
        if (inStr) {
            cur += c;
            if (c === '\\') cur += src[++i];
            else if (c === '"') inStr = false;
            continue;
        }
        if (c === '"') { inStr = true; cur += c; continue; }
        if (c === '(' || c === '[' || c === '{') depth++;
        if (c === ')' || c === ']' || c === '}') {
            if (depth === 0) { out.push(cur.trim()); return out; }
            depth--;
        }
        if (c === ',' && depth === 0) { out.push(cur.trim()); cur = ''; continue; }
        cur += c;
    }
    return out;
}

function allowedSql(a) {
    const literalsOnly = a.replace(/"(?:[^"\\]|\\.)*"/g, '').replace(/\b[A-Z][A-Z0-9_]*\b/g, '').trim();
    if (/"/.test(a) && literalsOnly === '') return true;
    return /^stmt_sql\[[a-z_]+\]$/.test(a) || a === 'list[i].sql' || a === 'sql';
}

// Every .c file under api/, folders (api/store/ ...) included, as a path below api/.
function cFiles(d, rel = '') {
    return fs.readdirSync(d, { withFileTypes: true }).flatMap(e =>
        e.isDirectory() ? cFiles(path.join(d, e.name), `${rel}${e.name}/`)
            : e.name.endsWith('.c') ? [`${rel}${e.name}`] : []);
}

for (const file of cFiles(dir)) {
    const src = stripComments(fs.readFileSync(path.join(dir, file), 'utf8'));
    for (const m of src.matchAll(CALLS)) {
        const line = src.slice(0, m.index).split('\n').length;
        const before = src.slice(Math.max(0, m.index - 40), m.index);
        // db_exec's own definition and declaration are not calls.
        if (m[1] === 'db_exec' && /enum store_status\s*$/.test(before)) continue;
        const a = args(src, m.index + m[0].length - 1);
        calls++;
        const at = m[1] === 'PQprepare' ? 2 : 1; // PQprepare(conn, name, sql, ...)
        if (a.length <= at || !allowedSql(a[at])) {
            failures.push(`api/${file}:${line}: ${m[1]} gets SQL that is not a literal: ${a[at]}`);
        }
    }
    for (const m of src.matchAll(/printf\s*\([^;]*?"[^"]*\b(SELECT|INSERT|UPDATE|DELETE|VALUES)\b[^"]*"/g)) {
        const line = src.slice(0, m.index).split('\n').length;
        failures.push(`api/${file}:${line}: SQL in a printf-style format`);
    }
}

if (calls === 0) failures.push('found no libpq calls in api/: is this the right folder?');
if (failures.length) {
    for (const f of failures) process.stderr.write(`check-sql: ${f}\n`);
    process.exit(1);
}
process.stdout.write(`check-sql: ${calls} calls that send SQL text, each a literal or a prepared statement\n`);
