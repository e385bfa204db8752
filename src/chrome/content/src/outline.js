// The page outline the model reads: one line per meaningful node, indented; role, accessible
// name, states and a ref on every actionable element. Built in small passes: walk (the flat tree
// into outline nodes, generics dissolved), tidy (merge text, fold single-child wrappers and table
// rows, drop text that repeats a name), filter (interactive-only), render (lines, maxChars).
// Its size is the one budget's (content/outline-budget.js).
import { tw } from './tabwright.js';
import { clean, hasInk, childrenOf } from './dom.js';
import { roleOf, WIDGET, LANDMARK, implicitRole } from './roles.js';
import * as Accname from './accname.js';
import * as A from './actionable.js';
import * as Dom from './dom.js';
import * as Frames from './frames.js';
import * as L from './line-states.js';
import * as Listeners from './listeners.js';
import * as B from './outline-budget.js';
import * as RR from './ref-rule.js';
import * as R from './refs.js';
import * as S from './secrets.js';
import * as SelectOptions from './select-options.js';

/** @typedef {import('../../types/content').OutlineNode} ONode */

/** Roles with a line of their own; any other role is transparent (its children move up). */
const SHOWN = new Set([...WIDGET, ...LANDMARK, 'heading', 'img', 'list', 'listitem', 'table', 'row', 'cell', 'columnheader', 'rowheader', 'dialog', 'alertdialog', 'alert',
  'radiogroup', 'tablist', 'menu', 'menubar', 'tree', 'grid', 'treegrid', 'toolbar', 'progressbar', 'meter', 'iframe', 'group', 'tabpanel']);
/** Shown only when named: unnamed they are layout, not structure. */
const NAMED_ONLY = new Set(['group', 'tabpanel', 'region', 'form', 'img', 'toolbar']);
/** Elements never rendered as content. */
const SKIP = new Set(['script', 'style', 'noscript', 'template', 'head', 'meta', 'link', 'title', 'base', 'datalist']);
/** Elements whose content is not among their children: frames hold a document, a canvas draws, a slot shows what is assigned to it. */
const HAS_CONTENT_ELSEWHERE = new Set(['iframe', 'frame', 'canvas', 'object', 'embed', 'slot']);
/** Elements the walk treats apart from their child nodes (frames, slots, fields, SVG). */
const OWN_WALK = new Set([...HAS_CONTENT_ELSEWHERE, 'svg', 'select', 'textarea', 'input']);
const TEXT_MAX = 200;
const NAME_MAX = 120;

/**
 * What the walk carries down: a class, so that every context of every snapshot has one shape.
 * A context written as an object literal in a function that runs once per snapshot (and a spread
 * copy of it) got a shape the garbage collector could drop between snapshots; each new shape sent
 * the compiled walk back to the interpreter, and on real pages the walk stayed uncompiled for five
 * or more snapshots. The spend and each outline node are made the same way for the same reason.
 */
class WalkCtx {
  /**
   * @param {WeakSet<Element>} listeners
   * @param {boolean} insideAction
   * @param {string} landmark
   * @param {boolean} viewportOnly opts.viewportOnly (the walk never reads the caller's object, whose shape is the caller's)
   * @param {string | undefined} nonce opts.nonce
   * @param {{ above: number, below: number }} offscreen
   * @param {boolean} textHidden visibility:hidden ancestor (its text is not rendered, visible children are)
   * @param {boolean} labelText inside a label whose text already names its control
   * @param {import('../../types/content').OutlineSpend} spend the output budget the walk may still spend
   * @param {Set<Element>} focused the focused element of each document walked (read once per pass, not per line)
   */
  constructor(listeners, insideAction, landmark, viewportOnly, nonce, offscreen, textHidden, labelText, spend, focused) {
    this.listeners = listeners;
    this.insideAction = insideAction;
    this.landmark = landmark;
    this.viewportOnly = viewportOnly;
    this.nonce = nonce;
    this.offscreen = offscreen;
    this.textHidden = textHidden;
    this.labelText = labelText;
    this.spend = spend;
    this.focused = focused;
  }

  /**
   * The context of an element's children: this one when nothing changes (most elements).
   * @param {string} landmark @param {boolean} textHidden @param {boolean} insideAction @param {boolean} labelText @returns {WalkCtx}
   */
  child(landmark, textHidden, insideAction, labelText) {
    if (landmark === this.landmark && textHidden === this.textHidden && insideAction === this.insideAction && labelText === this.labelText) return this;
    return new WalkCtx(this.listeners, insideAction, landmark, this.viewportOnly, this.nonce, this.offscreen, textHidden, labelText, this.spend, this.focused);
  }
}
/**
 * @typedef {object} BuildOpts
 * @property {number} [maxChars]
 * @property {boolean} [interactiveOnly]
 * @property {boolean} [viewportOnly]
 * @property {string} [ref] outline only the subtree under this ref
 * @property {number} [from] with ref: only its children from this index on (a "rest" line's follow-up)
 * @property {number} [to] with from: up to this index, not included
 * @property {string} [nonce] the snapshot's frame-introduction nonce (content/frames.js)
 * @property {number} [frameId]
 */

