// dom.js: building the page: h() (an element from a tag, attributes, handlers and
// children), $ (a query), a seat's colour dot, and the error boxes that show a refusal in
// words. Every view (app.js, profile.js, leaderboard.js, bots.js) builds with these.
import { ApiError } from './api.js';
import { t } from './i18n.js';

export const $ = (sel, root = document) => root.querySelector(sel);

export function h(tag, attrs = {}, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
        if (v === undefined || v === null || v === false) continue;
        if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
        else if (k === 'text') e.textContent = v;
        else e.setAttribute(k, v === true ? '' : v);
    }
    for (const k of kids.flat()) if (k !== null && k !== undefined && k !== false) e.append(k);
    return e;
}

// A seat's colour dot. The colour is set through the CSSOM (`style.background`), which
// the page's Content-Security-Policy allows, not as a style attribute, which it refuses.
export function dot(color) {
    const e = h('span', { class: 'dot' });
    e.style.background = color;
    return e;
}

// An empty, hidden box for a view's refusals (role alert: read out when filled).
export const errBox = (id) => h('p', { id, class: 'err', role: 'alert', hidden: true });

export function showError(where, e) {
    const box = where || $('#err');
    if (!box) return;
    const msg = e instanceof ApiError ? t('error', { detail: e.message })
        : e instanceof TypeError ? t('offline') : String(e && e.message || e);
    box.textContent = msg;
    box.hidden = false;
}

export function clearError(where) {
    const box = where || $('#err');
    if (box) { box.textContent = ''; box.hidden = true; }
}

// A form's row: the label of control `ctl` (whose id is `id`), the control, and when given
// a sentence under it saying what it does (`<id>-help`; the control should name it in
// aria-describedby).
export const field = (id, label, ctl, helpText) => h('div', { class: 'row' }, h('label', { for: id }, label), ctl,
    helpText ? h('span', { id: id + '-help', class: 'muted help' }, helpText) : null);
