// Frame identity: the background tells each frame its browser frameId (with a nonce) before a
// snapshot; the frame passes it to its parent with postMessage, so the parent's outline can mark a
// cross-origin <iframe> with the frameId whose own outline the background splices in there.
import { tw } from './tabwright.js';
import * as Dom from './dom.js';
import * as Refs from './refs.js';
import { fail } from '../../agent/error-codes.js';

/** @type {{ source: MessageEventSource | null, frameId: number, nonce: string }[]} */
let heard = [];

window.addEventListener('message', (e) => {
  const d = e.data;
  if (!d || typeof d !== 'object' || typeof d.__tabwrightFrame !== 'number' || typeof d.nonce !== 'string') return;
  heard = heard.filter((h) => h.source !== e.source).concat({ source: e.source, frameId: d.__tabwrightFrame, nonce: d.nonce }).slice(-200);
});

/**
 * The frameId of a child frame element, if that frame introduced itself for this snapshot.
 * @param {Element} iframe @param {string | undefined} nonce
 */
function frameIdOf(iframe, nonce) {
  if (!nonce) return null;
  let win;
  try { win = /** @type {HTMLIFrameElement} */ (iframe).contentWindow; } catch { return null; }
  const h = heard.find((x) => x.source === win && x.nonce === nonce);
  return h ? h.frameId : null;
}

/**
 * Waits (at most `ms`) until `count` child frames have introduced themselves for this snapshot:
 * their postMessage can arrive after the background has already asked this frame for its outline.
 * @param {string | undefined} nonce @param {number} count @param {number} [ms]
 * @returns {Promise<void>}
 */
function introduced(nonce, count, ms = 300) {
  const done = () => !nonce || heard.filter((h) => h.nonce === nonce).length >= count;
  if (done()) return Promise.resolve();
  const until = Date.now() + ms;
  return new Promise((resolve) => {
    const tick = () => (done() || Date.now() > until ? resolve() : setTimeout(tick, 10));
    tick();
  });
}

Object.assign(tw.handlers, {
  'content.frameHello': (/** @type {{ frameId: number, nonce: string }} */ msg) => {
    Refs.setFrameId(msg.frameId);
    if (window.parent !== window) window.parent.postMessage({ __tabwrightFrame: msg.frameId, nonce: msg.nonce }, '*');
    return { ok: true, data: { frameId: msg.frameId } };
  },
});
/** The <iframe>/<frame> element whose window introduced itself as this frameId. @param {number} childId */
function frameElementOf(childId) {
  const h = [...heard].reverse().find((x) => x.frameId === childId);
  if (!h) return null;
  for (const el of Dom.deepElements(document)) {
    if (el.localName !== 'iframe' && el.localName !== 'frame') continue;
    try { if (/** @type {HTMLIFrameElement} */ (el).contentWindow === h.source) return el; } catch { /* detached */ }
  }
  return null;
}

Object.assign(tw.handlers, {
  /**
   * Where a child frame's viewport starts in this frame's viewport: the frame element's box plus its
   * border and padding (CSS 2 box model: the content box holds the child document). The background
   * sums these up the parent chain so trusted input lands at the child's element.
   */
  'content.frameBox': async (/** @type {{ child: number, nonce?: string }} */ msg) => {
    await introduced(msg.nonce, 1);
    const el = frameElementOf(msg.child);
    if (!el) return fail('FRAME_UNKNOWN', `${msg.child} is not an iframe of this page any more; take a new snapshot`);
    // The child's own scrollIntoView reaches this frame asynchronously across processes (Chrome's
    // out-of-process iframes): let it land, then bring the frame into view here before measuring.
    await new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
    el.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'instant' });
    const r = el.getBoundingClientRect(), s = getComputedStyle(el);
    const px = (/** @type {string} */ v) => parseFloat(v) || 0;
    return { ok: true, data: {
      x: r.left + px(s.borderLeftWidth) + px(s.paddingLeft), y: r.top + px(s.borderTopWidth) + px(s.paddingTop),
      width: r.width, height: r.height, viewport: { width: innerWidth, height: innerHeight },
    } };
  },
  /** What get_frames shows of a frame from inside it. */
  'content.frameInfo': () => ({ ok: true, data: { title: document.title, name: window.name } }),
});

export { frameIdOf, introduced, frameElementOf };