/**
 * Appends the outline nodes for a node to `out`. Children are walked straight into `out` and
 * spliced off only when their element gets a line of its own: most elements are transparent,
 * and an array per element was a tenth of the build time in garbage collection. The steps are
 * plain functions of their own, never closures made per node: a new closure starts without the
 * compiled code and type feedback of the last one.
 * @param {Node} node @param {WalkCtx} ctx @param {ONode[]} out
 */
function walk(node, ctx, out) {
  // Past the budget every node is only counted, into a line naming the call that shows it.
  if (B.spent(ctx.spend)) { B.skip(node, out, ctx.spend); return; }
  if (node.nodeType === 3) { walkText(/** @type {Text} */ (node), ctx, out); return; }
  if (node.nodeType !== 1) return;
  const el = /** @type {Element} */ (node);
  // Read once: every DOM property read crosses into the browser.
  const tag = el.localName;
  if (SKIP.has(tag)) return;
  const marked = A.marked(el);
  // wai-aria §8.1: aria-hidden and inert subtrees are out of the accessibility tree.
  if (marked && outOfTree(el)) return;
  const first = el.firstChild;
  const shadow = Dom.treeShadow(el);
  if (!first && !shadow && addsNothing(el, tag, marked, ctx)) return;
  const role = A.roleFor(el, marked, tag);
  const reason = A.reason(el, role, ctx, marked, tag);
  if (!reason && !shadow && plainWrapper(el, tag, role, ctx)) walkWrapper(el, tag, first, ctx, out);
  else walkShown(el, tag, role, reason, first, shadow, ctx, out);
}

/** A text node outside a wrapper's own loop (walkWrapper): shown unless hidden or a label's. @param {Text} node @param {WalkCtx} ctx @param {ONode[]} out */
function walkText(node, ctx, out) {
  if (ctx.textHidden || ctx.labelText) return;
  // Most text nodes are the whitespace between tags: test before building a cleaned copy.
  const data = node.data;
  if (!hasInk(data)) return;
  ctx.spend.chars += Math.min(data.length, TEXT_MAX);
  out.push({ text: clean(data) });
}

/** aria-hidden="true" or inert (asked only of elements with attributes, A.marked). @param {Element} el */
function outOfTree(el) {
  return el.getAttribute('aria-hidden') === 'true' || el.hasAttribute('inert');
}

/**
 * An empty element with no role and no reason to act on it can add nothing (spacers, icon
 * fonts, layout shims are a fifth of real pages): skipped before asking for its rendering.
 * @param {Element} el @param {string} tag @param {boolean} marked @param {WalkCtx} ctx
 */
function addsNothing(el, tag, marked, ctx) {
  return !HAS_CONTENT_ELSEWHERE.has(tag) && !(marked && el.hasAttribute('role')) && !implicitRole(el, tag) && !A.reason(el, '', ctx, marked, tag);
}

/**
 * A plain element (no reason, no line of its own, no shadow root, not where a pointer target
 * starts): most elements of real pages are such wrappers. The cursor is asked last, and only
 * outside an action.
 * @param {Element} el @param {string} tag @param {string} role @param {WalkCtx} ctx
 */
function plainWrapper(el, tag, role, ctx) {
  return !SHOWN.has(role) && !OWN_WALK.has(tag) && !ctx.viewportOnly && (ctx.insideAction || !A.pointerStart(el));
}

/**
 * A plain element is looked at only when it has text of its own to show: each element below
 * looks at itself, and checkVisibility() answers for the ancestors too (display:none above
 * hides, visibility is inherited).
 * @param {Element} el @param {string} tag @param {ChildNode | null} first @param {WalkCtx} ctx @param {ONode[]} out
 */
function walkWrapper(el, tag, first, ctx, out) {
  const labelText = ctx.labelText || (tag === 'label' && labelsShownControl(el));
  const childCtx = ctx.child(ctx.landmark, ctx.textHidden, ctx.insideAction, labelText);
  /** Whether its own text shows: not looked at yet (null), then true or false. @type {boolean | null} */
  let shows = null;
  for (let c = first; c; c = c.nextSibling) {
    if (c.nodeType !== 3) { walk(c, childCtx, out); continue; }
    if (ctx.spend.stopped) { B.skip(c, out, ctx.spend); continue; }
    const data = /** @type {Text} */ (c).data;
    if (labelText || !hasInk(data)) continue;
    if (shows === null) {
      const r = Dom.rendering(el);
      // No box: nothing below showed anything either (each looked at itself).
      if (r === 'none') return;
      shows = !textHiddenBy(el, r);
    }
    if (shows) { ctx.spend.chars += Math.min(data.length, TEXT_MAX); out.push({ text: clean(data) }); }
  }
}

