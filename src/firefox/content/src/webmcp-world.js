// WebMCP in the page's own world (MAIN, document_start): where the page declares tools through the
// browser's WebMCP API (document.modelContext, or navigator.modelContext in earlier drafts:
// getTools() and executeTool(); Chrome's first preview: navigator.modelContextTesting.listTools()
// and executeTool(name, json)), the isolated content script (content/webmcp.js) asks here to list
// or call them, over the page channel whose event names carry a key the page never sees
// (content/page-channel.js). Nothing is polyfilled: a page without the API has no tools.
// A failure goes back as a catalog code and its specifics only ({ ok: false, code, detail }):
// content/webmcp.js words it from the catalog, so the page's world carries no copy of it.
const add = EventTarget.prototype.addEventListener;
const remove = EventTarget.prototype.removeEventListener;
const dispatch = EventTarget.prototype.dispatchEvent;
const Custom = CustomEvent;
const stringify = JSON.stringify;
const parse = JSON.parse;
let channel = '';
/** Why a page has no tools, said when it has none. */
const NO_API = 'the browser or the page has no navigator.modelContext';

/** @param {Event} e */
function onKey(e) {
  const key = /** @type {CustomEvent} */ (e).detail;
  if (channel || typeof key !== 'string' || !/^[0-9a-f]{24}$/.test(key)) return;
  channel = `tabwright-${key}`;
  remove.call(document, 'tabwright:key', onKey);
  add.call(document, `${channel}:webmcp-ask`, onAsk);
}
add.call(document, 'tabwright:key', onKey);

/** The page's WebMCP surface, if any. */
function api() {
  const d = /** @type {any} */ (document).modelContext;
  const n = /** @type {any} */ (navigator).modelContext;
  const testing = /** @type {any} */ (navigator).modelContextTesting;
  for (const c of [d, n]) if (c && typeof c.getTools === 'function' && typeof c.executeTool === 'function') return { kind: 'spec', c };
  if (testing && typeof testing.listTools === 'function' && typeof testing.executeTool === 'function') return { kind: 'testing', c: testing };
  return null;
}

/** @param {unknown} s */
const schemaOf = (s) => { try { return typeof s === 'string' ? parse(s) : s && typeof s === 'object' ? parse(stringify(s)) : undefined; } catch { return undefined; } };

async function list() {
  const a = api();
  if (!a) return { ok: false, code: 'WEBMCP_UNAVAILABLE', detail: NO_API };
  const tools = await (a.kind === 'spec' ? a.c.getTools() : a.c.listTools());
  return { ok: true, data: { tools: [...(tools ?? [])].slice(0, 100).map((t) => ({ name: String(t.name), description: String(t.description ?? '').slice(0, 2000), inputSchema: schemaOf(t.inputSchema) ?? { type: 'object' } })) } };
}

/** @param {string} name @param {Record<string, unknown>} input */
async function call(name, input) {
  const a = api();
  if (!a) return { ok: false, code: 'WEBMCP_UNAVAILABLE', detail: NO_API };
  if (a.kind === 'testing') return { ok: true, data: await a.c.executeTool(name, stringify(input)) };
  const tool = [...((await a.c.getTools()) ?? [])].find((t) => t.name === name);
  if (!tool) return { ok: false, code: 'PAGE_TOOL_UNKNOWN', detail: stringify(name) };
  try {
    return { ok: true, data: await a.c.executeTool(tool, input) };
  } catch (err) {
    // Chrome's builds up to 153 take the input as JSON text.
    if (!(err instanceof TypeError)) throw err;
    return { ok: true, data: await a.c.executeTool(tool, stringify(input)) };
  }
}

/** @param {Event} e */
async function onAsk(e) {
  /** @type {any} */
  let req;
  try { req = parse(String(/** @type {CustomEvent} */ (e).detail)); } catch { return; }
  /** @type {any} */
  let reply;
  try {
    reply = req.op === 'list' ? await list() : await call(String(req.name), req.input ?? {});
  } catch (err) {
    reply = { ok: false, code: 'PAGE_TOOL_FAILED', detail: String(err instanceof Error ? err.message : err).slice(0, 2000) };
  }
  let detail;
  try { detail = stringify({ id: req.id, ...reply }); } catch { detail = stringify({ id: req.id, ok: false, code: 'PAGE_TOOL_FAILED', detail: 'it answered with something that is not JSON' }); }
  dispatch.call(document, new Custom(`${channel}:webmcp-reply`, { detail }));
}

// A module of its own (its names stay its own); npm run sync joins it into the classic script.
export {};
