// options.js: a ruleset's options as form controls (the new-game form and the play-now
// form share them), each with its words and a sentence saying what it does: a boolean a
// checkbox, a string a menu of its values, an array (the expansions of classic) a checkbox
// per member, sent as a list. Options that depend on another are kept consistent in the
// form (the server would refuse the mix anyway): `inn_cathedral_final` only with Inns &
// Cathedrals, Traders & Builders not with the original edition.
import { field, h } from './dom.js';
import { t } from './i18n.js';

// A short explanation under a control, tied to it by aria-describedby.
const help = (id, text) => h('span', { id, class: 'muted help' }, text);

// The controls of ruleset `rs`'s options into `box` (ids prefixed with `prefix`).
export function optionControls(rs, box, prefix = 'opt') {
    box.replaceChildren();
    const options = (rs && rs.options) || [];
    for (const o of options) {
        const id = `${prefix}-${o.name}`;
        const helpId = id + '-help';
        if (o.type === 'array') {
            const chosen = new Set(o.default || []);
            box.append(h('fieldset', { class: 'optset', 'data-opt-array': o.name, id },
                h('legend', {}, t('opt_' + o.name)),
                (o.values || []).map((v) => h('div', { class: 'row' },
                    h('input', { type: 'checkbox', id: `${id}-${v}`, value: v, checked: chosen.has(v),
                        'aria-describedby': `${id}-${v}-help` }),
                    h('label', { for: `${id}-${v}` }, t('val_' + v)),
                    help(`${id}-${v}-help`, t('val_' + v + '_help'))))));
            continue;
        }
        const ctl = o.type === 'boolean'
            ? h('input', { type: 'checkbox', id, 'data-opt': o.name, checked: !!o.default, 'aria-describedby': helpId })
            : h('select', { id, 'data-opt': o.name, 'aria-describedby': helpId },
                (o.values || []).map((v) => h('option', { value: v, selected: v === o.default }, t('val_' + v))));
        box.append(field(id, t('opt_' + o.name), ctl, t('opt_' + o.name + '_help')));
    }
    if (!options.length) box.append(h('p', { class: 'muted' }, t('no_options')));
    const sync = () => syncOptions(box);
    box.addEventListener('change', sync);
    sync();
}

// Disables what the other choices rule out (and unticks or resets it).
function syncOptions(box) {
    const edition = box.querySelector('[data-opt="edition"]');
    const traders = box.querySelector('[data-opt-array="expansions"] input[value="traders"]');
    const inns = box.querySelector('[data-opt-array="expansions"] input[value="inns"]');
    const final = box.querySelector('[data-opt="inn_cathedral_final"]');
    if (edition && traders) {
        traders.disabled = edition.value === 'original';
        if (traders.disabled) traders.checked = false;
    }
    if (final) {
        final.disabled = !(inns && inns.checked);
        if (final.disabled) final.value = 'zero';
    }
}

// The options as the API takes them: {name: value}, an array option as its ticked members.
export function readOptions(box) {
    const out = {};
    for (const c of box.querySelectorAll('[data-opt]')) out[c.dataset.opt] = c.type === 'checkbox' ? c.checked : c.value;
    for (const set of box.querySelectorAll('[data-opt-array]')) {
        out[set.dataset.optArray] = [...set.querySelectorAll('input:checked')].map((c) => c.value);
    }
    return out;
}
