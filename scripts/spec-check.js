#!/usr/bin/env node
// spec-check.js: checks openapi.yaml against the engine's names, which are part of the
// HTTP contract: every engine status name (core/status.c) is an ErrorCode, and every
// ErrorCode is an engine status name or one of the service's own codes listed here.
// Every code that an error response of some operation allows is an ErrorCode. Every
// response declares X-Request-Id and Cache-Control, which every answer carries.
//
//   node scripts/spec-check.js            (run by `make test-spec`)
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const yaml = require('js-yaml');

const root = path.join(__dirname, '..');
const SERVICE_CODES = [
    'invalid_json', 'unknown_field', 'invalid_body', 'invalid_parameter', 'body_too_large',
    'unsupported_media_type', 'missing_token', 'unknown_token', 'not_found',
    'method_not_allowed', 'version_mismatch', 'idempotency_key_reused', 'rate_limited',
    'database_unavailable', 'internal_error', 'invalid_webhook_url', 'too_many_streams', 'request_timeout', 'headers_too_large',
    'uri_too_long', 'invalid_path', 'invalid_framing',
    // Computer players and hints (issue 13).
    'unknown_bot_level', 'invalid_think_ms', 'hints_disabled', 'hints_busy',
    'idempotency_key_too_short',
    // Open seats, joins, abort (issue 11, api/routes_lobby.c).
    'game_not_active', 'invite_not_found', 'already_seated', 'too_late_to_abort',
    'game_not_finished',
    'version_not_found',
    // Clocks (issue 12).
    'invalid_clock', 'invalid_turn_seconds', 'invalid_bank_seconds', 'invalid_on_timeout',
    'turn_timed_out',
    // Export and replay (issue 16).
    'replay_invalid', 'replay_incomplete', 'replay_mismatch', 'replay_deck_mismatch',
    'replay_unsupported_format',
    // Rolling restarts (issue 16).
    'draining',
    // board.png's render slots stayed busy (issue 14, api/board_png.c).
    'render_busy',
];

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

// Every answer carries X-Request-Id and Cache-Control (api/http.c): every response of
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
process.stdout.write(`spec-check: ${engine.length} engine codes and ${SERVICE_CODES.length} service codes ` +
    `match ErrorCode; ${responses} error responses checked; ${declared} responses declare X-Request-Id and Cache-Control\n`);
