// i18n.js: the web client's words. The tables are data files, one per language
// (web/i18n/<lang>.json, each the same keys); this module loads English (the fallback of a
// key a table lacks) and the chosen language before any view is drawn (a top-level await:
// every module that imports t() waits for it). The language comes from localStorage (a
// choice made on the page), else navigator.languages.

// Each language's name in itself (the language menu shows these).
export const LANGS = { en: 'English', 'zh-Hant': '繁體中文', sv: 'Svenska', de: 'Deutsch' };

const tables = {};

// Loads the table of `l` once (web/i18n/<l>.json, beside this module).
async function load(l) {
    if (!tables[l]) {
        const res = await fetch(new URL(`./i18n/${l}.json`, import.meta.url));
        if (!res.ok) throw new Error(`the ${l} words are missing (HTTP ${res.status})`);
        tables[l] = await res.json();
    }
    return tables[l];
}

// The language: a saved choice, else the first of navigator.languages that we speak.
export function pickLang() {
    const saved = localStorage.getItem('tilehall.lang');
    if (saved && LANGS[saved]) return saved;
    for (const l of navigator.languages || [navigator.language || 'en']) {
        const x = l.toLowerCase();
        const hit = Object.keys(LANGS).find((k) => x.startsWith(k.split('-')[0].toLowerCase()));
        if (hit) return hit;
    }
    return 'en';
}

let lang = pickLang();
await load('en');
try { await load(lang); } catch { lang = 'en'; }

export const getLang = () => lang;
// Switches to `l` once its table is loaded (resolves when it is).
export async function setLang(l) {
    if (!LANGS[l]) return;
    await load(l);
    lang = l;
    localStorage.setItem('tilehall.lang', l);
    document.documentElement.lang = l;
}

// The word for `key` in the current language with {name} replaced from `vars`.
export function t(key, vars = {}) {
    const s = tables[lang][key] ?? tables.en[key] ?? key;
    if (vars.points !== undefined && vars.pts === undefined && /\{pts\}/.test(s)) {
        vars = { ...vars, pts: t(Number(vars.points) === 1 ? 'pts_one' : 'pts_many', { n: vars.points }) };
    }
    return s.replace(/\{(\w+)\}/g, (_, k) => (vars[k] !== undefined ? String(vars[k]) : ''));
}
