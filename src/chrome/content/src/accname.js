// The accessible name of an element, computed per W3C "Accessible Name and Description
// Computation 1.2" (https://www.w3.org/TR/accname-1.2/#computation-steps) with the HTML-AAM
// rules for native labels. Each branch names the step it implements.
import { clean, hasInk, isHidden, isHiddenSelf, rendering, idrefs, boxAtEdge, cap, treeShadow } from './dom.js';
import { roleOf, implicitRoleOf, NAME_FROM_CONTENT } from './roles.js';

/**
 * @typedef {object} Ctx
 * @property {Set<Node>} visited nodes already in this computation (cycles in aria-labelledby)
 * @property {boolean} inLabelledBy inside an aria-labelledby traversal (step 2B is not re-entered)
 * @property {boolean} includeHidden the traversal started at a hidden node referenced by aria-labelledby (step 2A)
 * @property {boolean} recursing computing a descendant's share of name from content (steps 2F, 2H)
 * @property {boolean} embedded inside the label of another widget (step 2C)
 * @property {boolean} [rootShown] the caller already knows the root is shown (step 2A holds)
 * @property {{ cut: boolean }} [budget] set when name from content stopped early (see TEXT_BUDGET)
 */

/** The longest name the model reads, "…" included (the outline's NAME_MAX). */
const NAME_MAX = 120;
/**
 * Name from content stops collecting once this much raw text is in hand: the name is capped at
 * NAME_MAX anyway, and a clickable card around a long article should not cost a walk of all of it.
 */
const TEXT_BUDGET = 4000;

const RANGE = new Set(['slider', 'spinbutton', 'progressbar', 'scrollbar', 'meter']);
/** Elements whose text is never rendered. */
const NO_TEXT = new Set(['script', 'style', 'noscript', 'template', 'head', 'title', 'meta', 'link']);

/**
 * @param {Element} el
 * @param {{ shown?: boolean, tag?: string, role?: string }} [opts] shown: the caller knows the element is rendered and not aria-hidden (the outline walked down to it);
 *   tag and role: el.localName and roleOf(el), when the caller has them
 * @returns {string}
 */
function name(el, opts = {}) {
  if (opts.shown && textOnly(el, opts.tag ?? el.localName, opts.role)) {
    // The commonest case, a link or button with only text inside: steps 2B-2E have nothing to
    // give, and 2F is the text (generated content is read only for elements without text).
    // Only text nodes: no element boundary inside, so textContent keeps every word apart.
    const text = el.textContent ?? '';
    if (hasInk(text)) return cap(clean(text), NAME_MAX);
  }
  const budget = { cut: false };
  const n = clean(compute(el, { visited: new Set(), inLabelledBy: false, includeHidden: false, recursing: false, embedded: false, rootShown: !!opts.shown, budget }));
  return capped(n, budget.cut);
}

/**
 * The text of an element's content as name from content reads it, whatever its role: words kept
 * apart at box boundaries, hidden descendants left out, descendants' own names (alt, aria-label)
 * used. The fallback name of what has no accessible name (a script-wired card, a label).
 * @param {Element} el @returns {string}
 */
function text(el) {
  const budget = { cut: false };
  const t = clean(fromContent(el, { visited: new Set([el]), inLabelledBy: false, includeHidden: false, recursing: true, embedded: false, budget }));
  return capped(t, budget.cut);
}

/** Capped at NAME_MAX; a text cut short by TEXT_BUDGET says so with "…" too. @param {string} s @param {boolean} cut */
function capped(s, cut) {
  if (!cut || !s) return cap(s, NAME_MAX);
  return s.length < NAME_MAX ? `${s}…` : cap(`${s} …`, NAME_MAX);
}

/** The attributes compute() reads on every element (hidden, role, labels, title). */
const NAMING = '[aria-hidden],[inert],[role],[aria-labelledby],[aria-label],[title]';

/** isHiddenSelf() for an element without aria-hidden or inert: no box, or visibility hidden. @param {Element} el */
function notRendered(el) {
  const r = rendering(el);
  return r === 'none' || r === 'hidden';
}

/** Elements whose name step 2E (a native label, alt, legend, caption, SVG title) can give. */
const NATIVE = new Set(['input', 'textarea', 'select', 'meter', 'progress', 'output', 'button', 'img', 'area', 'fieldset', 'figure', 'table', 'svg', 'slot', 'label']);

/**
 * Named from its content, with nothing but text nodes inside and no ARIA label: its name is its text.
 * @param {Element} el @param {string} tag el.localName @param {string} [role] roleOf(el), when known
 */
function textOnly(el, tag, role = undefined) {
  return !NATIVE.has(tag) && !el.firstElementChild && !el.shadowRoot && el.namespaceURI !== SVG_NS
    && !el.hasAttribute('aria-label') && !el.hasAttribute('aria-labelledby') && NAME_FROM_CONTENT.has(role ?? roleOf(el));
}

