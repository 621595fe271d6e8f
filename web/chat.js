// chat.js: a game's chat in the game view (issue 28): the messages, live (a long poll of
// GET /v1/games/{id}/chat?after=&wait=, which carries the seat's token: an EventSource
// could not), a box to post one, and beside each message of another seat a report and,
// for a message of a player while this browser has a player, a block. A blocked player's
// messages are hidden at once (the server leaves them out from then on); a message the
// operator hid shows as hidden. Names and texts go into the page as text only, never as
// markup, and long ones wrap. Nothing of the operator's is here. The panel's own words
// are in the language tables (chat_*); the messages are the players' own.
import { ApiError, get, post } from './api.js';
import { h } from './dom.js';
import { t } from './i18n.js';

const WAIT = 25;       // seconds a long poll waits
const RETRY_MS = 3000; // after a failed poll

// The panel for game `id`: `token()` the token that speaks for this browser's seat (or
// null), `seat()` that seat (or null), `me()` this browser's player ({id, token}, or null).
// Returns {el, stop}.
export function chatPanel(id, token, seat, me) {
    const st = { after: 0, stopped: false, blocked: new Set(), ctl: null, timer: null, seen: new Set() };
    // The list of messages inside a live region (role log) that scrolls and takes the focus
    // (so that a keyboard scrolls it).
    const log = h('ol', { id: 'chat-log', class: 'chat-list' });
    const box = h('div', { class: 'chat-log', role: 'log', 'aria-live': 'polite', 'aria-labelledby': 'chat-h',
        tabindex: 0 }, log);
    const empty = h('p', { id: 'chat-empty', class: 'muted' }, t('chat_none'));
    const err = h('p', { id: 'chat-err', class: 'err', role: 'alert', hidden: true });
    const text = h('textarea', { id: 'chat-text', name: 'text', rows: 2, maxlength: 500, required: true });
    const form = h('form', { id: 'chat-form', class: 'chat-form', onsubmit: (e) => { e.preventDefault(); send(); } },
        h('label', { for: 'chat-text' }, t('chat_say')), text, h('button', { type: 'submit' }, t('chat_send')));
    const el = h('section', { id: 'chat', class: 'card chat', 'aria-labelledby': 'chat-h' },
        h('h2', { id: 'chat-h' }, t('chat_chat')), empty, box, err, form);
    form.hidden = !token();

    function showErr(e) {
        err.textContent = e instanceof ApiError ? e.message : String((e && e.message) || e);
        err.hidden = false;
    }

    function line(m) {
        const who = h('span', { class: 'chat-name' });
        who.textContent = m.name; // text, never markup
        const body = h('span', { class: 'chat-text' });
        if (m.hidden || m.text === null) {
            body.textContent = t('chat_hidden');
            body.classList.add('muted');
        } else {
            body.textContent = m.text;
        }
        const li = h('li', { class: 'chat-msg', 'data-seq': m.seq, 'data-player': m.player || '' },
            who, ': ', body);
        const meNow = me();
        const own = (m.player && meNow && m.player === meNow.id) || m.seat === seat();
        if (token() && !own && !m.hidden) {
            const rep = h('button', { type: 'button', class: 'link chat-report', 'aria-label': t('chat_report_of', { name: m.name }),
                onclick: async () => {
                    try {
                        await post(`/v1/games/${id}/chat/${m.seq}/report`, undefined, { token: token() });
                        rep.textContent = t('chat_reported');
                        rep.disabled = true;
                    } catch (e) { showErr(e); }
                } }, t('chat_report'));
            li.append(' ', rep);
        }
        if (m.player && meNow && meNow.token && !own) {
            const blk = h('button', { type: 'button', class: 'link chat-block', 'aria-label': t('chat_block_of', { name: m.name }),
                onclick: async () => {
                    try {
                        await post(`/v1/players/me/blocks/${m.player}`, undefined, { token: meNow.token });
                        hidePlayer(m.player);
                        err.textContent = t('chat_blocked');
                        err.hidden = false;
                    } catch (e) { showErr(e); }
                } }, t('chat_block'));
            li.append(' ', blk);
        }
        return li;
    }

    function hidePlayer(pid) {
        st.blocked.add(pid);
        for (const li of [...log.children]) if (li.dataset.player === pid) li.remove();
        empty.hidden = log.children.length > 0;
    }

    function add(msgs) {
        for (const m of msgs) {
            st.after = Math.max(st.after, m.seq);
            if (st.seen.has(m.seq) || (m.player && st.blocked.has(m.player))) continue;
            st.seen.add(m.seq);
            log.append(line(m));
        }
        empty.hidden = log.children.length > 0;
        if (msgs.length) box.scrollTop = box.scrollHeight;
    }

    // One page after st.after (waiting up to `wait` s for one); true when more are there.
    async function poll(wait) {
        const tok = token();
        st.ctl = new AbortController();
        const r = await get(`/v1/games/${id}/chat?after=${st.after}&wait=${wait}`,
            tok ? { token: tok, signal: st.ctl.signal } : { signal: st.ctl.signal });
        if (st.stopped) return false;
        add(r.messages || []);
        st.after = Math.max(st.after, r.last_seq || 0); // messages of blocked players count too
        return !!r.has_more;
    }

    async function loop() {
        let wait = 0; // the first page at once
        while (!st.stopped) {
            try {
                wait = (await poll(wait)) ? 0 : WAIT;
            } catch (e) {
                if (st.stopped) return;
                if (e instanceof ApiError && (e.status === 401 || e.status === 403)) {
                    empty.textContent = t('chat_private');
                    empty.hidden = false;
                    return;
                }
                await new Promise((ok) => { st.timer = setTimeout(ok, RETRY_MS); });
            }
        }
    }

    async function send() {
        const v = text.value;
        if (!v.trim()) return;
        err.hidden = true;
        try {
            const m = await post(`/v1/games/${id}/chat`, { text: v }, { token: token() });
            text.value = '';
            add([m]);
        } catch (e) { showErr(e); }
    }

    loop();
    return {
        el,
        // The waiting long poll is aborted too: left to run out its 25 s, those of the games a
        // player just left took the browser's six connections per host, and a move waited.
        stop() { st.stopped = true; clearTimeout(st.timer); if (st.ctl) st.ctl.abort(); },
    };
}