/**
 * An element that may have a line of its own: rendered, in the viewport when asked; its children
 * walked with the context they inherit, then its line made or the children left in place.
 * @param {Element} el @param {string} tag @param {string} role @param {string} reason
 * @param {ChildNode | null} first @param {ShadowRoot | null} shadow @param {WalkCtx} ctx @param {ONode[]} out
 */
function walkShown(el, tag, role, reason, first, shadow, ctx, out) {
  const rendering = Dom.rendering(el);
  if (rendering === 'none') return;
  const textHidden = textHiddenBy(el, rendering);
  if (ctx.viewportOnly && offscreen(el, ctx)) return;
  const why = textHidden ? '' : reason;
  const roleShown = SHOWN.has(role) && !textHidden;
  const pointer = pointerLeaf(el, role, why, ctx.insideAction, textHidden);
  const landmark = LANDMARK.has(role) ? `${role}:${Accname.name(el)}` : ctx.landmark;
  // Inside a leaf target (a button, a pointer card) nothing else is one; inside a wired row or column the controls are.
  const insideAction = ctx.insideAction || pointer || (!!why && RR.swallows(why, role));
  const labelText = ctx.labelText || (tag === 'label' && labelsShownControl(el));
  // Most elements change nothing for their children: they share the context.
  const childCtx = ctx.child(landmark, textHidden, insideAction, labelText);
  if (tag === 'svg' || tag === 'iframe' || tag === 'frame' || tag === 'canvas') { walkOwnContent(el, tag, role, why, roleShown, ctx, childCtx, out); return; }
  const descent = descentOf(el, tag, role, why, roleShown);
  const start = out.length;
  // A target that is not a leaf is walked to find the targets inside it; with none, its name says it all.
  const spent = descent && why && !RR.LEAF.has(role) ? { chars: ctx.spend.chars, lines: ctx.spend.lines, stopped: ctx.spend.stopped } : null;
  if (descent) {
    if (shadow || tag === 'slot') {
      for (const child of childrenOf(el)) walk(child, childCtx, out);
    } else {
      for (let c = first; c; c = c.nextSibling) walk(c, childCtx, out);
    }
  }
  if (spent && !anyRef(out, start)) { out.length = start; Object.assign(ctx.spend, spent); }
  lineFor(el, tag, role, pointer ? 'pointer' : why, roleShown, descent === NAMED_BY_CHILDREN, ctx, out, start);
}

/**
 * cursor:pointer leaves: a click target that only CSS marks (cards, custom menus). The cursor
 * first: most elements have none set, and that answer is cheaper than a look at the children.
 * @param {Element} el @param {string} role @param {string} why @param {boolean} insideAction @param {boolean} textHidden
 */
function pointerLeaf(el, role, why, insideAction, textHidden) {
  if (why || WIDGET.has(role) || LANDMARK.has(role) || insideAction || textHidden) return false;
  return A.pointerStart(el) && hasOwnContent(el);
}

/**
 * The elements whose content is not their child nodes: an SVG drawing (a line only when it has
 * a role or a reason), a frame (its document, or the frame id its own script answers for), a
 * canvas (its fallback controls).
 * @param {Element} el @param {string} tag @param {string} role @param {string} why @param {boolean} roleShown
 * @param {WalkCtx} ctx @param {WalkCtx} childCtx @param {ONode[]} out
 */
function walkOwnContent(el, tag, role, why, roleShown, ctx, childCtx, out) {
  if (tag === 'svg') {
    if (roleShown || why) out.push(makeNode(el, role, why, ctx, [], tag));
    return;
  }
  if (tag === 'iframe' || tag === 'frame') { out.push(frameNode(el, ctx, childCtx)); return; }
  const kids = fallbackOf(el, ctx);
  if (roleShown || why) out.push(makeNode(el, role, why, ctx, kids, tag)); else out.push(...kids);
}

/** descentOf's answers: walk the children, and also take the name from them (a heading). */
const DESCEND = 1;
const NAMED_BY_CHILDREN = 2;

/**
 * Whether an element's children are walked (0: no; fields never are). A leaf's name says what
 * its content says, unless the content holds more controls.
 * @param {Element} el @param {string} tag @param {string} role @param {string} why @param {boolean} roleShown
 * @returns {0 | 1 | 2}
 */
