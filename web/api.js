// api.js: the tilehall HTTP API as the web client uses it: public endpoints only, JSON in
// and out, problem+json refusals turned into errors that carry the server's `detail`.

// Where the API is, and which APIs this page may talk to at all. The page holds a player's
// long-lived token, so it never follows a link to an API of the link's choosing
// (`/?api=https://evil.example` would be sent that token): the APIs it uses are its own
// origin, the one set in <meta name="tilehall-api"> and the origins in
// <meta name="tilehall-api-origins"> (space-separated; the server writes WEB_API_ORIGINS
// there, and its Content-Security-Policy allows requests to exactly those). `?api=` picks
// one of them; any other is ignored (`apiRefused` names it) and the default is used.

// The origin of `url` ("http:" or "https:" only, no user name), or null.
function originOf(url) {
    try {
        const u = new URL(url, location.href);
        if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.username || u.password) return null;
        return u.origin;
    } catch {
        return null;
    }
}
// `url` as a base: its origin and path, no trailing slash, no query or fragment.
const asBase = (url) => { const u = new URL(url, location.href); return u.origin + u.pathname.replace(/\/+$/, ''); };
const metaOf = (name) => { const m = document.querySelector(`meta[name="${name}"]`); return (m && m.content) || ''; };

// {base, allowed, defaultBase, refused}: the API's base URL (no trailing slash), the
// origins the page may send requests to, the base used without ?api=, and a refused ?api=.
export function apiChoice() {
    const allowed = new Set([location.origin]);
    let defaultBase = location.origin;
    const meta = metaOf('tilehall-api');
    if (meta && originOf(meta)) {
        allowed.add(originOf(meta));
        defaultBase = asBase(meta);
    }
    for (const o of metaOf('tilehall-api-origins').split(/[\s,]+/)) if (originOf(o)) allowed.add(originOf(o));
    const q = new URLSearchParams(location.search).get('api');
    if (q && originOf(q) && allowed.has(originOf(q))) return { base: asBase(q), allowed, defaultBase, refused: null };
    return { base: defaultBase, allowed, defaultBase, refused: q || null };
}

const choice = apiChoice();
export const API = choice.base;
export const API_DEFAULT = choice.defaultBase;
export const apiRefused = choice.refused;

// 128 random bits in hex: an Idempotency-Key good for anonymous requests (32 characters).
export function randomKey() {
    return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

// A refusal: status, the problem's code and detail (the sentence shown to the person).
export class ApiError extends Error {
    constructor(status, problem) {
        super((problem && (problem.detail || problem.title)) || `HTTP ${status}`);
        this.status = status;
        this.code = problem && problem.code;
        this.problem = problem;
    }
}

// One request: method, path (under the base), options {token, body, ifMatch, key}.
// Resolves with {status, etag, body}; rejects with ApiError (or TypeError when offline).
export async function call(method, path, opts = {}) {
    const headers = {};
    if (opts.token) headers.Authorization = 'Bearer ' + opts.token;
    if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
    if (opts.ifMatch) headers['If-Match'] = opts.ifMatch;
    if (method === 'POST') headers['Idempotency-Key'] = opts.key || randomKey();
    const res = await fetch(API + path, {
        method, headers, body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
        signal: opts.signal, // a long poll the page no longer wants is cut (its connection freed)
    });
    let body = null;
    const text = await res.text();
    if (text) {
        try { body = JSON.parse(text); } catch { body = text; }
    }
    if (!res.ok) {
        const err = new ApiError(res.status, body && typeof body === 'object' ? body : null);
        err.at = method + ' ' + path;
        throw err;
    }
    return { status: res.status, etag: res.headers.get('ETag'), body };
}

export const get = (path, opts) => call('GET', path, opts).then((r) => r.body);
export const post = (path, body, opts = {}) => call('POST', path, { ...opts, body }).then((r) => r.body);
