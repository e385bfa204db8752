// The outline's one budget: what reaches the model fits maxChars, and nothing is cut silently.
// Two steps keep it so. While walking, the outline's cost is bounded by its output: once the walk
// has produced about a budget's worth (or visited an element allowance), every later node is left
// out and counted into "rest" lines that name the follow-up call showing it
// ("snapshot ref=e77 from=50"). After the walk, an outline still over budget has its biggest
// regions summarised ("navigation "Main": 240 links [collapsed: snapshot ref=e12]") until it fits.
// Every line left out is one named call away.
import * as Accname from './accname.js';
import * as Dom from './dom.js';
import * as Refs from './refs.js';
import * as Roles from './roles.js';

/** The budget when a snapshot names none (characters of outline text). */
const DEFAULT_CHARS = 30_000;
/** What a line costs beyond its text (role, quotes, ref, indentation), for the walk's estimate. */
const LINE_COST = 28;
/** The walk stops after this share of the budget in estimated output (the fitting step then has room to choose). */
const WALK_SHARE = 2;
/** Walks of one snapshot at most: each one after the first with less allowance; the last may cut. */
const MAX_PASSES = 4;
/** …or after visiting this many elements, whatever they produced (huge hidden or empty subtrees). */
const MAX_VISITED = 60_000;
/** Roles whose subtree can be summarised as one line. */
const REGIONS = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'region', 'form', 'search', 'list', 'table', 'grid',
  'tree', 'treegrid', 'menu', 'menubar', 'listbox', 'tablist', 'group', 'toolbar', 'dialog', 'radiogroup', 'main', 'article', 'iframe']);
/** Summarised only when nothing else is left to summarise: they are where the page's content is. */
const LAST_RESORT = new Set(['main', 'article']);

/**
 * @typedef {import('../../types/content').OutlineNode} ONode
 * @typedef {import('../../types/content').OutlineSpend} Spend
 */

/**
 * What a walk has spent. A class: the walk reads it at every node, and a literal made once per
 * snapshot got a new shape after a garbage collection, which undid the walk's compiled code
 * (content/outline.js WalkCtx).
 */
class Spending {
  /** @param {number} allowance @param {number} budget */
  constructor(allowance, budget) {
    this.maxChars = allowance;
    this.budget = budget;
    this.chars = 0;
    this.lines = 0;
    this.visited = 0;
    this.stopped = false;
  }
}

/** @param {number} allowance estimated characters the walk may produce @param {number} budget the snapshot's maxChars @returns {Spend} */
function spend(allowance, budget) {
  return new Spending(allowance, budget);
}

/**
 * Whether the walk has spent its allowance: from then on every node is skipped (and counted).
 * @param {Spend} s
 */
function spent(s) {
  if (s.stopped) return true;
  if (++s.visited > MAX_VISITED || s.chars + s.lines * LINE_COST > s.maxChars) s.stopped = true;
  return s.stopped;
}

/** The container a node is walked from, in the flat tree (slot, shadow host or parent). @param {Node} node @returns {Element | null} */
function containerOf(node) {
  const slot = /** @type {Element | Text} */ (node).assignedSlot;
  if (slot) return slot;
  const p = node.parentNode;
  if (!p) return null;
  return p.nodeType === 11 ? /** @type {ShadowRoot} */ (p).host ?? null : /** @type {Element} */ (p);
}

/**
 * A node the walk leaves out once spent: counted into the rest line of its container, which is
 * the last node of `out` when an earlier sibling was left out too.
 * @param {Node} node @param {ONode[]} out @param {Spend} s
 */
function skip(node, out, s) {
  // The whitespace between tags is nothing left out.
  if (node.nodeType === 3 && !Dom.hasInk(/** @type {Text} */ (node).data)) return;
  if (node.nodeType !== 3 && node.nodeType !== 1) return;
  const el = containerOf(node);
  if (!el) return;
  const last = out[out.length - 1];
  let rest = last?.rest && last.rest.el === el ? last.rest : null;
  if (!rest) {
    const box = container(el);
    const from = indexIn(box, node);
    rest = { el, box, from, items: 0, actionable: 0, notable: [], chunks: [{ el, from, actionable: 0, cost: 0 }] };
    out.push({ rest });
  }
  if (node.nodeType !== 1) {
    partOf(rest.chunks, rest.box, node).cost += /** @type {Text} */ (node).data.length;
    return;
  }
  const e = /** @type {Element} */ (node);
  rest.items++;
  const actionable = actionableIn(e);
  rest.actionable += actionable;
  addPart(rest.chunks, rest.box, e, actionable, costOf(e, actionable), s.budget * PART_SHARE);
  // The big structures in what is left out get handles of their own, so the model can go straight
  // to a table or a form instead of paging through everything before it.
  if (actionable >= NOTABLE_MIN && rest.notable.length < NOTABLE_MAX) {
    const role = Roles.roleOf(e);
    if (REGIONS.has(role)) rest.notable.push({ el: e, role, name: Accname.name(e), actionable });
  }
}