function descentOf(el, tag, role, why, roleShown) {
  if (tag === 'select' || tag === 'textarea' || tag === 'input') return 0;
  if (!((roleShown || why) && (RR.LEAF.has(role) || why))) return DESCEND;
  if (!RR.mustDescend(el, role, why)) return 0;
  return role === 'heading' ? NAMED_BY_CHILDREN : DESCEND;
}

/**
 * The element's own line, holding the nodes its children left in out[start…], or nothing (they
 * stay in the parent's list). Layout and delegation around controls (cards holding links, scroll
 * panes, React roots) are no targets; a wired row, tree or column beside its controls is
 * (content/ref-rule.js).
 * @param {Element} el @param {string} tag @param {string} role @param {string} why @param {boolean} roleShown
 * @param {boolean} nameFromChildren @param {WalkCtx} ctx @param {ONode[]} out @param {number} start
 */
function lineFor(el, tag, role, why, roleShown, nameFromChildren, ctx, out, start) {
  if (why && anyRef(out, start) && !RR.keepsOwnRef(why, roleShown, out, start)) why = '';
  // Transparent: the children stay where they are, in the parent's list.
  if (!roleShown && !why) return;
  // The walk reached this element, so it is shown: the name is computed once, for both the
  // named-only test and the line (images and groups used to be named twice).
  const known = NAMED_ONLY.has(role) && !why ? Accname.name(el, { shown: true }) : undefined;
  if (known === '') return;
  const kids = out.length > start ? out.splice(start) : [];
  const line = makeNode(el, role, why, ctx, kids, tag, nameFromChildren, known);
  if (line.ref && kids.length) RR.nameApart(line);
  out.push(line);
}

/**
 * A canvas's fallback content: its controls, which HTML makes focusable and exposes to
 * assistive technology although nothing of them is drawn (Chromium gives them no box at all).
 * Each control is a line with a ref; acting on one works as assistive technology does
 * (content/input.js canvasFallback).
 * @param {Element} canvas @param {WalkCtx} ctx @returns {ONode[]}
 */
function fallbackOf(canvas, ctx) {
  /** @type {ONode[]} */
  const out = [];
  for (const el of canvas.querySelectorAll(Dom.INTERACTIVE)) {
    if (el.closest('[aria-hidden=true],[inert]')) continue;
    const tag = el.localName;
    const marked = A.marked(el);
    const role = A.roleFor(el, marked, tag);
    out.push(makeNode(el, role, A.reason(el, role, ctx, marked, tag) || 'fallback', ctx, [], tag));
  }
  return out;
}

/**
 * Whether an element's own text is hidden: visibility hidden or collapse (inherited, and a child
 * may set it back to visible). display:contents has no box but its text renders with its own
 * computed visibility, which is read then.
 * @param {Element} el @param {'visible' | 'hidden' | 'contents'} rendering
 */
function textHiddenBy(el, rendering) {
  if (rendering !== 'contents') return rendering === 'hidden';
  const v = Dom.style(el)?.visibility;
  return v === 'hidden' || v === 'collapse';
}

/** Whether any node of out[start…] holds a ref. @param {ONode[]} out @param {number} start */
function anyRef(out, start) {
  for (let i = start; i < out.length; i++) if (hasRef(out[i])) return true;
  return false;
}

/** A label's text is its control's name; shown again beside the control it is only noise. @param {Element} el */
function labelsShownControl(el) {
  if (el.localName !== 'label') return false;
  const c = /** @type {HTMLLabelElement} */ (el).control;
  return !!c && !Dom.isHidden(c);
}

/** Text or an image of its own: what a pointer leaf shows (an <img> is its own content). @param {Element} el */
function hasOwnContent(el) {
  const tag = el.localName;
  if (tag === 'img' || tag === 'canvas') return true;
  for (let c = el.firstChild; c; c = c.nextSibling) {
    if (c.nodeType === 3) { if (/\S/.test(/** @type {Text} */ (c).data)) return true; continue; }
    const t = /** @type {Element} */ (c).localName;
    if (t === 'img' || t === 'svg' || t === 'i') return true;
  }
  return false;
}

/** @param {ONode} n @returns {boolean} */
const hasRef = (n) => !!n.ref || !!n.children?.some(hasRef);

/** viewportOnly: counts what lies above or below the viewport instead of outlining it. @param {Element} el @param {WalkCtx} ctx */
function offscreen(el, ctx) {
  const r = el.getBoundingClientRect();
  if (!r.width && !r.height) return false;
  const h = el.ownerDocument.defaultView?.innerHeight ?? 0;
  if (r.bottom >= 0 && r.top <= h) return false;
  const n = (el.matches(Dom.INTERACTIVE) ? 1 : 0) + el.querySelectorAll(Dom.INTERACTIVE).length;
  if (r.bottom < 0) ctx.offscreen.above += n; else ctx.offscreen.below += n;
  return true;
}

