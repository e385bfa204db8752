// The isolated half of the channel hold (docs/SECURITY.md): the page-world helper (content/page-world.js)
// tells, over the keyed page channel, each WebSocket handshake, WebSocket frame and data-channel
// frame the page sends while its tab is held; this script asks the background, which judges it as
// it judges a held HTTP request (service/channel-hold.js), and hands the answer back. It also
// answers the helper's question whether the tab is held, and passes on each change the background
// pushes. The background trusts none of what is said here beyond its own tab and frame.
// Isolated world, document_start, after content/page-channel.js.
import { tw } from './tabwright.js';

tw.channelHold = true;
const api = /** @type {any} */ (globalThis).browser ?? /** @type {any} */ (globalThis).chrome;
const { name } = tw.pageChannel;
/** One document's id: the background keys a frame's replies by it. */
const doc = Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, '0')).join('');
/** @param {string} kind @param {unknown} detail */
const toPage = (kind, detail) => document.dispatchEvent(new CustomEvent(name(kind), { detail: JSON.stringify(detail) }));
/** @param {string} kind @param {(data: any) => void} fn */
const fromPage = (kind, fn) => document.addEventListener(name(kind), (e) => {
  try { fn(JSON.parse(String(/** @type {CustomEvent} */ (e).detail))); } catch { /* malformed */ }
});
/** @param {Record<string, unknown>} msg @returns {Promise<any>} */
const background = (msg) => api.runtime.sendMessage(msg);

/** The newest state heard (the background numbers them: an old answer never undoes a newer push). */
let seq = -1;
/** @param {{ held?: unknown, seq?: unknown }} s */
function state(s) {
  if (typeof s?.seq !== 'number' || s.seq <= seq) return;
  seq = s.seq;
  toPage('channel-state', { held: s.held === true });
}
// No background to ask (the extension was reloaded): no run can hold this tab.
fromPage('channel-state?', () => { background({ type: 'channelHold.state' }).then((r) => state(r?.data ?? { held: false, seq: 0 }), () => state({ held: false, seq: 0 })); });
api.runtime.onMessage.addListener((/** @type {any} */ msg) => { if (msg?.type === 'channelHold.state') state(msg); });

fromPage('channel-send', (d) => {
  if (typeof d?.id !== 'number') return;
  const what = { channel: d.channel, method: d.method, url: d.url, bytes: d.bytes, ...(typeof d.text === 'string' ? { text: d.text.slice(0, 64 * 1024) } : {}) };
  // Unreachable background, or an answer that is not a yes: the frame stays in the page.
  background({ type: 'channelHold.send', doc, id: d.id, what })
    .then((r) => r?.ok === true && r.data?.allow === true, () => false)
    .then((allow) => toPage('channel-answer', { id: d.id, allow }));
});
// A sender the page-world helper refused while the tab is held (a shared worker): the run hears it.
fromPage('channel-refused', (d) => {
  if (d?.channel !== 'shared_worker') return;
  background({ type: 'channelHold.refused', what: { channel: 'shared_worker', url: String(d.url ?? '').slice(0, 2048) } }).catch(() => {});
});
fromPage('channel-reply', (d) => {
  if (typeof d?.id !== 'number') return;
  const reply = typeof d.text === 'string' ? { text: d.text.slice(0, 64 * 1024) } : typeof d.error === 'string' ? { error: d.error.slice(0, 100) } : { bytes: Number(d.bytes) || 0 };
  background({ type: 'channelHold.reply', doc, id: d.id, reply }).catch(() => {});
});
