// The developer tools: execute_js, network_requests, inspect_styles and inject_css. Offered only in
// Act mode and only when the user turned on Settings → Developer tools (Tool.developer); the tool
// runner can always call them. What each may do is declared on it (types/safety.d.ts).
/** @import { Tool } from '../../types/core' */
import { TARGET_PROPS, targetOf } from './act.js';
import { evalSource, guessForm, readEvalReply } from '../js-eval.js';
import { filterEntries, formatEntries, isTextMime, maskHeaders, maskUrl } from '../network-view.js';
import { fail } from '../error-codes.js';

const DEFAULT_CHARS = 10_000;

/** @type {Tool} */
export const executeJs = {
  name: 'execute_js',
  description: 'Run JavaScript in the page\'s own world (its variables, its framework) and get the result: an expression (`document.title`), or a function body with return (`const rows = document.querySelectorAll("tr"); return rows.length`). await works; a promise is awaited. The value comes back serialised and capped; a thrown error comes back with its stack. For facts the outline cannot give (app state, computed data); not for clicking or typing (use the input tools). Tabwright asks the user first unless they allowed code on this site.',
  parameters: {
    type: 'object',
    properties: {
      code: { type: 'string', minLength: 1, maxLength: 50_000 },
      timeout_ms: { type: 'integer', minimum: 100, maximum: 60_000 },
      max_chars: { type: 'integer', minimum: 100, maximum: 100_000 },
    },
    required: ['code'],
    additionalProperties: false,
  },
  effects: ['reads_page', 'acts_on_page', 'runs_code'],
  says: (t) => t('toolSays_execute_js'),
  developer: true,
  async run(args, ctx) {
    const code = String(args.code);
    const timeout = args.timeout_ms ?? 10_000;
    const maxChars = Math.min(args.max_chars ?? DEFAULT_CHARS, ctx.resultChars ?? DEFAULT_CHARS);
    const first = guessForm(code);
    let out = await ctx.browser.devtools.evaluate(ctx.tabId, evalSource(code, first), timeout);
    // A syntax error means nothing ran: the other form may be what was meant.
    if ('compileError' in out) {
      const other = await ctx.browser.devtools.evaluate(ctx.tabId, evalSource(code, first === 'body' ? 'expression' : 'body'), timeout);
      if (!('compileError' in other)) out = other;
    }
    return readEvalReply(out, maxChars);
  },
};

/** @type {Tool} */
export const networkRequests = {
  name: 'network_requests',
  description: 'The tab\'s recent requests, oldest first: id, method, status, type, URL, size, time. Kept from when this run (or the first call) began watching the tab; earlier requests are not known. Filter by url (a part of it), status ("404", "4xx", "5xx", "failed"), method or type. body_of: an id from the list, for that response\'s body (text only, capped); headers: true adds request and response headers (credentials masked).',
  parameters: {
    type: 'object',
    properties: {
      url: { type: 'string', maxLength: 2000 },
      status: { type: 'string', maxLength: 10 },
      method: { type: 'string', maxLength: 10 },
      type: { type: 'string', maxLength: 20 },
      limit: { type: 'integer', minimum: 1, maximum: 500 },
      headers: { type: 'boolean' },
      body_of: { type: 'string', maxLength: 40 },
      max_chars: { type: 'integer', minimum: 100, maximum: 100_000 },
    },
    additionalProperties: false,
  },
  effects: ['reads_page'],
  says: (t) => t('toolSays_network_requests'),
  developer: true,
  async run(args, ctx) {
    const log = ctx.browser.devtools.network;
    const began = !log.watching(ctx.tabId);
    await log.watch(ctx.tabId);
    if (args.body_of) return bodyOf(String(args.body_of), args, ctx);
    const all = log.list(ctx.tabId);
    const entries = filterEntries(all, args);
    const lines = formatEntries(entries);
    /** @type {Record<string, unknown>} */
    const data = {
      requests: entries.length,
      of: all.length,
      list: lines || (began ? 'Watching this tab from now on: requests made before this call are not known. Act on the page, then ask again.' : 'No request matches.'),
    };
    if (args.headers) data.headers = entries.map((e) => ({ id: e.id, request: maskHeaders(e.requestHeaders), response: maskHeaders(e.responseHeaders) }));
    return { ok: true, data };
  },
};