/** @param {Element} el @param {WalkCtx} ctx @param {WalkCtx} childCtx @returns {ONode} */
function frameNode(el, ctx, childCtx) {
  const name = clean(el.getAttribute('title') ?? el.getAttribute('name') ?? el.getAttribute('aria-label'));
  // A frame that introduced itself has its own content script: its outline (and its refs, "f7:e3")
  // come from there, so acting runs in the element's own realm and coordinates, as for cross-origin
  // frames. Only a same-origin frame that never answered (no content script yet) is inlined here.
  const id = Frames.frameIdOf(el, ctx.nonce);
  const doc = id === null ? Dom.sameOriginDocument(el) : null;
  if (doc) {
    focusedIn(doc, ctx.focused);
    /** @type {ONode[]} */
    const kids = [];
    for (const child of childrenOf(el)) walk(child, childCtx, kids);
    return { role: 'iframe', name, children: kids };
  }
  return { role: 'iframe', name, frame: id };
}

/**
 * @param {Element} el @param {string} role @param {string} why @param {WalkCtx} ctx @param {ONode[]} kids @param {string} tag el.localName
 * @param {boolean} [nameFromChildren] @param {string} [known] the accessible name, when the walk already computed it (it is then what nameFor returns)
 * @returns {ONode}
 */
function makeNode(el, role, why, ctx, kids, tag, nameFromChildren = false, known = undefined) {
  const shownRole = role && role !== 'generic' && role !== 'none' && role !== 'paragraph' ? role : why === 'editable' ? 'textbox' : 'clickable';
  const wantsName = !UNNAMED.has(shownRole) || why;
  // The walk's role is the element's own (roleOf) except for a label standing in for its input.
  let name = wantsName && !nameFromChildren ? known ?? A.nameFor(el, shownRole, why, true, tag, tag === 'label' ? undefined : role) : '';
  let hint = false;
  if (!name && why) { name = A.hintOf(el); hint = !!name; }
  if (name.length > NAME_MAX) name = `${name.slice(0, NAME_MAX)}…`;
  const aria = L.hasAria(el);
  const states = L.states(el, shownRole, aria, tag, ctx.focused);
  ctx.spend.lines++;
  const value = L.valueOf(el, aria, tag) || undefined;
  const options = tag === 'select' ? SelectOptions.line(/** @type {HTMLSelectElement} */ (el)) || undefined : undefined;
  if (options) ctx.spend.chars += options.length;
  const ref = why ? R.refFor(el, { role: shownRole, name, landmark: ctx.landmark, index: R.countTwin(shownRole, name, ctx.landmark) }) : undefined;
  // Every line has every field (undefined when it has none): one shape for all lines.
  return { role: shownRole, name, hint, states, children: kids, el, value, options, ref };
}

/** Structure whose lines carry no name unless it is a target: its content says it. */
const UNNAMED = new Set(['list', 'listitem', 'row', 'table', 'rowgroup', 'cell', 'columnheader', 'rowheader']);
// ---- tidy passes: each takes a child list and returns a smaller one that says the same ----

/**
 * Adjacent text runs are one reading unit: join them, then clip long runs. In place: the walk
 * made these nodes for this pass only.
 * @param {ONode[]} list @returns {ONode[]}
 */
function mergeText(list) {
  let w = 0;
  for (let i = 0; i < list.length; i++) {
    const n = list[i];
    const prev = w ? list[w - 1] : undefined;
    if (n.text !== undefined && prev && prev.text !== undefined) prev.text = `${prev.text} ${n.text}`;
    else list[w++] = n;
  }
  list.length = w;
  for (const n of list) if (n.text && n.text.length > TEXT_MAX) n.text = `${n.text.slice(0, TEXT_MAX)}…`;
  return list;
}

/** Text that only repeats the parent's name says nothing new (in place). @param {ONode[]} list @param {string} parentName */
function dropRepeatedText(list, parentName) {
  if (!parentName) return list;
  let w = 0;
  for (let i = 0; i < list.length; i++) if (list[i].text !== parentName) list[w++] = list[i];
  list.length = w;
  return list;
}

/** Structure that says nothing without children. */
const EMPTY_GOES = new Set(['table', 'row', 'list', 'listitem', 'group', 'toolbar', 'tablist', 'menu', 'menubar', 'radiogroup', ...LANDMARK]);

/**
 * Appends what a node folds into to `out`: wrappers with one child are the child (list items
 * with one link, lists of one item); empty structure goes. Rows fold into one line when every
 * cell is a single line.
 * @param {ONode} n @param {ONode[]} out
 */