/** @param {Node} node @param {Ctx} ctx @param {string} [knownTag] the element's localName, when the caller read it @returns {string} */
function compute(node, ctx, knownTag = undefined) {
  // Step 2G: a text node contributes its text.
  const type = node.nodeType;
  if (type === 3) return /** @type {Text} */ (node).data;
  if (type !== 1) return '';
  const el = /** @type {Element} */ (node);
  if (ctx.visited.has(el)) return '';
  ctx.visited.add(el);
  const tag = knownTag ?? el.localName;
  if (NO_TEXT.has(tag)) return '';
  // Most descendants carry none of the attributes read below: one selector match spares the reads.
  const marked = el.hasAttributes() && el.matches(NAMING);
  if (hiddenHere(el, ctx, marked)) return '';

  const role = marked ? roleOf(el) : implicitRoleOf(el, tag);

  // Step 2B: aria-labelledby, unless already following one (no chains of chains).
  if (!ctx.inLabelledBy && marked) {
    const joined = labelledBy(el);
    if (joined) return joined;
  }

  // Step 2C: an embedded control inside the label of another widget contributes its value.
  if ((ctx.embedded || ctx.recursing) && ctx.visited.size > 1) {
    const value = embeddedValue(el, ctx, role, tag);
    if (value !== null) return value;
  }

  // Step 2D: aria-label (ignored on presentational roles, which carry no name).
  const label = marked ? el.getAttribute('aria-label') : null;
  if (label && label.trim() && role !== 'none') return label;

  // Step 2E: the host language's own label (HTML-AAM accessible name computations).
  if (role !== 'none') {
    const native = nativeName(el, role, ctx, tag);
    if (native) return native;
  }

  // Step 2F: name from content, for roles that allow it, for descendants in a recursion, and
  // for nodes referenced by aria-labelledby or native labels.
  if (NAME_FROM_CONTENT.has(role) || ctx.recursing || tag === 'label') {
    // A tree item is named by its own label, not by the items it holds: an open folder whose
    // children are loading was named "Documents Loading…" (or "Loading…" alone).
    if (role === 'treeitem') for (const g of el.children) if (g.matches(NESTED_ITEMS)) ctx.visited.add(g);
    const text = fromContent(el, ctx, tag);
    if (text.trim()) return text;
  }
  return tooltip(el, ctx, tag, marked);
}

/**
 * Step 2A: hidden and not referenced. A hidden node counts only inside a traversal that started at
 * a hidden node named by aria-labelledby. Descendants met in a recursion only need their own
 * flags: their ancestors were checked.
 * @param {Element} el @param {Ctx} ctx @param {boolean} marked
 */
function hiddenHere(el, ctx, marked) {
  if (ctx.includeHidden || (ctx.rootShown && !ctx.recursing)) return false;
  if (ctx.recursing && ctx.visited.size > 1 && !ctx.inLabelledBy) return marked ? isHiddenSelf(el) : notRendered(el);
  return isHidden(el);
}

/** Step 2B: the names of the elements aria-labelledby names, joined. @param {Element} el @returns {string} */
function labelledBy(el) {
  const refs = idrefs(el, 'aria-labelledby');
  if (!refs.length) return '';
  const parts = refs.map((/** @type {Element} */ r) => clean(compute(r, { visited: new Set(), inLabelledBy: true, includeHidden: isHidden(r), recursing: true, embedded: false })));
  return parts.filter(Boolean).join(' ');
}

/**
 * Step 2C: an embedded control's value: a text field's text, a combobox's or listbox's choice, a
 * range's value; null when el is none of them (or a range says nothing).
 * @param {Element} el @param {Ctx} ctx @param {string} role @param {string} tag @returns {string | null}
 */
function embeddedValue(el, ctx, role, tag) {
  if (role === 'textbox' || role === 'searchbox') {
    if (tag === 'input' || tag === 'textarea') return /** @type {HTMLInputElement} */ (el).value;
    return fromContent(el, ctx, tag);
  }
  if (role === 'combobox' || role === 'listbox') {
    if (tag === 'select') return [.../** @type {HTMLSelectElement} */ (el).selectedOptions].map((o) => o.textContent ?? '').join(' ');
    if (tag === 'input') return /** @type {HTMLInputElement} */ (el).value;
    const selected = el.querySelectorAll('[role=option][aria-selected=true]');
    return [...selected].map((o) => clean(o.textContent)).join(' ');
  }
  if (!RANGE.has(role)) return null;
  const text = el.getAttribute('aria-valuetext');
  if (text) return text;
  const now = el.getAttribute('aria-valuenow');
  if (now) return now;
  return tag === 'input' ? /** @type {HTMLInputElement} */ (el).value : null;
}