/**
 * @typedef {import('../../types/content').OutlinePart} Part
 * @typedef {import('../../types/content').OutlineBox} Box
 */

/** A container with its children in the flat tree, read once per pass. @param {Element} el @returns {Box} */
function container(el) {
  return { el, kids: Dom.childrenOf(el), hint: 0 };
}

/** A child's index in its container: the children are met in order, so the search starts where the last one was found. @param {Box} box @param {Node} child */
function indexIn(box, child) {
  let at = box.kids.indexOf(/** @type {ChildNode} */ (child), box.hint);
  if (at < 0) at = box.kids.indexOf(/** @type {ChildNode} */ (child));
  if (at >= 0) box.hint = at;
  return at;
}

/**
 * Adds a left-out element to the follow-up calls that show it, cut so that each call fits a
 * budget on its own: every element left out is one named call away. An element too big for one
 * call is not a part of its own: its children are planned instead (a table's body row by row),
 * and the element's container goes on in a new part after it.
 * @param {Part[]} parts @param {Box} box the container @param {Element} e @param {number} actionable @param {number} cost @param {number} cap
 */
function addPart(parts, box, e, actionable, cost, cap, depth = 0) {
  const open = parts.at(-1);
  const room = parts.length < MAX_PARTS;
  // A child not found among its container's children (never seen; a frame's document in
  // principle) is not cut at or opened: its part could not be named.
  const at = cost > cap || (open?.cost ?? 0) + cost > cap ? indexIn(box, e) : 0;
  if (cost > cap && actionable && depth < MAX_DEPTH && room && at >= 0) {
    if (open && open.el === box.el && open.to === undefined) {
      if (open.cost || open.actionable) open.to = at;
      else parts.pop();
    }
    const inner = container(e);
    for (const c of inner.kids) {
      if (c.nodeType === 3) {
        if (Dom.hasInk(/** @type {Text} */ (c).data)) partOf(parts, inner, c).cost += /** @type {Text} */ (c).data.length;
      } else if (c.nodeType === 1) {
        const a = actionableIn(/** @type {Element} */ (c));
        addPart(parts, inner, /** @type {Element} */ (c), a, costOf(/** @type {Element} */ (c), a), cap, depth + 1);
      }
    }
    parts.push({ el: box.el, from: at + 1, actionable: 0, cost: 0 });
    return;
  }
  const part = partOf(parts, box, e);
  if (part.cost && part.cost + cost > cap && room && at >= 0) {
    part.to = at;
    parts.push({ el: box.el, from: at, actionable, cost });
    return;
  }
  part.actionable += actionable;
  part.cost += cost;
}

/** The open part of a container, or a new one from this child on. @param {Part[]} parts @param {Box} box @param {Node} child @returns {Part} */
function partOf(parts, box, child) {
  const open = parts.at(-1);
  if (open && open.el === box.el && open.to === undefined) return open;
  const part = { el: box.el, from: indexIn(box, child), actionable: 0, cost: 0 };
  parts.push(part);
  return part;
}

/** The actionable elements of a subtree, itself included. @param {Element} e */
function actionableIn(e) {
  return (e.matches(Dom.INTERACTIVE) ? 1 : 0) + e.querySelectorAll(Dom.INTERACTIVE).length;
}

/**
 * What a left-out element would cost in a follow-up's outline, estimated from its text and a
 * line per control (scripts and styles show nothing). Hidden text and long runs (the outline
 * cuts them) make it an overestimate, which only makes the parts smaller.
 * @param {Element} e @param {number} actionable
 */
function costOf(e, actionable) {
  if (SILENT.has(e.localName)) return 0;
  let text = e.textContent?.length ?? 0;
  if (text > 2_000) for (const x of e.querySelectorAll('script,style,template,noscript')) text -= x.textContent?.length ?? 0;
  return text + actionable * CONTROL_COST;
}