function fold(n, out) {
  if (n.ref || n.frame !== undefined || n.text !== undefined) { out.push(n); return; }
  const kids = n.children;
  const count = kids ? kids.length : 0;
  if ((n.role === 'listitem' || n.role === 'list') && count <= 1) { if (kids && count) out.push(kids[0]); return; }
  // A cell is its content; an empty one stays as an empty column so rows keep their shape.
  if (n.role === 'cell' || n.role === 'columnheader' || n.role === 'rowheader') { out.push(kids && count === 1 ? kids[0] : count ? n : { text: '' }); return; }
  if (!count && EMPTY_GOES.has(n.role ?? '')) return;
  out.push(n);
}

/** @param {ONode[]} list @param {string} parentName @param {string} [parentRole] @returns {ONode[]} */
function tidy(list, parentName, parentRole = '') {
  /** @type {ONode[]} */
  const out = [];
  for (const n of list) {
    if (n.children) n.children = tidy(n.children, n.name ?? '', n.role);
    fold(n, out);
  }
  // Cells of a row stay apart: each is a column.
  return dropRepeatedText(parentRole === 'row' ? out : mergeText(out), parentName);
}

/** interactiveOnly: keep what has a ref and the containers that hold one. @param {ONode[]} list @returns {ONode[]} */
function interactive(list) {
  /** @type {ONode[]} */
  const out = [];
  for (const n of list) {
    if (n.text !== undefined) continue;
    if (n.rest || n.summary) { out.push(n); continue; }
    const kids = n.children ? interactive(n.children) : [];
    if (n.ref || n.frame !== undefined) out.push({ ...n, children: kids });
    else if (kids.length && (LANDMARK.has(n.role ?? '') || /dialog|iframe/.test(n.role ?? ''))) out.push({ ...n, children: kids });
    else out.push(...kids);
  }
  return out;
}

// ---- render ----

