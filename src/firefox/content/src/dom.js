// The DOM toolkit the outline, the names and the actions share: whitespace, visibility, the flat
// tree (shadow roots open and, where the browser lets content scripts see them, closed; slots;
// same-origin frames), hit-testing through shadow roots, and id lookup within an element's own tree.

/** Collapses whitespace the way rendered text does. @param {string | null | undefined} s */
function clean(s) {
  if (!s) return '';
  // Most names and text runs are already clean: test once rather than build two new strings.
  if (!UNCLEAN.test(s)) return s;
  return s.replace(/[\s\u00a0\u200b]+/g, ' ').trim();
}
/** Whitespace clean() would change: any but a single inner space, or a space at either end. */
const UNCLEAN = /[^\S ]|\u200b| {2}|^ | $/;
/** A character that renders as ink: what clean() keeps (its whitespace class, negated). */
const INK = /[^\s\u00a0\u200b]/;

/** Whether clean() would leave anything of the string, without building the cleaned copy. @param {string} s */
function hasInk(s) {
  return INK.test(s);
}

/**
 * Computed styles are live objects, so one per element serves every later read; asking the
 * browser for a new one each time allocated a wrapper per call (a pass reads an element's style
 * up to four times: rendering, its children's cursor, its share of a name).
 * @type {WeakMap<Element, CSSStyleDeclaration>}
 */
const styles = new WeakMap();
/** Browsers have checkVisibility() and live computed styles; jsdom has neither. */
const LIVE = typeof globalThis.Element === 'function' && typeof Element.prototype.checkVisibility === 'function';

/** @param {Element} el @returns {CSSStyleDeclaration | null} */
function style(el) {
  let s = styles.get(el);
  if (s) return s;
  const view = el.ownerDocument.defaultView;
  if (!view) return null;
  s = view.getComputedStyle(el);
  // jsdom (unit tests) returns a snapshot, not a live object: never reuse it there.
  if (LIVE) styles.set(el, s);
  return s;
}

/**
 * No box at all (display:none on it or an ancestor, or not rendered). display:contents has no
 * box either but its children render, so it does not count as hidden here.
 * @param {Element} el
 */
function noBox(el) {
  if (el.hasAttribute('hidden') && !el.hasAttribute('hidden-until-found')) {
    const s = style(el);
    return !s || s.display === 'none';
  }
  if (typeof el.checkVisibility === 'function') {
    if (el.checkVisibility()) return false;
    const s = style(el);
    return !s || s.display !== 'contents';
  }
  // jsdom has no layout: walk the computed display up the flat tree.
  for (let e = /** @type {Element | null} */ (el); e; e = parentOf(e)) {
    if (e.hasAttribute('hidden')) return true;
    const s = style(e);
    if (s && s.display === 'none') return true;
  }
  return false;
}

/**
 * checkVisibility() options, made once: the browser converts the options dictionary on every
 * call, and a literal built per call doubled the cost of the check on real pages.
 */
const VISIBILITY = Object.freeze({ visibilityProperty: true });

/**
 * How an element renders, as cheaply as the browser allows: checkVisibility() answers from
 * layout without building a style object, which matters on pages with 20 000 elements.
 * 'none': no box here or above; 'contents': no box of its own but its children render;
 * 'hidden': visibility hidden/collapse (children may override); 'visible'.
 * @param {Element} el @returns {'visible' | 'hidden' | 'none' | 'contents'}
 */
function rendering(el) {
  if (typeof el.checkVisibility === 'function') {
    if (el.checkVisibility(VISIBILITY)) return 'visible';
    const s = style(el);
    if (!s) return 'none';
    if (s.display === 'contents') return 'contents';
    if (!el.checkVisibility()) return 'none';
    return 'hidden';
  }
  if (noBox(el)) return style(el)?.display === 'contents' ? 'contents' : 'none';
  const v = style(el)?.visibility;
  return v === 'hidden' || v === 'collapse' ? 'hidden' : 'visible';
}

/**
 * Hidden for a node reached by descending from a node known to be shown: only its own
 * aria-hidden, inert and rendering matter (the ancestors were checked on the way down).
 * @param {Element} el
 */
