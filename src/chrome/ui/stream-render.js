// An answer as it streams in, rendered at a cost that grows with its length, not with its square:
// deltas are gathered and drawn once per animation frame; the text before the last block boundary
// (a blank line outside a code fence) is rendered once and appended, and only the tail after it is
// rendered again. When the answer ends, the same renderer draws the rest, so nothing is parsed twice.
import { markdownToFragment } from './markdown.js';

/**
 * Where the stable part of a markdown text ends: just after its last blank line outside a code
 * fence (three or more backticks or tildes), scanning from the given offset with the fence open
 * there. Returns that end (or the offset) and the fence open at it.
 * @param {string} text @param {number} from @param {string | null} fence
 * @returns {{ end: number, fence: string | null }}
 */
export function stableEnd(text, from, fence) {
  let end = from;
  let atEnd = fence;
  let open = fence;
  let i = from;
  while (i < text.length) {
    const nl = text.indexOf('\n', i);
    if (nl < 0) break;
    const line = text.slice(i, nl);
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker) {
      if (!open) open = marker;
      else if (marker[0] === open[0] && marker.length >= open.length) open = null;
    } else if (!open && line.trim() === '' && i > 0) {
      end = nl + 1;
      atEnd = null;
    }
    i = nl + 1;
  }
  return { end, fence: end === from ? fence : atEnd };
}

/**
 * @param {HTMLElement} el the message element (its children are replaced)
 * @param {(cb: () => void) => unknown} [frame] requestAnimationFrame, or a test's scheduler
 */
export function createStreamRenderer(el, frame = (cb) => requestAnimationFrame(cb)) {
  const stable = document.createElement('div');
  stable.className = 'md-stable';
  const tail = document.createElement('div');
  tail.className = 'md-tail';
  el.replaceChildren(stable, tail);
  let text = '';
  let done = 0;
  /** The fence open at `done` (always null: a boundary is never inside a fence). @type {string | null} */
  let fence = null;
  let scheduled = false;

  function draw() {
    scheduled = false;
    const cut = stableEnd(text, done, fence);
    if (cut.end > done) {
      stable.append(markdownToFragment(text.slice(done, cut.end)));
      done = cut.end;
      fence = cut.fence;
    }
    tail.replaceChildren(markdownToFragment(text.slice(done)));
  }

  return {
    /** @param {string} delta */
    append(delta) {
      text += delta;
      if (!scheduled) { scheduled = true; frame(draw); }
    },
    /** Everything received so far. */
    get text() { return text; },
    /** Draw now (the answer ended). */
    flush() { draw(); },
  };
}
