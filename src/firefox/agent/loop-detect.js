// Loop detection, after every tool call (WebBrain's three detectors, seed 002):
//  (a) repeats of name + arguments + outcome: three identical calls in a row or an ABAB
//      alternation put a nudge into the tool result; repeated nudges without healthy calls stop the run;
//  (b) clicks landing in the same 5-pixel bucket on the same page family;
//  (c) a navigation check after click and navigate: the tab ended somewhere else than asked, or
//      keeps returning to the same URL family.
// Pure and browser-free: the loop feeds it what happened and acts on the verdict.
/** @import { ToolResult } from '../types/core' */
import { urlFamily } from './url-family.js';

/**
 * @typedef {object} LoopDetectConfig
 * @property {number} repeatWindow calls remembered by the repeat detector
 * @property {number} stopAfterNudges nudges without `healthyReset` healthy calls between them that stop the run
 * @property {number} healthyReset healthy calls in a row that forgive earlier nudges
 * @property {number} clickNudge same-bucket clicks that nudge
 * @property {number} clickStop same-bucket clicks that stop the run
 * @property {number} bucketPx
 * @property {number} revisitNudge arrivals at the same URL family that nudge
 */
/** @type {LoopDetectConfig} */
export const LOOP_DEFAULTS = Object.freeze({ repeatWindow: 6, stopAfterNudges: 5, healthyReset: 2, clickNudge: 5, clickStop: 8, bucketPx: 5, revisitNudge: 3 });

/**
 * @typedef {object} CallRecord
 * @property {string} name
 * @property {unknown} args parsed arguments
 * @property {ToolResult} result
 * @property {string} [urlBefore] the tab's URL before the call (click, navigate)
 * @property {string} [urlAfter] the tab's URL after it
 */
/** @typedef {{ kind: 'nudge' | 'stop', detector: 'repeat' | 'click' | 'navigation', message: string }} Verdict */

/** @param {Partial<LoopDetectConfig>} [config] */
export function createLoopDetector(config = {}) {
  const cfg = { ...LOOP_DEFAULTS, ...config };
  /** @type {string[]} */
  const recent = [];
  let nudges = 0;
  let healthy = 0;
  /** @type {Map<string, number>} */
  const clicks = new Map();
  /** @type {Map<string, number>} */
  const arrivals = new Map();

  /** @param {CallRecord} rec @returns {Verdict[]} */
  function record(rec) {
    /** @type {Verdict[]} */
    const out = [];
    const repeat = repeatCheck(rec);
    const click = clickCheck(rec);
    const nav = navigationCheck(rec);
    const fired = /** @type {Verdict[]} */ ([repeat, click, ...nav].filter(Boolean));
    if (fired.length) { healthy = 0; nudges++; } else if (++healthy >= cfg.healthyReset) nudges = 0;
    for (const v of fired) out.push(v);
    if (nudges >= cfg.stopAfterNudges && !out.some((v) => v.kind === 'stop')) {
      const last = fired[0];
      out.push({ kind: 'stop', detector: last.detector, message: `The run is going in circles: ${nudges} loop warnings without progress in between. Last warning: ${last.message}` });
    }
    return out;
  }

  /** (a) @param {CallRecord} rec @returns {Verdict | null} */
  function repeatCheck(rec) {
    recent.push(signature(rec));
    if (recent.length > cfg.repeatWindow) recent.shift();
    const n = recent.length;
    if (n >= 3 && recent[n - 1] === recent[n - 2] && recent[n - 2] === recent[n - 3]) {
      return { kind: 'nudge', detector: 'repeat', message: `You called ${rec.name} with the same arguments three times and got the same result each time. Doing it again will not change anything: try a different approach, take a fresh snapshot, or finish and tell the user what blocks you.` };
    }
    if (n >= 4 && recent[n - 1] === recent[n - 3] && recent[n - 2] === recent[n - 4] && recent[n - 1] !== recent[n - 2]) {
      return { kind: 'nudge', detector: 'repeat', message: 'You are alternating between the same two calls with the same results. Step back: try something else, or finish and explain what blocks you.' };
    }
    return null;
  }

  /** (b) @param {CallRecord} rec @returns {Verdict | null} */
  function clickCheck(rec) {
    const point = clickPoint(rec);
    if (!point) return null;
    const key = `${rec.urlBefore ? urlFamily(rec.urlBefore) : ''}@${Math.floor(point.x / cfg.bucketPx)},${Math.floor(point.y / cfg.bucketPx)}`;
    const count = (clicks.get(key) ?? 0) + 1;
    clicks.set(key, count);
    const where = `(${Math.round(point.x)}, ${Math.round(point.y)})`;
    if (count >= cfg.clickStop) return { kind: 'stop', detector: 'click', message: `Clicked the same spot ${where} ${count} times on this page without getting anywhere.` };
    if (count >= cfg.clickNudge) return { kind: 'nudge', detector: 'click', message: `You have clicked the same spot ${where} ${count} times on this page. It is not doing what you expect: take a snapshot and pick another element.` };
    return null;
  }

  /** (c) @param {CallRecord} rec @returns {Verdict[]} */
  function navigationCheck(rec) {
    if ((rec.name !== 'click' && rec.name !== 'navigate') || !rec.urlAfter || !rec.result.ok) return [];
    /** @type {Verdict[]} */
    const out = [];
    const after = urlFamily(rec.urlAfter);
    const args = /** @type {{ url?: unknown }} */ (rec.args ?? {});
    if (rec.name === 'navigate' && typeof args.url === 'string' && urlFamily(args.url) !== after) {
      out.push({ kind: 'nudge', detector: 'navigation', message: `You asked for ${args.url} but the tab is now at ${rec.urlAfter} (a redirect, a sign-in wall or an error page). Read the page before going on.` });
    }
    if (rec.urlBefore && urlFamily(rec.urlBefore) === after && rec.name === 'click') return out;
    const count = (arrivals.get(after) ?? 0) + 1;
    arrivals.set(after, count);
    if (count >= cfg.revisitNudge) {
      out.push({ kind: 'nudge', detector: 'navigation', message: `This is visit ${count} to ${rec.urlAfter} (counting its URL variants). You are going round in circles: use what you already read there, or try another route.` });
    }
    return out;
  }

  return { record };
}

/** @param {CallRecord} rec */
function clickPoint(rec) {
  const args = /** @type {Record<string, unknown>} */ (rec.args ?? {});
  if (typeof args.x === 'number' && typeof args.y === 'number') return { x: args.x, y: args.y };
  const data = rec.result.ok ? /** @type {Record<string, any>} */ (rec.result.data) : null;
  const p = data && typeof data === 'object' ? data.point : null;
  if (p && typeof p.x === 'number' && typeof p.y === 'number') return { x: p.x, y: p.y };
  return null;
}

/** name + arguments + outcome; arguments by value, whatever their key order. @param {CallRecord} rec */
function signature(rec) {
  const outcome = rec.result.ok ? `ok:${hash(stable(rec.result.data))}` : `err:${rec.result.code}`;
  return `${rec.name}|${stable(rec.args)}|${outcome}`;
}

/** @param {unknown} v @returns {string} */
function stable(v) {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'undefined';
  if (Array.isArray(v)) return `[${v.map(stable).join(',')}]`;
  return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${stable(/** @type {any} */ (v)[k])}`).join(',')}}`;
}

/** A short FNV-1a hash, so long outcomes do not fill memory. @param {string} s */
function hash(s) {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 0x01000193); }
  return (h >>> 0).toString(36);
}
