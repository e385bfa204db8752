// The isolated side of WebMCP (agent/tools/webmcp.js): content.webmcpList and content.webmcpCall
// ask content/webmcp-world.js, in the page's own world, over the keyed page channel, and turn what
// the page's tool returned into text.
import { tw } from './tabwright.js';
import { fail } from '../../agent/error-codes.js';

let seq = 0;
/** Longest answer of a page tool the model gets. */
const MAX_CHARS = 30_000;

/** The codes the page's world answers with (content/webmcp-world.js); anything else is the page's tool failing. */
const WORLD_CODES = /** @type {const} */ (['WEBMCP_UNAVAILABLE', 'PAGE_TOOL_UNKNOWN', 'PAGE_TOOL_FAILED']);

/**
 * A reply from the page's world, its failure worded from the catalog: that world sends only a code
 * and the specifics, and it is the page's, so an unknown code is taken as the tool failing.
 * @param {any} r
 */
function worded(r) {
  if (r?.ok === true) return r;
  const code = WORLD_CODES.find((c) => c === r?.code) ?? 'PAGE_TOOL_FAILED';
  return fail(code, typeof r?.detail === 'string' ? r.detail.slice(0, 2000) : undefined);
}

/** @param {Record<string, unknown>} req @param {number} timeoutMs @returns {Promise<any>} */
function ask(req, timeoutMs) {
  if (!tw.pageChannel) return Promise.resolve(fail('PAGE_CHANNEL_CLOSED'));
  const id = `w${++seq}`;
  const name = tw.pageChannel.name;
  return new Promise((resolve) => {
    const done = (/** @type {any} */ r) => { clearTimeout(timer); document.removeEventListener(name('webmcp-reply'), onReply); resolve(r); };
    const onReply = (/** @type {Event} */ e) => {
      let r;
      try { r = JSON.parse(String(/** @type {CustomEvent} */ (e).detail)); } catch { return; }
      if (r?.id === id) { delete r.id; done(worded(r)); }
    };
    const timer = setTimeout(() => done(fail('PAGE_TOOL_TIMEOUT', `no answer within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
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