function isHiddenSelf(el) {
  if (el.getAttribute('aria-hidden') === 'true' || el.hasAttribute('inert')) return true;
  const r = rendering(el);
  return r === 'none' || r === 'hidden';
}

/**
 * Hidden from the accessibility tree (wai-aria 1.2 §8.1 "Excluding Elements from the
 * Accessibility Tree"): no box, visibility hidden/collapse, aria-hidden="true" on it or an
 * ancestor, or inert.
 * @param {Element} el
 */
function isHidden(el) {
  const r = rendering(el);
  if (r === 'none' || r === 'hidden') return true;
  for (let e = /** @type {Element | null} */ (el); e; e = parentOf(e)) {
    if (e.getAttribute('aria-hidden') === 'true' || e.hasAttribute('inert')) return true;
  }
  return false;
}

/** The parent in the flat tree: across shadow roots to their host. @param {Element} el */
function parentOf(el) {
  const slot = slotOf(el);
  if (slot) return slot;
  if (el.parentElement) return el.parentElement;
  const root = el.parentNode;
  return root && /** @type {ShadowRoot} */ (root).host ? /** @type {ShadowRoot} */ (root).host : null;
}

/**
 * Children in the flat tree: an open shadow root's children instead of the light ones, a slot's
 * assigned nodes (or its fallback content), a same-origin iframe's body.
 * @param {Node} node @returns {Node[]}
 */
function childrenOf(node) {
  if (node.nodeType !== 1) return [...node.childNodes];
  const el = /** @type {Element} */ (node);
  const shadow = treeShadow(el);
  if (shadow) return [...shadow.childNodes];
  if (el.localName === 'slot') {
    const assigned = /** @type {HTMLSlotElement} */ (el).assignedNodes();
    return assigned.length ? assigned : [...el.childNodes];
  }
  if (el.localName === 'iframe' || el.localName === 'frame') {
    const doc = sameOriginDocument(el);
    return doc?.body ? [doc.body] : [];
  }
  return [...el.childNodes];
}

/** The document of a same-origin frame, or null when the frame is cross-origin or empty. @param {Element} el */
function sameOriginDocument(el) {
  try {
    const doc = /** @type {HTMLIFrameElement} */ (el).contentDocument;
    return doc && doc.body ? doc : null;
  } catch { return null; }
}

/** Looks an id up in the element's own tree (document or shadow root), as IDREFs do. @param {Element} el @param {string} id */
function byId(el, id) {
  const root = /** @type {Document | ShadowRoot} */ (el.getRootNode());
  return root.getElementById ? root.getElementById(id) : el.ownerDocument.getElementById(id);
}

/** @param {Element} el @param {string} attr @returns {Element[]} */
function idrefs(el, attr) {
  const v = el.getAttribute(attr);
  if (!v) return [];
  return /** @type {Element[]} */ (v.split(/\s+/).filter(Boolean).map((id) => byId(el, id)).filter(Boolean));
}

/**
 * The slot a node is shown in. assignedSlot answers null for a slot in a closed root, so a
 * custom element's closed root is searched for the slot by name (its switch labels were the
 * slotted text, and a click on them read as covered).
 * @param {Element | Text} node @returns {HTMLSlotElement | null}
 */
function slotOf(node) {
  if (node.assignedSlot) return node.assignedSlot;
  const host = node.parentElement;
  if (!host || host.shadowRoot || !host.localName.includes('-')) return null;
  const root = shadowOf(host);
  if (!root) return null;
  const name = node.nodeType === 1 ? /** @type {Element} */ (node).getAttribute('slot') ?? '' : '';
  for (const slot of root.querySelectorAll('slot')) if ((slot.getAttribute('name') ?? '') === name) return /** @type {HTMLSlotElement} */ (slot);
  return null;
}

/**
 * The shadow root the outline and names go through: an open one, or a custom element's closed
 * one (content scripts may read it; a component's closed switches were otherwise never listed).
 * Only custom elements are asked for a closed root: nearly every closed root is a component's,
 * and the walk reads this for every element.
 * @param {Element} el @returns {ShadowRoot | null}
 */
function treeShadow(el) {
  return el.shadowRoot ?? (el.localName.includes('-') ? shadowOf(el) : null);
}

