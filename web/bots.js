// bots.js: the computer players and their ratings (#/bots, GET /v1/bots): a row per level
// and think class, a column per pool, so that a person can see how strong each one is.
import { errBox, h, showError } from './dom.js';
import { t } from './i18n.js';
import { botRatings, POOLS, ratingBadge } from './ratings.js';

const LEVELS = ['random', 'greedy', 'mcts'];
const CLASSES = ['fast', 'normal', 'slow'];

export function botsView(root) {
    const err = errBox('bots-err');
    const body = h('tbody', {});
    root.replaceChildren(h('div', { class: 'page bots' },
        h('p', { class: 'crumbs' }, h('a', { href: '#/' }, '← ' + t('back'))),
        h('h1', { id: 'bots-title' }, t('bots')),
        h('section', { class: 'card', 'aria-labelledby': 'bots-title' },
            h('p', { class: 'muted' }, t('bots_note')),
            h('div', { class: 'tablewrap' }, h('table', { id: 'bots-table' },
                h('caption', { class: 'sr-only' }, t('bots')),
                h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('level')),
                    POOLS.map((p) => h('th', { scope: 'col', class: 'num' }, t('ruleset_' + p))))),
                body))),
        err));
    document.title = `${t('bots')} · tilehall`;
    let stopped = false;
    botRatings().then((by) => {
        if (stopped) return;
        body.replaceChildren(...LEVELS.flatMap((l) => CLASSES.map((c) => h('tr', { 'data-bot': `${l}:${c}` },
            h('th', { scope: 'row' }, t('bot_' + l), h('span', { class: 'muted' }, ` · ${t('think_' + c)}`)),
            POOLS.map((p) => {
                const r = ((by[l] || {})[c] || {})[p];
                return h('td', { class: 'num' }, r ? ratingBadge(r) : h('span', { class: 'muted' }, '—'),
                    r ? h('span', { class: 'muted games' }, ' ' + t('games_n', { n: r.games })) : null);
            })))));
    }).catch((e) => showError(err, e));
    return { stop() { stopped = true; } };
}