/** @param {string} id @param {Record<string, any>} args @param {import('../../types/core').ToolContext} ctx @returns {Promise<import('../../types/core').ToolResult>} */
async function bodyOf(id, args, ctx) {
  const log = ctx.browser.devtools.network;
  const entry = log.list(ctx.tabId).find((e) => e.id === id);
  if (!entry) return fail('NOT_FOUND', `no request has the id "${id}" in this tab's log; list the requests and use an id from the list`);
  if (!isTextMime(entry.mimeType)) return fail('NOT_TEXT', `${maskUrl(entry.url)} answered ${entry.mimeType}`);
  const body = await log.body(ctx.tabId, id, Math.min(args.max_chars ?? DEFAULT_CHARS, ctx.resultChars ?? DEFAULT_CHARS));
  if (!body) return fail('BODY_UNAVAILABLE', `${entry.method} ${maskUrl(entry.url)}`);
  return { ok: true, data: { id, method: entry.method, url: maskUrl(entry.url), status: entry.status, mimeType: entry.mimeType, body: body.text, ...(body.truncated ? { truncated: true } : {}) } };
}

/** @type {Tool} */
export const inspectStyles = {
  name: 'inspect_styles',
  description: 'The computed styles of one element (ref/text/selector): by default the ones that decide layout and visibility (display, position, size, margin, padding, color, font, z-index, overflow, opacity, pointer-events…) and its box; properties: a list of CSS property names to read instead; pseudo: "::before" or "::after".',
  parameters: {
    type: 'object',
    properties: {
      ...TARGET_PROPS,
      properties: { type: 'array', items: { type: 'string', maxLength: 60 }, maxItems: 60 },
      pseudo: { type: 'string', enum: ['::before', '::after', '::marker', '::placeholder'] },
    },
    additionalProperties: false,
  },
  effects: ['reads_page'],
  says: (t, c) => t('toolSays_inspect_styles', c.element()),
  developer: true,
  async run(args, ctx) {
    const target = targetOf(args);
    if (!target) return fail('INVALID_ARGUMENTS', 'name the element: ref (from the snapshot), text or selector');
    return ctx.browser.sendToContent(ctx.tabId, { type: 'content.styles', target, properties: args.properties, pseudo: args.pseudo });
  },
};

/** @type {Tool} */
export const injectCss = {
  name: 'inject_css',
  description: 'Add a style sheet to the page (action "add", with css), remove one (action "remove", with the id add returned) or all you added ("clear"), or list them ("list"). For trying a fix or hiding what is in the way; the page\'s own files are untouched, and New chat takes every sheet away.',
  parameters: {
    type: 'object',
    properties: {
      action: { type: 'string', enum: ['add', 'remove', 'clear', 'list'] },
      css: { type: 'string', maxLength: 100_000 },
      id: { type: 'string', maxLength: 40 },
    },
    required: ['action'],
    additionalProperties: false,
  },
  effects: ['reads_page', 'acts_on_page'],
  says: (t) => t('toolSays_inject_css'),
  effectsFor: (args) => (args.action === 'list' ? ['reads_page'] : ['reads_page', 'acts_on_page']),
  developer: true,
  async run(args, ctx) {
    const css = ctx.browser.devtools;
    if (args.action === 'list') return { ok: true, data: { sheets: css.listCss(ctx.tabId) } };
    if (args.action === 'clear') return { ok: true, data: { removed: await css.removeCss(ctx.tabId) } };
    if (args.action === 'remove') {
      if (!args.id) return fail('INVALID_ARGUMENTS', 'remove needs the id that add returned, or use action "clear"');
      const removed = await css.removeCss(ctx.tabId, String(args.id));
      return removed ? { ok: true, data: { removed } } : fail('NOT_FOUND', `no sheet with the id "${args.id}" was added to this tab; list them with action "list"`);
    }
    if (!args.css?.trim()) return fail('INVALID_ARGUMENTS', 'add needs the css to add');
    try {
      return { ok: true, data: { id: await css.addCss(ctx.tabId, String(args.css)) } };
    } catch (err) {
      return fail('CSS_FAILED', `The style sheet could not be added: ${err instanceof Error ? err.message : err}`);
    }
  },
};
