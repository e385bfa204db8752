// Elements as a person finds them again: a step of a workflow names its target by role,
// accessible name and the landmark it sits in, read from the page's outline (docs/PERCEPTION.md),
// never by a ref, an id or a position. Binding looks the fingerprint up in a fresh outline: one
// match binds; none, or several that the landmark cannot tell apart, fail closed.
/** @import { Fingerprint } from '../../types/workflows' */

/** Landmark roles as the outline shows them (content/roles.js LANDMARK), and dialogs, which scope controls as much. */
const LANDMARKS = new Set(['banner', 'navigation', 'main', 'contentinfo', 'complementary', 'form', 'region', 'search', 'dialog', 'alertdialog']);

/** An element of an outline with a ref. @typedef {{ role: string, name: string, ref: string, landmark: string, line: number }} OutlineElement */

/** `- role "name"` at a line's start, or after ": " / " | " on a row line; the ref ends it. */
const ELEMENT = /(?:^\s*- |: |\| )([a-z]+)(?: (?:hint=)?("(?:[^"\\]|\\.)*"))?(?: value="(?:[^"\\]|\\.)*")?((?: \[[^\]\n]*\])*?) \[((?:f\d+:)?e\d+)\](?=$|[ :])/gm;
/** A select's option list between its line and its ref (content/select-options.js). */
const SELECT_OPTIONS = / options: .*?( \[(?:f\d+:)?e\d+\])$/;
/** A role line at a line's start (landmarks carry no ref). */
const ROLE_LINE = /^(\s*)- ([a-z]+)(?: ("(?:[^"\\]|\\.)*"))?/;

/** @param {string} quoted a JSON string from the outline, or undefined */
function unquote(quoted) {
  if (!quoted) return '';
  try { return JSON.parse(quoted); } catch { return quoted.slice(1, -1); }
}

/** Names compare without case and runs of white space. @param {string} s */
export function normName(s) {
  return String(s ?? '').replace(/\s+/g, ' ').trim().toLowerCase();
}

/**
 * Every element of an outline that has a ref, with the landmark around it.
 * @param {string} outline @returns {OutlineElement[]}
 */
export function outlineElements(outline) {
  /** @type {OutlineElement[]} */
  const out = [];
  /** Open landmarks by indentation. @type {{ depth: number, label: string }[]} */
  const stack = [];
  String(outline ?? '').split('\n').forEach((line, n) => {
    const role = ROLE_LINE.exec(line);
    if (role) {
      const depth = role[1].length;
      while (stack.length && stack[stack.length - 1].depth >= depth) stack.pop();
      if (LANDMARKS.has(role[2])) stack.push({ depth, label: role[3] ? `${role[2]} ${role[3]}` : role[2] });
    }
    const landmark = stack.length ? stack[stack.length - 1].label : '';
    // A native select lists its options before its ref: `- combobox "Size" value="M" options: S | M [selected] [e4]`.
    const el = line.replace(SELECT_OPTIONS, '$1');
    ELEMENT.lastIndex = 0;
    for (let m = ELEMENT.exec(el); m; m = ELEMENT.exec(el)) {
      // A landmark line's own element (a named form with a ref) sits in the landmark around it.
      const own = role && m.index === 0 && LANDMARKS.has(m[1]);
      out.push({ role: m[1], name: unquote(m[2]), ref: m[4], landmark: own ? (stack.length > 1 ? stack[stack.length - 2].label : '') : landmark, line: n });
    }
  });
  return out;
}

/**
 * The fingerprint of the element behind a ref in an outline; null when the outline does not list it.
 * @param {string} outline @param {string} ref @returns {Fingerprint | null}
 */
export function fingerprintOf(outline, ref) {
  const el = outlineElements(outline).find((e) => e.ref === ref);
  return el ? { role: el.role, name: el.name, landmark: el.landmark } : null;
}

/**
 * Finds a fingerprint in a fresh outline.
 * @param {string} outline @param {Fingerprint} target
 * @returns {{ ok: true, ref: string, landmarkMoved: boolean } | { ok: false, reason: 'missing' | 'ambiguous', count: number }}
 */
export function bindTarget(outline, target) {
  const name = normName(target.name);
  const same = outlineElements(outline).filter((e) => e.role === target.role && normName(e.name) === name);
  if (same.length === 1) return { ok: true, ref: same[0].ref, landmarkMoved: same[0].landmark !== target.landmark };
  if (!same.length) return { ok: false, reason: 'missing', count: 0 };
  const inPlace = same.filter((e) => e.landmark === target.landmark);
  if (inPlace.length === 1) return { ok: true, ref: inPlace[0].ref, landmarkMoved: false };
  return { ok: false, reason: 'ambiguous', count: inPlace.length || same.length };
}

/** A fingerprint as a person reads it: `button "Send request" in form "Order"`. @param {Fingerprint} f */
export function describeTarget(f) {
  return `${f.role} "${f.name}"${f.landmark ? ` in ${f.landmark}` : ''}`;
}

/** A step as a person reads it: `click button "Send request" in main`. @param {{ tool: string, target?: Fingerprint }} s */
export function describeStep(s) {
  return `${s.tool.replace(/_/g, ' ')}${s.target ? ` ${describeTarget(s.target)}` : ''}`;
}

/**
 * The headings of an outline (their names), for what a step must see before it acts.
 * @param {string} outline @returns {string[]}
 */
export function headingsOf(outline) {
  /** @type {string[]} */
  const out = [];
  for (const line of String(outline ?? '').split('\n')) {
    const m = /^\s*- heading ("(?:[^"\\]|\\.)*")/.exec(line);
    if (m) out.push(unquote(m[1]));
  }
  return out;
}
