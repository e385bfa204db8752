// The ref registry: a short id for every actionable element, stable for the life of the element
// (WeakRef, so refs never keep a removed node alive). When a framework re-renders and the old node
// is gone, a ref re-binds to the one node with the same fingerprint (role, name, landmark and
// position among its twins); when that is ambiguous it fails with STALE_REF.
// Ref format (shared with agent/refs.js): "e12" in the top frame, "f<frameId>:e12" in another frame.
import * as Accname from './accname.js';
import * as Actionable from './actionable.js';
import * as Dom from './dom.js';
import * as Outline from './outline.js';
import * as Roles from './roles.js';
import { fail } from '../../agent/error-codes.js';

/** @typedef {{ role: string, name: string, landmark: string, index: number }} Fingerprint */
/**
 * How many elements of a pass shared a fingerprint, by landmark, role and name: three lookups of
 * strings the pass already holds, where one joined key cost a new string and its hash per line.
 * @typedef {Map<string, Map<string, Map<string, number>>>} Twins
 */
/** `seen`: the twin counts of the outline pass that last showed the element (what the model saw it among). */
/** @type {Map<number, { el: WeakRef<Element>, fp: Fingerprint, seen?: Twins }>} */
const byNum = new Map();
/** @type {WeakMap<Element, number>} */
const numOf = new WeakMap();
/** How many elements shared each fingerprint in the last outline: the re-binding's ambiguity check. @type {Twins} */
let twins = new Map();
let next = 1;
const MAX_ENTRIES = 20_000;
/** This frame's browser frameId, told by the background with each snapshot; 0 is the top frame. */
let frameId = 0;

/** The count of a fingerprint in a pass's twins. @param {Twins} counts @param {string} role @param {string} name @param {string} landmark */
function twinCount(counts, role, name, landmark) { return counts.get(landmark)?.get(role)?.get(name); }

/** @param {number} n */
function format(n) { return frameId ? `f${frameId}:e${n}` : `e${n}`; }

/** @param {string} ref @returns {number | null} the element number, when the ref names this frame */
function parse(ref) {
  const m = /^(?:f(\d+):)?e(\d+)$/.exec(String(ref).trim());
  if (!m) return null;
  if (Number(m[1] ?? 0) !== frameId) return null;
  return Number(m[2]);
}

/** @param {Element} el @param {Fingerprint} fp @returns {string} */
function refFor(el, fp) {
  let n = numOf.get(el);
  if (n === undefined) {
    n = next++;
    numOf.set(el, n);
  }
  const entry = byNum.get(n);
  // Every snapshot re-registers what it shows: keep the entry's WeakRef (one per element, not per
  // snapshot; weak references cost the garbage collector extra work each) and update the rest.
  if (entry && entry.el.deref() === el) { entry.fp = fp; entry.seen = twins; return format(n); }
  byNum.set(n, { el: new WeakRef(el), fp, seen: twins });
  if (byNum.size > MAX_ENTRIES) prune();
  return format(n);
}

/**
 * Infinite-scroll pages would grow the registry forever. Gone elements are kept for re-binding,
 * but past MAX_ENTRIES the oldest gone ones are forgotten (a ref that old is STALE_REF anyway).
 */
function prune() {
  for (const [n, entry] of byNum) {
    if (byNum.size <= MAX_ENTRIES * 0.75) break;
    const el = entry.el.deref();
    if (!el || !el.isConnected) byNum.delete(n);
  }
}

/** @param {Element} el @returns {string | null} */
function refOf(el) {
  const n = numOf.get(el);
  return n === undefined ? null : format(n);
}

/** Starts an outline pass: twin counts are rebuilt by it. */
function beginPass() { twins = new Map(); }
/** @param {string} role @param {string} name @param {string} landmark @returns {number} the element's index among its twins */
function countTwin(role, name, landmark) {
  let byRole = twins.get(landmark);
  if (!byRole) twins.set(landmark, byRole = new Map());
  let byName = byRole.get(role);
  if (!byName) byRole.set(role, byName = new Map());
  const i = byName.get(name) ?? 0;
  byName.set(name, i + 1);
  return i;
}

/**
 * The live element behind a ref, re-bound by fingerprint after a re-render.
 * @param {string} ref
 * @returns {{ el: Element, rebound?: boolean } | import('../../types/core').ToolErr}
 */
function lookup(ref) {
  const n = parse(ref);
  const entry = n === null ? undefined : byNum.get(n);
  if (!entry || n === null) {
    return fail('STALE_REF', `${ref} is not a ref of this page`, { retryable: true });
  }
  const el = entry.el.deref();
  if (el && el.isConnected) return { el };
  const found = rebind(entry.fp, entry.seen ?? twins);
  if (found) {
    numOf.set(found, n);
    byNum.set(n, { el: new WeakRef(found), fp: entry.fp, seen: entry.seen });
    return { el: found, rebound: true };
  }
  return fail('STALE_REF', `${ref} is gone: the page re-rendered and no single element matches it any more`, { retryable: true });
}

/**
 * The one connected element with this fingerprint. With several twins, the old position picks
 * one only when the number of twins did not change (a list re-rendered in place).
 * The count is the one of the outline that last showed the ref: a later outline (an action's effects
 * report) already counts the new rows, and comparing with it would hide that rows came or went.
 * @param {Fingerprint} fp @param {Twins} seen @returns {Element | null}
 */
function rebind(fp, seen) {
  const { roleOf } = Roles;
  const { name } = Accname;
  /** @type {Element[]} */
  const matches = [];
  for (const el of allElements(document)) {
    if (roleOf(el) !== fp.role && !(Actionable && Actionable.roleFor(el) === fp.role)) continue;
    if (Dom.isHidden(el)) continue;
    const n = Actionable ? Actionable.nameFor(el, fp.role) : name(el);
    if (n !== fp.name) continue;
    if (Outline && Outline.landmarkOf(el) !== fp.landmark) continue;
    matches.push(el);
  }
  const before = twinCount(seen, fp.role, fp.name, fp.landmark) ?? 1;
  // One of one is the same control; N of N keeps its position (a list re-rendered in place);
  // any other count means rows came or went, and guessing could act on the wrong one.
  if (matches.length === 1 && before <= 1) return matches[0];
  if (matches.length > 1 && before === matches.length) return matches[fp.index] ?? null;
  return null;
}

/**
 * Every element of a document, through shadow roots (iteratively: pages nest them 50 deep) and
 * same-origin frames. @param {Document | ShadowRoot} root @returns {Element[]}
 */
function allElements(root) {
  const out = [];
  for (const el of Dom.deepElements(root)) {
    out.push(el);
    if (el.localName === 'iframe') {
      const doc = Dom.sameOriginDocument(el);
      if (doc) for (const inner of allElements(doc)) out.push(inner);
    }
  }
  return out;
}

/** @param {number} id */
function setFrameId(id) { if (Number.isInteger(id) && id >= 0) frameId = id; }

/** @param {string} ref @returns {Element | null} */
function resolve(ref) {
  const r = lookup(ref);
  return 'el' in r ? r.el : null;
}

export { refFor, refOf, lookup, resolve, beginPass, countTwin, setFrameId, allElements, frameId };