/** @param {ONode} n @returns {string} */
function lineOf(n) {
  if (n.text !== undefined) return /^[-[\s"]/.test(n.text) ? JSON.stringify(n.text) : n.text;
  if (n.summary) return n.summary;
  if (n.rest) return B.restLine(n);
  let line = `- ${n.role}`;
  if (n.name) line += n.hint ? ` hint=${JSON.stringify(n.name)}` : ` ${JSON.stringify(n.name)}`;
  if (n.value) line += ` value=${JSON.stringify(n.value)}`;
  // A select's options come before its states and ref: the ref stays last on its line (a
  // page's option label cannot pass for it).
  if (n.options) line += ` options: ${n.options}`;
  for (const s of n.states ?? []) line += ` [${s}]`;
  if (n.ref) line += ` [${n.ref}]`;
  if (n.frame !== undefined) line += n.frame === null ? ' (not readable: get_frames says why)' : ` [frame=${n.frame}]`;
  if (n.collapsed) line += `: ${n.collapsed}`;
  return line;
}

/** A row, or a node with one simple child, reads best on one line. @param {ONode} n */
function inlineChildren(n) {
  const kids = n.children ?? [];
  if (!kids.length || kids.some((k) => k.children?.length || k.rest)) return null;
  if (n.role === 'row' && kids.length <= 16) return kids.map(inlineOf).join(' | ');
  if (kids.length === 1 && (n.role === 'heading' || n.role === 'listitem')) return inlineOf(kids[0]);
  return null;
}

/** @param {ONode} n */
function inlineOf(n) {
  return n.text !== undefined ? n.text : lineOf(n).slice(2);
}

/** @type {string[]} */
const INDENTS = [];
/** @param {number} depth */
function indent(depth) {
  return INDENTS[depth] ??= '  '.repeat(depth);
}

/** One node's own line as render() writes it (with its children, when they read inline). @param {ONode} n @param {number} depth */
function ownLine(n, depth) {
  const inline = inlineChildren(n);
  return { line: indent(depth) + lineOf(n) + (inline ? `: ${inline}` : ''), inline: !!inline };
}

/**
 * The outline's text within maxChars, masked: regions summarised until it fits
 * (content/outline-budget.js). null when it still does not fit, unless cutting is allowed (the
 * last pass): then the lines stop before the budget and the last line names the call that shows
 * the rest. truncated: anything was summarised or left for a follow-up.
 * @param {ONode[]} nodes @param {number} maxChars @param {boolean} partial the walk left nodes out @param {boolean} mayCut
 * @param {Element | null} keep the region a snapshot {ref} opens: never summarised into its own line
 * @returns {{ text: string, truncated: boolean } | null}
 */
function render(nodes, maxChars, partial, mayCut, keep) {
  // Someone's API key shown on a settings page, a token in a link: masked wherever they stand.
  const text = S.maskText(lines(nodes, Infinity).lines.join('\n'));
  if (text.length <= maxChars) return { text, truncated: partial };
  B.fit(nodes, maxChars, ownLine, keep);
  const fitted = S.maskText(lines(nodes, Infinity).lines.join('\n'));
  if (fitted.length <= maxChars) return { text: fitted, truncated: true };
  if (!mayCut) return null;
  const { lines: out, cutAt } = lines(nodes, maxChars - Math.min(240, Math.floor(maxChars / 4)));
  if (cutAt) out.push(B.cutLine(cutAt, maxChars));
  return { text: S.maskText(out.join('\n')), truncated: true };
}

/**
 * @param {ONode[]} nodes @param {number} maxChars
 * @returns {{ lines: string[], cutAt: ONode | null }} cutAt: the first node left out
 */
function lines(nodes, maxChars) {
  const w = new LineWriter(maxChars);
  for (const n of nodes) emit(w, n, 0);
  return { lines: w.out, cutAt: w.cutAt };
}

/** The lines written so far (a class for one shape on every snapshot: see WalkCtx). */
class LineWriter {
  /** @param {number} max */
  constructor(max) {
    /** @type {string[]} */
    this.out = [];
    this.chars = 0;
    this.max = max;
    /** @type {ONode | null} */
    this.cutAt = null;
  }
}

/**
 * Writes a node's line and its children's into w, until the line that would pass w.max. A
 * function of its own, not a closure made by each lines() call: a new closure starts without
 * the compiled code and type feedback of the last snapshot's.
 * @param {LineWriter} w @param {ONode} n @param {number} depth
 */
function emit(w, n, depth) {
  if (w.cutAt) return;
  const { line, inline } = ownLine(n, depth);
  if (w.chars + line.length + 1 > w.max) { w.cutAt = n; return; }
  w.out.push(line);
  w.chars += line.length + 1;
  if (!inline && n.children) for (const c of n.children) emit(w, c, depth + 1);
}

// ---- entry points ----

/**
 * One context and one line writer kept for the life of the page. V8 forgets the shape of the
 * objects a constructor made once none of them is alive (a full garbage collection between two
 * snapshots is enough), and the next snapshot's objects then get a new shape, which sends the
 * walk's compiled code back to the interpreter (measured on real pages: the walk stayed
 * uncompiled for five and more snapshots). build() refers to them so that they stay. Their
 * numbers are fractions and Infinity as the real ones can be: a field that first held a small
 * integer and then a fraction changes the shape too.
 */
const KEPT_SHAPES = [new WalkCtx(new WeakSet(), false, '', false, '', { above: 0, below: 0 }, false, false, B.spend(0.5, 0.5), new Set()), new LineWriter(Infinity)];


/**
 * @param {BuildOpts} [opts]
 * @returns {import('../../types/content').OutlineResult | import('../../types/core').ToolErr}
 */
function build(opts = {}) {
  void KEPT_SHAPES;
  if (typeof opts.frameId === 'number') R.setFrameId(opts.frameId);
  let root = /** @type {Element} */ (document.body ?? document.documentElement);
  let landmark = '';
  if (opts.ref) {
    const found = R.lookup(opts.ref);
    if (!('el' in found)) return found;
    root = found.el;
    landmark = landmarkOf(root);
  }
  const maxChars = opts.maxChars ?? B.DEFAULT_CHARS;
  const past = opts.ref && opts.from !== undefined ? pastTheEnd(root, opts) : null;
  if (past) return { text: past, truncated: false, refs: 0, url: S.maskText(location.href), title: S.maskText(document.title) };
  const listeners = Listeners.collect();
  // The walk may produce about twice the budget, for the fitting step to choose what to summarise.
  // When summaries cannot bring it under the budget (a long flat feed has no regions), walk again
  // with less, so that what is left out is always behind "not outlined" lines, never cut off.
  let allowance = maxChars * B.WALK_SHARE;
  for (let attempt = 1; ; attempt++) {
    const pass = outlinePass(root, landmark, opts, listeners, allowance, maxChars);
    const fitted = render(pass.nodes, maxChars, pass.partial, attempt === B.MAX_PASSES, opts.ref && opts.from === undefined ? root : null);
    if (fitted) return { ...fitted, refs: countRefs(pass.nodes), url: S.maskText(location.href), title: S.maskText(document.title) };
    allowance *= 0.85 * maxChars / pass.size;
  }
}

/**
 * A from/to range that selects none of a region's children would answer with nothing, and a
 * model reads nothing as "nothing there": say how many children there are and which call shows
 * the region instead (its summary names the parts, each with its own ref and range).
 * @param {Element} root @param {BuildOpts} opts @returns {string | null}
 */
function pastTheEnd(root, opts) {
  const n = childrenOf(root).length;
  const from = opts.from ?? 0;
  if (from < n && (opts.to === undefined || opts.to > from)) return null;
  return `[${opts.ref} has ${n} child node${n === 1 ? '' : 's'}: from=${from}${opts.to === undefined ? '' : ` to=${opts.to}`} selects none of them. snapshot ref=${opts.ref} shows it, naming the calls for its parts]`;
}

/**
 * One walk of the page (or a ref's subtree) within an output allowance, tidied.
 * @param {Element} root @param {string} landmark @param {BuildOpts} opts @param {WeakSet<Element>} listeners @param {number} allowance @param {number} maxChars
 */
function outlinePass(root, landmark, opts, listeners, allowance, maxChars) {
  R.beginPass();
  /** @type {WalkCtx} */
  const ctx = new WalkCtx(listeners, false, landmark, !!opts.viewportOnly, opts.nonce, { above: 0, below: 0 }, false, false, B.spend(allowance, maxChars), focusedIn(root.ownerDocument, new Set()));
  /** @type {ONode[]} */
  const top = [];
  // A ref's subtree is its own line and what is under it; with from, only its children from there.
  if (opts.ref && opts.from === undefined) walk(root, ctx, top);
  else for (const c of childrenOf(root).slice(opts.from ?? 0, opts.to)) walk(c, ctx, top);
  let nodes = tidy(top, '');
  if (opts.interactiveOnly) nodes = interactive(nodes);
  const { above, below } = ctx.offscreen;
  const count = (/** @type {number} */ n) => `${n} actionable element${n === 1 ? '' : 's'}`;
  if (above) nodes.unshift({ summary: `[${count(above)} above the viewport not shown: scroll up or snapshot without viewportOnly]` });
  if (below) nodes.push({ summary: `[${count(below)} below the viewport not shown: scroll down or snapshot without viewportOnly]` });
  return { nodes, partial: ctx.spend.stopped, size: Math.max(1, ctx.spend.chars + ctx.spend.lines * B.LINE_COST) };
}

/**
 * Adds a document's focused element to the set (not its body, which holds focus when nothing does).
 * @param {Document} doc @param {Set<Element>} set
 */
function focusedIn(doc, set) {
  const active = doc.activeElement;
  if (active && active !== doc.body) set.add(active);
  return set;
}

/** @param {ONode[]} nodes @returns {number} */
function countRefs(nodes) {
  let n = 0;
  for (let i = 0; i < nodes.length; i++) { const x = nodes[i]; n += (x.ref ? 1 : 0) + (x.children ? countRefs(x.children) : 0); }
  return n;
}

/** The nearest landmark around an element, as the outline names it ("navigation:Main"). @param {Element} el */
function landmarkOf(el) {
  for (let p = Dom.parentOf(el); p; p = Dom.parentOf(p)) {
    const role = roleOf(p);
    if (LANDMARK.has(role) && (!WIDGET.has(role))) {
      if ((role === 'region' || role === 'form') && !Accname.name(p)) continue;
      return `${role}:${Accname.name(p)}`;
    }
  }
  return '';
}

/** XPath of an element within its document (shadow content: up to its shadow root). @param {Element} el */
function xpathOf(el) {
  const parts = [];
  for (let e = /** @type {Element | null} */ (el); e && e.nodeType === 1; e = e.parentElement) {
    let i = 1;
    for (let s = e.previousElementSibling; s; s = s.previousElementSibling) if (s.localName === e.localName) i++;
    parts.unshift(`${e.localName}[${i}]`);
  }
  return `/${parts.join('/')}`;
}

/** describe_ref: what stands behind a ref, for debugging and evals. @param {string} ref @returns {import('../../types/core').ToolResult} */
function describe(ref) {
  const found = R.lookup(ref);
  if (!('el' in found)) return found;
  const el = found.el;
  const r = el.getBoundingClientRect();
  const sub = build({ ref, maxChars: 2000 });
  const line = 'text' in sub ? sub.text.split('\n')[0] : '';
  return { ok: true, data: { ref, tag: el.localName, id: el.id || null, xpath: xpathOf(el), inShadow: el.getRootNode() !== el.ownerDocument, box: { x: Math.round(r.x), y: Math.round(r.y), width: Math.round(r.width), height: Math.round(r.height) }, line, rebound: !!found.rebound } };
}

const resolve = R.resolve;
export { build, resolve, landmarkOf, describe };
Object.assign(tw.handlers, {
  'content.ping': () => ({ ok: true, data: 'pong' }),
  'content.snapshot': async (/** @type {BuildOpts & { type: string, expectFrames?: number }} */ msg) => {
    if (msg.expectFrames) await Frames.introduced(msg.nonce, msg.expectFrames);
    const r = build(msg);
    return 'text' in r ? { ok: true, data: r } : r;
  },
  'content.describe': (/** @type {{ ref: string }} */ msg) => describe(msg.ref),
});