/** A shadow root, open or closed: content scripts may see closed ones (Firefox openOrClosedShadowRoot, Chrome chrome.dom). @param {Element} el @returns {ShadowRoot | null} */
function shadowOf(el) {
  const any = /** @type {any} */ (el);
  if (any.openOrClosedShadowRoot !== undefined) return any.openOrClosedShadowRoot ?? null;
  const dom = /** @type {any} */ (globalThis).chrome?.dom;
  if (dom?.openOrClosedShadowRoot && el instanceof HTMLElement) { try { return dom.openOrClosedShadowRoot(el); } catch { return null; } }
  return el.shadowRoot;
}

/**
 * Every element under root, through shadow roots, in document order (an element, then its shadow
 * tree, then its light children). Iterative: pages nest shadow roots deeper than a recursion likes.
 * @param {Document | ShadowRoot | Element} root @returns {Generator<Element>}
 */
function* deepElements(root) {
  /** @type {Element[]} */
  const stack = [...root.children].reverse();
  while (stack.length) {
    const el = /** @type {Element} */ (stack.pop());
    yield el;
    for (let i = el.children.length - 1; i >= 0; i--) stack.push(el.children[i]);
    const sr = shadowOf(el);
    if (sr) for (let i = sr.children.length - 1; i >= 0; i--) stack.push(sr.children[i]);
  }
}

/** Deeper than any real page nests shadow roots (a design system's components inside components), to stop a cycle. */
const MAX_SHADOW_DEPTH = 1000;

/** The topmost element at a viewport point, descending into shadow roots. @param {number} x @param {number} y */
function deepElementFromPoint(x, y) {
  let el = document.elementFromPoint(x, y);
  for (let i = 0; el && i < MAX_SHADOW_DEPTH; i++) {
    const sr = shadowOf(el);
    const inner = sr?.elementFromPoint(x, y);
    if (!inner || inner === el) break;
    el = inner;
  }
  return el;
}

/**
 * Containment in the flat tree: across shadow boundaries, and through slots (slotted light content
 * is inside the shadow element that shows it, a button around a <slot> included).
 * @param {Element} outer @param {Element | null} inner
 */
function composedContains(outer, inner) {
  for (let n = /** @type {Node | null} */ (inner); n; ) {
    if (n === outer) return true;
    n = slotOf(/** @type {Element | Text} */ (n)) ?? n.parentNode ?? (n instanceof ShadowRoot ? n.host : null);
    if (n instanceof ShadowRoot) n = n.host;
  }
  return false;
}

/**
 * Display types whose content runs on in the line of its neighbours, so their text joins the
 * text beside it without a space ("Sec<b>ret</b>" reads "Secret"). Any other type (block,
 * list-item, table-cell, flex, inline-block…) is a box of its own, set apart from what is beside it.
 */