/**
 * Step 2I: the tooltip attribute (title), then HTML-AAM's last resort for fields: placeholder.
 * @param {Element} el @param {Ctx} ctx @param {string} tag @param {boolean} marked @returns {string}
 */
function tooltip(el, ctx, tag, marked) {
  const title = marked ? el.getAttribute('title') : null;
  if (title && title.trim()) return title;
  if (!ctx.recursing && (tag === 'input' || tag === 'textarea')) {
    const ph = el.getAttribute('placeholder') ?? el.getAttribute('aria-placeholder');
    if (ph && ph.trim()) return ph;
  }
  if (!ctx.recursing && el.getAttribute('aria-placeholder')) return el.getAttribute('aria-placeholder') ?? '';
  return '';
}

/**
 * Step 2E per element type (HTML-AAM §4.1 "Accessible Name Computations By HTML Element").
 * @param {Element} el @param {string} role @param {Ctx} ctx @param {string} [tag] el.localName @returns {string}
 */
function nativeName(el, role, ctx, tag = el.localName) {
  if (tag === 'input') return inputName(/** @type {HTMLInputElement} */ (el), ctx);
  if (tag === 'textarea' || tag === 'select' || tag === 'meter' || tag === 'progress' || tag === 'output') return labelText(el, ctx);
  // HTML-AAM: button's associated label elements come before its content.
  if (tag === 'button') return labelText(el, ctx);
  if (tag === 'img' || tag === 'area') return el.getAttribute('alt') ?? '';
  if (tag === 'fieldset') return childText(el, 'legend', ctx);
  if (tag === 'figure') return childText(el, 'figcaption', ctx);
  if (tag === 'table') return childText(el, 'caption', ctx) || (el.getAttribute('summary') ?? '');
  // SVG-AAM: the first <title> child.
  if (tag === 'svg' || el.namespaceURI === SVG_NS) {
    const t = [...el.children].find((c) => c.localName === 'title');
    return t ? t.textContent ?? '' : '';
  }
  void role;
  return '';
}

/**
 * Step 2E for an input (HTML-AAM "input type=…" computations).
 * @param {HTMLInputElement} input @param {Ctx} ctx @returns {string}
 */
function inputName(input, ctx) {
  const type = input.type;
  // HTML-AAM "input type=button/submit/reset": the value, else the browser's default label.
  if (type === 'submit' || type === 'reset' || type === 'button') {
    const labels = labelText(input, ctx);
    if (labels) return labels;
    if (input.hasAttribute('value')) return input.value;
    return type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : '';
  }
  // HTML-AAM "input type=image": alt, then value, then title (2I), then "Submit".
  if (type === 'image') {
    const alt = input.getAttribute('alt');
    if (alt && alt.trim()) return alt;
    const value = input.getAttribute('value');
    if (value && value.trim()) return value;
    return input.getAttribute('title') || 'Submit';
  }
  return labelText(input, ctx);
}

/** The text of a labelable element's label elements: label[for] and a wrapping label. @param {Element} el @param {Ctx} ctx */
function labelText(el, ctx) {
  const labels = /** @type {HTMLInputElement} */ (el).labels;
  if (!labels || !labels.length) return '';
  return [...labels].map((l) => clean(compute(l, { visited: new Set([el]), inLabelledBy: ctx.inLabelledBy, includeHidden: ctx.includeHidden, recursing: true, embedded: true }))).filter(Boolean).join(' ');
}

/** What a tree item holds beside its label: its child items. */
const NESTED_ITEMS = '[role=group], [role=tree], ul, ol';

/** @param {Element} el @param {string} tag @param {Ctx} ctx */
function childText(el, tag, ctx) {
  const child = [...el.children].find((c) => c.localName === tag);
  return child ? clean(compute(child, { ...ctx, visited: new Set([el]), recursing: true })) : '';
}

/**
 * Pseudo-element styles are live objects too: kept per element, a later snapshot reads them
 * without asking the browser to parse the pseudo-element and build a new style object.
 * @type {WeakMap<Element, CSSStyleDeclaration>}
 */
const beforeStyles = new WeakMap();
/** @type {WeakMap<Element, CSSStyleDeclaration>} */
const afterStyles = new WeakMap();

/**
 * CSS generated content (accname 1.2 step 2F.i/iii: ::before and ::after). A pseudo-element's
 * style costs as much as the rest of the name, so it is read only for elements without content
 * of their own (see hasContent), where it can be the whole name (icon buttons); icon-font glyphs
 * (Unicode private use area, as Font Awesome draws) say nothing and are dropped.
 * @param {Element} el @param {'::before' | '::after'} which
 */
