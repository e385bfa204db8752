// Which elements of a script-wired structure get a ref: a
// control inside a clickable row, a nested tree item, a suggestion in an autocomplete list, a card
// in a sortable column each get their own ref, and the row, item, list or column keeps its own.
// The outline (content/outline.js) asks three questions of this file while it walks:
//   swallows()      does this target make what is inside it part of itself (a button's spans)?
//   mustDescend()   may a target's content hold targets of its own (so the walk goes in)?
//   keepsOwnRef()   once its content is walked: is a container with targets inside still one itself?
//   nameApart()     its name without its controls' names ("Jane Doe Admin", not "… Delete Jane")
import * as Accname from './accname.js';
import * as Dom from './dom.js';
import * as Roles from './roles.js';

/** @typedef {import('../../types/content').OutlineNode} ONode */

/**
 * Leaf widgets: their name already says what their content says, and what is inside them is part
 * of the same target (a button's icon span, a link's wrapped text). Headings and images too.
 */
const LEAF = new Set(['button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option',
  'heading', 'img', 'textbox', 'searchbox', 'slider', 'spinbutton', 'progressbar', 'meter', 'scrollbar', 'combobox']);

/**
 * Reasons that make an element one target with everything inside it. A listener, a tabindex or
 * draggable does not: rows, columns, trees and lists are wired as a whole and hold controls of
 * their own (an icon button in a row, a card in a column), each a target.
 */
const WHOLE = new Set(['label', 'editable', 'summary', 'pointer']);

/**
 * A script-wired container holding more targets than this is delegation (a framework's root, a
 * feed), not a row or a column the user clicks.
 */
const MAX_INNER_REFS = 20;
/** Structure no clickable row or column holds: a container around it is the page's delegation root. */
const PAGE_PARTS = new Set([...Roles.LANDMARK, 'dialog', 'alertdialog', 'iframe']);

/**
 * Whether an element's content belongs to it as one target, so that listeners, tabindex and
 * cursor:pointer inside it are not targets of their own.
 * @param {string} why the reason it is actionable (content/actionable.js reason()), or 'pointer'
 * @param {string} role
 */
function swallows(why, role) {
  return WHOLE.has(why) || (why === 'role' && LEAF.has(role));
}

/**
 * Whether the walk goes into an element that is shown or actionable (inputs, selects and
 * textareas are never walked into). A leaf widget only when a control stands inside it (a
 * link around a button); any other target always, because listener-wired items, nested tree
 * items and cards are found only by walking (the caller drops the content again when no ref
 * came of it: the element's name says what it says).
 * @param {Element} el @param {string} role @param {string} why
 */
function mustDescend(el, role, why) {
  if (el.shadowRoot) return true;
  if (LEAF.has(role)) return !!el.firstElementChild && controlInside(el);
  return !!why;
}

/** What a user operates (dom.js INTERACTIVE) or a slot, as one selector made once. */
const CONTROL_OR_SLOT = `${Dom.INTERACTIVE},slot`;

/**
 * A control below el, in its light tree or assigned to a slot of its shadow tree: the selector of
 * what a user operates (dom.js INTERACTIVE). Inside a leaf only widget roles can be targets
 * (the leaf swallows listeners), so that selector is the whole test.
 * @param {Element} el
 */
function controlInside(el) {
  const { INTERACTIVE } = Dom;
  // One query answers the common case: neither a control nor a slot inside.
  const first = el.querySelector(CONTROL_OR_SLOT);
  if (!first) return false;
  if (first.localName !== 'slot' || el.querySelector(INTERACTIVE)) return true;
  for (const slot of el.querySelectorAll('slot')) {
    for (const a of /** @type {HTMLSlotElement} */ (slot).assignedElements({ flatten: true })) {
      if (a.matches(INTERACTIVE) || a.querySelector(INTERACTIVE)) return true;
    }
  }
  return false;
}

/**
 * Whether a target whose walked content (out[start…]) holds refs keeps a ref of its own.
 * A cursor:pointer or focusable container around controls is layout (a card around links, a
 * scroll pane): no. A script-wired one (a listener, onclick, draggable) is a row, a tree, a
 * list or a column when it shows something of its own beside its controls (a name, a heading,
 * a cell) and holds a handful of them; one around controls only, or around a landmark or
 * dozens of targets, is delegation (a framework's root, a list routed by one handler): no.
 * @param {string} why @param {boolean} roleShown @param {ONode[]} out @param {number} start
 */
function keepsOwnRef(why, roleShown, out, start) {
  if (why === 'pointer' || why === 'tabindex') return roleShown;
  if (why !== 'listener' && why !== 'draggable') return true;
  const seen = { refs: 0, own: false, page: false };
  for (let i = start; i < out.length; i++) survey(out[i], seen);
  return seen.own && !seen.page && seen.refs <= MAX_INNER_REFS;
}

/**
 * Counts the refs below a node, and notes content outside them and page structure.
 * @param {ONode} n @param {{ refs: number, own: boolean, page: boolean }} seen
 */
function survey(n, seen) {
  if (n.ref) { seen.refs++; if (n.children) for (const c of n.children) countRefs(c, seen); return; }
  if (n.rest || n.summary) return;
  if (n.text) { seen.own = true; return; }
  if (PAGE_PARTS.has(n.role ?? '') || n.frame !== undefined) seen.page = true;
  if (n.name) seen.own = true;
  if (n.children) for (const c of n.children) survey(c, seen);
}

/** @param {ONode} n @param {{ refs: number }} seen */
function countRefs(n, seen) {
  if (n.ref) seen.refs++;
  if (n.children) for (const c of n.children) countRefs(c, seen);
}

/**
 * A target around refs whose name was made of its content (a row's text fallback, a tree item's
 * name from content) names its controls too: "Jane Doe Admin Delete Jane", "Documents Reports
 * Archive". Shown, it is named by what it shows of its own ("Jane Doe Admin", "Documents"), which
 * its text line then no longer repeats; the controls have lines of their own. A name given by the
 * page (aria-label "Cities") names none of its controls and stays. The ref's fingerprint keeps
 * the full name: that is what re-binding computes.
 * @param {ONode} node
 */
function nameApart(node) {
  if (!node.name || node.hint || !node.children?.length) return;
  /** @type {string[]} */
  const inner = [];
  /** @type {string[]} */
  const own = [];
  gather(node.children, inner, own);
  const name = node.name;
  if (!inner.some((n) => n && name.includes(n))) return;
  const apart = Dom.cap(own.join(' '), Accname.NAME_MAX);
  if (apart) node.name = apart;
}

/** The names of the refs below, and the text and names outside them. @param {ONode[]} list @param {string[]} inner @param {string[]} own */
function gather(list, inner, own) {
  for (const n of list) {
    if (n.ref) { inner.push(n.hint ? '' : n.name ?? ''); continue; }
    if (n.text) own.push(n.text);
    else if (n.name && !n.hint) own.push(n.name);
    if (n.children) gather(n.children, inner, own);
  }
}

export { LEAF, swallows, mustDescend, controlInside, keepsOwnRef, nameApart, MAX_INNER_REFS };
