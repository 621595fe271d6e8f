// api.js: the tilehall HTTP API as the web client uses it: public endpoints only, JSON in
// and out, problem+json refusals turned into errors that carry the server's `detail`.

// The API's base URL: ?api=http://host:port in the page's address, else
// <meta name="tilehall-api" content="...">, else the page's own origin.
export function apiBase() {
    const q = new URLSearchParams(location.search).get('api');
    if (q) return q.replace(/\/+$/, '');
    const meta = document.querySelector('meta[name="tilehall-api"]');
    if (meta && meta.content) return meta.content.replace(/\/+$/, '');
    return location.origin;
}

export const API = apiBase();

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
