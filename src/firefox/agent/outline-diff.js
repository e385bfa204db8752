// What changed between two outlines of the same page, so an action's result can say it in a few
// lines instead of the whole outline again. Lines are matched by ref (a ref is the same element
// in both), other lines by their text. Browser-free.

// A role line's own ref is its last "[…]"; text lines never start with "- " (the outline
// quotes them), so page text that spells out "[e5]" cannot pass for an element.
const REF_IN_LINE = /^\s*- .*\[((?:f\d+:)?e\d+)\]/;

/**
 * @param {string} before @param {string} after
 * @returns {{ added: string[], removed: string[], changed: string[], dialog: boolean }}
 */
export function diffOutlines(before, after) {
  const a = before.split('\n');
  const b = after.split('\n');
  /** @param {string[]} lines */
  const byRef = (lines) => new Map(lines.flatMap((l) => { const m = REF_IN_LINE.exec(l); return m ? [[m[1], l]] : []; }));
  const refsA = byRef(a);
  const refsB = byRef(b);
  /** @type {Map<string, number>} counts of the lines without a ref in `before` */
  const plainA = new Map();
  for (const l of a) if (!REF_IN_LINE.test(l)) plainA.set(l.trim(), (plainA.get(l.trim()) ?? 0) + 1);
  /** @type {string[]} */ const added = [];
  /** @type {string[]} */ const changed = [];
  for (const l of b) {
    const m = REF_IN_LINE.exec(l);
    if (m) {
      const old = refsA.get(m[1]);
      if (old === undefined) added.push(l);
      else if (old.trim() !== l.trim()) changed.push(l);
      continue;
    }
    const k = l.trim();
    const left = plainA.get(k) ?? 0;
    if (left > 0) plainA.set(k, left - 1); else added.push(l);
  }
  /** @type {string[]} */
  const removed = [];
  for (const l of a) {
    const m = REF_IN_LINE.exec(l);
    if (m) { if (!refsB.has(m[1])) removed.push(l); continue; }
    const k = l.trim();
    const left = plainA.get(k) ?? 0;
    if (left > 0) { removed.push(l); plainA.set(k, left - 1); }
  }
  const dialog = added.some((l) => /^\s*- (alertdialog|dialog)\b/.test(l));
  return { added, removed, changed, dialog };
}

/**
 * The diff as text for the model, or null when the page did not change.
 * @param {ReturnType<typeof diffOutlines>} d
 */
export function renderDiff(d) {
  if (!d.added.length && !d.removed.length && !d.changed.length) return null;
  const out = [];
  if (d.dialog) out.push('A dialog opened.');
  out.push(`Outline changes: ${d.added.length} added, ${d.removed.length} removed, ${d.changed.length} changed.`);
  for (const l of d.changed) out.push(`~ ${l.trim()}`);
  for (const l of d.added) out.push(`+ ${l}`);
  for (const l of d.removed) out.push(`- ${l.trim()}`);
  return out.join('\n');
}