/** What one control's line costs in a follow-up's outline beyond its name (role, quotes, ref, indentation). */
const CONTROL_COST = 30;
/** The share of a budget one named part is planned to fill: estimates are rough, and a part must fit its call. */
const PART_SHARE = 0.6;
/** At most this many follow-up calls named in one line (the last one takes what is left). */
const MAX_PARTS = 80;
/** How deep an element too big for one call is opened into parts of its children. */
const MAX_DEPTH = 4;
/** Elements whose text is never shown. */
const SILENT = new Set(['script', 'style', 'template', 'noscript']);
/** A structure left out with at least this many actionable elements is named on its own. */
const NOTABLE_MIN = 10;
const NOTABLE_MAX = 6;

/** A handle on an element the model can pass back as snapshot's ref. @param {Element} el @param {string} role @param {string} name */
function handle(el, role, name) {
  return Refs.refOf(el) ?? Refs.refFor(el, { role, name, landmark: '', index: 0 });
}

/**
 * The follow-up calls that show planned parts: one per container, its ranges in order.
 * @param {Part[]} parts (each with something in it)
 */
function callsOf(parts) {
  /** @type {{ el: Element, parts: Part[] }[]} */
  const groups = [];
  for (const c of parts) {
    const g = groups.at(-1);
    if (g && g.el === c.el) g.parts.push(c); else groups.push({ el: c.el, parts: [c] });
  }
  const range = (/** @type {Part} */ c) => `from=${Math.max(0, c.from)}${c.to === undefined ? '' : ` to=${c.to}`}`;
  return groups.map((g) => {
    const ref = handle(g.el, 'region', '');
    return g.parts.length < 2 && g.parts[0].to === undefined ? `snapshot ref=${ref} ${range(g.parts[0])} shows them`
      : `snapshot ref=${ref} with ${g.parts.map(range).join(', ')} shows them`;
  }).join(', then ');
}

/**
 * The parts a region too big for one call is shown in: its children planned as a "not
 * outlined" line plans what the walk left out, each part sized to fit a call of this budget.
 * Empty when one call holds it all. A summary naming only the region's own ref would open to
 * that same summary, and a model that obeys it would loop.
 * @param {Element} el @param {number} budget
 */
function partsFor(el, budget) {
  const cap = budget * PART_SHARE;
  if (costOf(el, actionableIn(el)) <= cap) return [];
  const box = container(el);
  /** @type {Part[]} */
  const parts = [];
  for (const c of box.kids) {
    if (c.nodeType === 3) {
      if (Dom.hasInk(/** @type {Text} */ (c).data)) partOf(parts, box, c).cost += /** @type {Text} */ (c).data.length;
    } else if (c.nodeType === 1) {
      const a = actionableIn(/** @type {Element} */ (c));
      addPart(parts, box, /** @type {Element} */ (c), a, costOf(/** @type {Element} */ (c), a), cap);
    }
  }
  return parts.filter((c) => (c.cost || c.actionable) && (c.to === undefined || c.to > c.from));
}

/** @param {ONode} n @returns {string} */
function restLine(n) {
  const r = /** @type {NonNullable<ONode['rest']>} */ (n.rest);
  const what = r.items ? `${r.items} more element${r.items === 1 ? '' : 's'} here (${r.actionable ? `${r.actionable} actionable` : 'no controls'})` : 'more text here';
  const among = r.notable.map((x) => `${x.role}${x.name ? ` ${JSON.stringify(x.name.slice(0, 60))}` : ''} (${x.actionable} actionable): snapshot ref=${handle(x.el, x.role, x.name)}`);
  const parts = r.chunks.filter((c) => (c.cost || c.actionable) && (c.to === undefined || c.to > c.from));
  const calls = parts.length ? callsOf(parts) : `snapshot ref=${handle(r.el, 'region', '')} from=${Math.max(0, r.from)} shows them`;
  const perCall = parts.length > 1 ? ', a part per call' : '';
  return `[… ${what} not outlined: ${calls}${perCall}${among.length ? `; among them ${among.join('; ')}` : ''}]`;
}

/** The refs of a subtree by role, for a summary line: "240 links, 3 buttons". @param {ONode} n */
function census(n) {
  /** @type {Map<string, number>} */
  const roles = new Map();
  let more = 0;
  /** @param {ONode} x */
  const visit = (x) => {
    if (x.ref) roles.set(x.role ?? 'element', (roles.get(x.role ?? 'element') ?? 0) + 1);
    if (x.rest) more += x.rest.actionable;
    for (const c of x.children ?? []) visit(c);
  };
  for (const c of n.children ?? []) visit(c);
  const parts = [...roles].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([role, k]) => `${k} ${plural(role, k)}`);
  if (more) parts.push(`${more} more actionable`);
  return parts.length ? parts.join(', ') : 'text';
}

