// The options of a native <select>, as the outline writes them after its line: the model
// sees what it may choose without opening the list, in a few tokens.
//   - combobox "Size" value="M" [e4] options: S | M [selected] | L | XL [disabled]
//   - combobox "Country" value="Portugal" [e5] options: Austria | Belgium | (eight more) | … | Portugal [selected] | +14 more (select_option takes any label)
// The first MAX_SHOWN options, and every selected one after them; an optgroup's label stands before
// its first option shown ("Fruit: Apple | Pear"); a disabled group is marked once, on its label.
// A secret field's (content/secrets.js) selection is not marked: that would tell its value.
// Needs content/dom.js, secrets.js.
import * as Dom from './dom.js';
import * as Secrets from './secrets.js';

/** Options shown before "+N more": a country or a year list is a name away in select_option. */
const MAX_SHOWN = 10;
/** An option label longer than this is cut with "…" (labels are short; the odd one is a sentence). */
const LABEL_MAX = 40;

/**
 * The options part of a select's line, '' for a select without options.
 * @param {HTMLSelectElement} select @returns {string}
 */
function line(select) {
  const options = select.options;
  if (!options.length) return '';
  const secret = Secrets.isSecretField(select) ?? false;
  /** @type {string[]} */
  const parts = [];
  /** @type {Element | null} */
  let group = null;
  let shown = 0;
  for (let i = 0; i < options.length; i++) {
    const o = options[i];
    const selected = o.selected && !secret;
    if (i >= MAX_SHOWN && !selected) continue;
    if (shown !== i) parts.push('…');
    const g = o.parentElement?.localName === 'optgroup' ? o.parentElement : null;
    parts.push(item(o, g !== group ? g : null, selected));
    group = g;
    shown = i + 1;
  }
  const more = options.length - parts.filter((p) => p !== '…').length;
  if (more > 0) parts.push(`+${more} more (select_option takes any label)`);
  return parts.join(' | ');
}

/**
 * One option: its label, states, and its group's label before it when it opens a group.
 * @param {HTMLOptionElement} o @param {Element | null} opens the optgroup it is the first shown of
 * @param {boolean} selected
 */
function item(o, opens, selected) {
  const groupOff = !!opens && /** @type {HTMLOptGroupElement} */ (opens).disabled;
  let s = Dom.cap(Dom.clean(o.label), LABEL_MAX) || '(empty)';
  if (selected) s += ' [selected]';
  // In a disabled group every option is disabled: the group's mark says it once.
  if (o.disabled && !(o.parentElement?.localName === 'optgroup' && /** @type {HTMLOptGroupElement} */ (o.parentElement).disabled)) s += ' [disabled]';
  if (opens) s = `${Dom.cap(Dom.clean(opens.getAttribute('label')), LABEL_MAX)}${groupOff ? ' [disabled]' : ''}: ${s}`;
  return s;
}

export { line, MAX_SHOWN };