const FLOWS_INLINE = new Set(['inline', 'ruby', 'ruby-base', 'ruby-text']);
/** Phrasing tags that are inline in practice: answered without asking for their style. */
const INLINE_TAGS = new Set(['b', 'strong', 'em', 'u', 's', 'sub', 'sup', 'abbr', 'q', 'cite', 'var', 'bdi', 'bdo', 'data', 'font', 'wbr', 'small', 'mark', 'del', 'ins']);
/** Boxes by the user-agent stylesheet: the answer when there is no computed style (a detached element). */
const BLOCK_TAGS = new Set(['address', 'article', 'aside', 'blockquote', 'caption', 'center', 'dd', 'details', 'dialog', 'div', 'dl', 'dt', 'fieldset',
  'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup', 'hr', 'legend', 'li', 'main', 'menu', 'nav',
  'ol', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul', 'button', 'select', 'textarea', 'input']);
/** Containers whose children are boxes whatever their own display (CSS Display 3 §2.7 "blockification"). */
const BLOCKIFIES = /^(inline-)?(flex|grid)$/;

/**
 * Whether an element renders as a box of its own (block, list item, table cell, flex or grid
 * item, inline-block), so that its text is a word apart from the text beside it. Callers ask only
 * where two runs of text meet without whitespace: most boundaries need no style at all.
 * @param {Element} el @returns {boolean}
 */
function blockish(el) {
  const tag = el.localName;
  // Inline unless a flex or grid container makes it an item: the parent's style is shared by its
  // children (and cached), so a run of <b>, <em>… costs one look at most.
  if (INLINE_TAGS.has(tag)) return blockifiedIn(el);
  const display = style(el)?.display;
  // No style (a detached element) or none (hidden content that aria-labelledby reads): the tag's default.
  if (!display || display === 'none') return BLOCK_TAGS.has(tag);
  // No box of its own: its first or last child stands at the boundary.
  if (display === 'contents') {
    const first = el.firstElementChild, last = el.lastElementChild;
    return !!first && (blockish(first) || (last !== first && !!last && blockish(last)));
  }
  if (!FLOWS_INLINE.has(display)) return true;
  // Browsers compute a flex or grid item's display as blockified already; jsdom does not.
  return !LIVE && blockifiedIn(el);
}

/**
 * Whether a box boundary stands at the start (or the end) of an element's content: the element
 * is a box itself, or its first (last) child with ink is an element for which this holds. A block
 * inside an inline wrapper (<a><span><div>Title</div></span>…) still breaks the line.
 * @param {Element} el @param {boolean} end
 */
function boxAtEdge(el, end) {
  for (let e = /** @type {Element | null} */ (el), depth = 0; e && depth < 6; depth++) {
    if (blockish(e)) return true;
    let c = end ? e.lastChild : e.firstChild;
    // Whitespace and comments render nothing at the edge.
    while (c && (c.nodeType === 8 || (c.nodeType === 3 && !hasInk(/** @type {Text} */ (c).data)))) c = end ? c.previousSibling : c.nextSibling;
    e = c && c.nodeType === 1 ? /** @type {Element} */ (c) : null;
  }
  return false;
}

/**
 * What a user operates: the one selector for "is there a control here" (input's text search, the
 * budget's counts, whether the outline walks into a leaf widget: content/ref-rule.js). The widget
 * roles (roles.js WIDGET), native controls, focusable and editable elements. Script-wired ones
 * (listeners, onclick) are not in it: inside a leaf they are part of the leaf, and elsewhere the
 * outline finds them by walking.
 */
const INTERACTIVE = ['a[href]', 'button', 'input', 'select', 'textarea', 'summary', '[tabindex]', '[contenteditable=""]', '[contenteditable=true]',
  ...['button', 'link', 'option', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'tab', 'checkbox', 'radio', 'switch', 'combobox', 'listbox',
    'textbox', 'searchbox', 'slider', 'spinbutton', 'treeitem', 'gridcell'].map((r) => `[role=${r}]`)].join(',');
/** The element's box when it has one and shows (for acting on it), else null. @param {Element} el */
function visibleBox(el) {
  const r = el.getBoundingClientRect();
  if (r.width <= 0 || r.height <= 0) return null;
  const s = style(el);
  if (!s) return null;
  if (s.visibility === 'hidden' || s.display === 'none') return null;
  return r;
}

/** Whether the element is a flex or grid item. @param {Element} el */
function blockifiedIn(el) {
  const parent = parentOf(el);
  return !!parent && BLOCKIFIES.test(style(parent)?.display ?? '');
}

/**
 * A string cut to at most max characters, the last of them "…" when cut. The cut falls after
 * the last whole word when one ends near the limit (within a fifth of it), so a name does not
 * end on half a word; a surrogate pair is never split.
 * @param {string} s @param {number} max
 */
function cap(s, max) {
  if (s.length <= max) return s;
  let end = max - 1;
  if (/[\ud800-\udbff]/.test(s[end - 1])) end--;
  let cut = s.slice(0, end);
  const space = cut.lastIndexOf(' ');
  if (space >= max * 0.8) cut = cut.slice(0, space);
  return `${cut.replace(/[\s,;:\-\u2013\u2014]+$/, '')}…`;
}

export { clean, hasInk, style, noBox, rendering, isHidden, isHiddenSelf, parentOf, childrenOf, sameOriginDocument, byId, idrefs,
  shadowOf, treeShadow, deepElements, deepElementFromPoint, composedContains, visibleBox, INTERACTIVE, blockish, boxAtEdge, cap };