/** @param {string} role @param {number} k */
function plural(role, k) {
  if (k === 1) return role;
  return role.endsWith('x') ? `${role}es` : role === 'checkbox' ? 'checkboxes' : `${role}s`;
}

/**
 * Fits the outline into maxChars by summarising regions: while it is too long, the smallest
 * region whose summary saves enough (else the biggest) becomes one line; main and article go
 * last. Sizes are measured as render() lays the lines out, each subtree once until it changes.
 * @param {ONode[]} nodes @param {number} maxChars
 * @param {(n: ONode, depth: number) => { line: string, inline: boolean }} ownLine a node's own rendered line
 * @param {Element | null} [keep] never summarised: the region a snapshot {ref} was asked to open
 */
function fit(nodes, maxChars, ownLine, keep = null) {
  /** @type {WeakMap<ONode, number>} */
  const sizes = new WeakMap();
  /** @param {ONode} n @param {number} depth @returns {number} */
  const size = (n, depth) => {
    let s = sizes.get(n);
    if (s !== undefined) return s;
    const own = ownLine(n, depth);
    s = own.line.length + 1;
    if (!own.inline) for (const c of n.children ?? []) s += size(c, depth + 1);
    sizes.set(n, s);
    return s;
  };
  for (let round = 0; round < 500; round++) {
    const total = nodes.reduce((s, n) => s + size(n, 0), 0);
    if (total <= maxChars) return;
    /** @type {{ n: ONode, size: number, last: boolean, above: ONode[] }[]} */
    const regions = [];
    /**
     * The region asked for, and a lone child of it (a sidebar's one list), stay open: their
     * summary is the call that was just made.
     * @param {ONode} n @param {number} depth @param {ONode[]} above @param {boolean} open
     */
    const collect = (n, depth, above, open) => {
      if (n.collapsed || !n.children?.length) return;
      const kept = n.el === keep || open;
      if (n.el && !kept && REGIONS.has(n.role ?? '')) {
        const s = size(n, depth);
        if (s > 300) regions.push({ n, size: s, last: LAST_RESORT.has(n.role ?? ''), above });
      }
      const path = [...above, n];
      for (const c of n.children) collect(c, depth + 1, path, kept && n.children.length === 1);
    };
    for (const n of nodes) collect(n, 0, [], false);
    // Summarising main or article when it is most of the outline would hide the page's content
    // behind one line: then the outline is cut instead, its last line naming where to go on.
    for (let i = regions.length - 1; i >= 0; i--) if (regions[i].last && regions[i].size > total / 2) regions.splice(i, 1);
    if (!regions.length) return;
    const excess = total - maxChars;
    const pool = regions.some((r) => !r.last) ? regions.filter((r) => !r.last) : regions;
    const enough = pool.filter((r) => r.size >= excess).sort((a, b) => a.size - b.size);
    const pick = enough[0] ?? pool.sort((a, b) => b.size - a.size)[0];
    collapse(pick.n, maxChars);
    sizes.delete(pick.n);
    for (const a of pick.above) sizes.delete(a);
  }
}

/**
 * The last line when even the summarised outline does not fit: where the rest starts, as a
 * follow-up call (the container of the first line left out, from that element on).
 * @param {ONode} n the first node left out @param {number} maxChars
 */
function cutLine(n, maxChars) {
  const el = n.el ?? n.rest?.el;
  const box = el ? containerOf(el) : null;
  const from = el && box ? Dom.childrenOf(box).indexOf(el) : -1;
  const next = box && from >= 0 ? `snapshot ref=${handle(box, 'region', '')} from=${from} shows the rest` : 'snapshot with a region\'s ref, interactiveOnly or viewportOnly shows the rest';
  return `[… outline cut at ${maxChars} characters: ${next}]`;
}

/**
 * A region as one line naming the calls that show it: its own ref when one call holds it, else
 * its parts.
 * @param {ONode} n @param {number} budget
 */
function collapse(n, budget) {
  const el = /** @type {Element} */ (n.el);
  const parts = partsFor(el, budget);
  const ref = n.ref ?? handle(el, n.role ?? 'region', n.name ?? '');
  const calls = parts.length ? `${callsOf(parts)}${parts.length > 1 ? ', a part per call' : ''}` : `snapshot ref=${ref} shows them`;
  n.collapsed = `${census(n)} [collapsed: ${calls}]`;
  n.children = [];
}

export { DEFAULT_CHARS, WALK_SHARE, MAX_PASSES, LINE_COST, spend, spent, skip, restLine, fit, cutLine };
