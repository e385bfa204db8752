// The isolated-world side of the listener tracker (content/page-world.js): asks the page world which elements have
// click-like listeners and collects them, synchronously, for the outline. What it learned is kept:
// later passes ask only for what was noted since (a page with a thousand wired elements would
// otherwise dispatch a thousand events per snapshot).
import { tw } from './tabwright.js';
import * as Dom from './dom.js';

/** Every element the page world has told of, in any document of this frame. @type {WeakSet<Element>} */
const known = new WeakSet();
/** Documents already asked for everything (the first question is "?all"). @type {WeakSet<Document>} */
const asked = new WeakSet();

/** True while this instance asks: an instance left behind by an extension reload keeps its listener but never asks again, so it lets the events pass. */
let asking = false;

/** @param {Event} e */
function onNote(e) {
  if (!asking) return;
  const el = /** @type {Element} */ (e.composedPath()[0]);
  if (el && el.nodeType === 1) known.add(el);
  e.stopImmediatePropagation();
}

/**
 * @param {Document} [doc] the document to ask; same-origin frames inside it are asked too
 * @returns {WeakSet<Element>}
 */
function collect(doc = document) {
  const win = doc.defaultView;
  if (!win) return known;
  const { name } = tw.pageChannel;
  let question = name('listeners?');
  if (!asked.has(doc)) {
    // Listening for good (the events come only when asked): one listener per window, not one per snapshot.
    asked.add(doc);
    win.addEventListener(name('listener'), onNote, true);
    question = name('listeners?all');
  }
  asking = true;
  try { doc.dispatchEvent(new win.CustomEvent(question)); } finally { asking = false; }
  for (const frame of doc.getElementsByTagName('iframe')) {
    const inner = Dom.sameOriginDocument(frame);
    if (inner) collect(inner);
  }
  return known;
}

export { collect };