function generated(el, which) {
  const view = el.ownerDocument.defaultView;
  if (!view || NO_PSEUDO.has(el.localName) || el.namespaceURI === SVG_NS) return '';
  const cache = which === '::before' ? beforeStyles : afterStyles;
  let s = cache.get(el);
  if (!s) { s = view.getComputedStyle(el, which); cache.set(el, s); }
  const content = s.content;
  if (!content || content === 'none' || content === 'normal') return '';
  const m = /^"(.*)"$/.exec(content);
  return m ? m[1].replace(/[\uE000-\uF8FF]/g, '') : '';
}

/**
 * Elements that render no ::before/::after (CSS 2 §12.1: replaced and void elements; SVG content
 * takes no CSS generated content): asking for their pseudo-element style is wasted work.
 */
const NO_PSEUDO = new Set(['img', 'br', 'hr', 'wbr', 'video', 'audio', 'canvas', 'iframe', 'embed', 'object', 'source', 'track', 'area']);
const SVG_NS = 'http://www.w3.org/2000/svg';

/** Text that ends or starts with whitespace: nothing to add at a boundary there. */
const ENDS_BLANK = /[\s\u200b]$/;
const STARTS_BLANK = /^[\s\u200b]/;

/**
 * Step 2F/2H: the names of the flat-tree children (shadow content and slotted nodes included),
 * a word apart where one of two touching runs is a box of its own (block, table cell, flex item,
 * inline-block) as browsers render them; inline elements join ("Sec<b>ret</b>"). The display is
 * asked for only where two runs of ink meet: most boundaries have whitespace already.
 * @param {Element} el @param {Ctx} ctx @param {string} [tag] el.localName
 */
function fromContent(el, ctx, tag = el.localName) {
  // A recursion shares its context (nothing in it changes on the way down).
  const child = ctx.recursing ? ctx : { ...ctx, recursing: true };
  let out = '';
  const shadow = treeShadow(el);
  const assigned = !shadow && tag === 'slot' ? /** @type {HTMLSlotElement} */ (el).assignedNodes() : null;
  // The light children are followed by sibling links: a child list read by index costs two calls per child.
  const kids = shadow ? [...shadow.childNodes] : assigned?.length ? assigned : null;
  /** The element whose text ends `out`, when an element's does. @type {Element | null} */
  let last = null;
  /** Among the light children, an element or text was met (hasContent): then ::before and ::after are not read. */
  let content = false;
  let i = 0;
  for (let kid = kids ? kids[0] : el.firstChild; kid; kid = kids ? kids[++i] : kid.nextSibling) {
    const type = kid.nodeType;
    const box = type === 1 ? /** @type {Element} */ (kid) : null;
    const kidTag = box ? box.localName : '';
    if (box) content = true;
    if (kidTag === 'br') { out += ' '; last = null; continue; }
    const part = compute(kid, child, box ? kidTag : undefined);
    if (!part) continue;
    if (!content && type === 3 && /\S/.test(part)) content = true;
    if (out && apart(out, part, last, box)) out += ' ';
    out += part;
    last = box;
    if (out.length > TEXT_BUDGET) {
      if (ctx.budget) ctx.budget.cut = true;
      return (!kids && content) || hasContent(el) ? out : generated(el, '::before') + out;
    }
  }
  // Met while reading the light children; a shadow root's or a slot's content is not the element's own.
  if (kids ? hasContent(el) : content) return out;
  return generated(el, '::before') + out + generated(el, '::after');
}

/**
 * Whether two touching runs of ink need a space between them: one of the two elements at the
 * boundary is a box of its own.
 * @param {string} out @param {string} part @param {Element | null} last @param {Element | null} box
 */
function apart(out, part, last, box) {
  return !ENDS_BLANK.test(out) && !STARTS_BLANK.test(part) && ((last !== null && boxAtEdge(last, true)) || (box !== null && boxAtEdge(box, false)));
}

/** Whether an element has an element child or text of its own (then its ::before and ::after are not read). @param {Element} el */
function hasContent(el) {
  for (let c = el.firstChild; c; c = c.nextSibling) {
    const type = c.nodeType;
    if (type === 1 || (type === 3 && /\S/.test(/** @type {Text} */ (c).data))) return true;
  }
  return false;
}

/** The description (aria-describedby, else title when the name did not use it). @param {Element} el */
function description(el) {
  const refs = idrefs(el, 'aria-describedby');
  if (refs.length) return clean(refs.map((/** @type {Element} */ r) => compute(r, { visited: new Set([el]), inLabelledBy: true, includeHidden: isHidden(r), recursing: true, embedded: false })).join(' '));
  const desc = el.getAttribute('aria-description');
  return clean(desc);
}

export { name, text, description, NAME_MAX };
