// The isolated side of WebMCP (agent/tools/webmcp.js): content.webmcpList and content.webmcpCall
// ask content/webmcp-world.js, in the page's own world, over the keyed page channel, and turn what
// the page's tool returned into text.
import { tw } from './tabwright.js';

let seq = 0;
/** Longest answer of a page tool the model gets. */
const MAX_CHARS = 30_000;

/** @param {Record<string, unknown>} req @param {number} timeoutMs @returns {Promise<any>} */
function ask(req, timeoutMs) {
  if (!tw.pageChannel) return Promise.resolve({ ok: false, code: 'WEBMCP_UNAVAILABLE', message: 'The page channel is not open in this page (it predates Tabwright): reload the page.' });
  const id = `w${++seq}`;
  const name = tw.pageChannel.name;
  return new Promise((resolve) => {
    const done = (/** @type {any} */ r) => { clearTimeout(timer); document.removeEventListener(name('webmcp-reply'), onReply); resolve(r); };
    const onReply = (/** @type {Event} */ e) => {
      let r;
      try { r = JSON.parse(String(/** @type {CustomEvent} */ (e).detail)); } catch { return; }
      if (r?.id === id) { delete r.id; done(r); }
    };
    const timer = setTimeout(() => done({ ok: false, code: 'TIMEOUT', message: `The page's tool did not answer within ${Math.round(timeoutMs / 1000)} s.` }), timeoutMs);
    document.addEventListener(name('webmcp-reply'), onReply);
    document.dispatchEvent(new CustomEvent(name('webmcp-ask'), { detail: JSON.stringify({ id, ...req }) }));
  });
}

/** A tool's answer as text: MCP-style content parts, a string, or JSON. @param {unknown} data */
function asText(data) {
  const d = /** @type {any} */ (data);
  let text = typeof d === 'string' ? d
    : Array.isArray(d?.content) ? d.content.map((/** @type {any} */ c) => (c?.type === 'text' ? String(c.text) : JSON.stringify(c))).join('\n')
      : JSON.stringify(d) ?? '';
  if (text.length > MAX_CHARS) text = `${text.slice(0, MAX_CHARS)}\n… (${text.length - MAX_CHARS} more characters cut)`;
  return text;
}

Object.assign(tw.handlers, {
  'content.webmcpList': () => ask({ op: 'list' }, 5_000),
  'content.webmcpCall': async (/** @type {{ name: string, input?: Record<string, unknown>, timeoutMs?: number }} */ msg) => {
    const r = await ask({ op: 'call', name: msg.name, input: msg.input ?? {} }, msg.timeoutMs ?? 30_000);
    return r.ok ? { ok: true, data: asText(r.data) } : r;
  },
});
