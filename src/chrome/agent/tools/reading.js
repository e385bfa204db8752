// Reading tools beyond the outline: screenshot, get_html, console_logs, fetch_url, list_downloads.
/** @import { Tool, ToolResult } from '../../types/core' */
import { TARGET_PROPS, targetOf } from './act.js';
import { fail } from '../error-codes.js';

/** @type {Tool} */
export const screenshot = {
  name: 'screenshot',
  description: 'A PNG of the visible part of the page, of the whole page (full_page), or of one element (ref/text/selector). Use when layout or images matter; the outline is cheaper for text.',
  parameters: { type: 'object', properties: { ...TARGET_PROPS, full_page: { type: 'boolean' } }, additionalProperties: false },
  effects: ['reads_page'],
  replay: 'target-optional',
  says: (t) => t('toolSays_screenshot'),
  async run(args, ctx) {
    const target = targetOf(args) ?? undefined;
    const g = await ctx.browser.sendToContent(ctx.tabId, { type: 'content.geometry', target, fullPage: args.full_page === true });
    if (!g.ok) return g;
    const geo = /** @type {{ viewport: { scrollX: number, scrollY: number, width: number, height: number, dpr: number }, clip?: { x: number, y: number, width: number, height: number } }} */ (g.data);
    try {
      const shot = await ctx.browser.screenshot(ctx.tabId, geo);
      const base64 = shot.dataUrl.slice(shot.dataUrl.indexOf(',') + 1);
      return { ok: true, data: { width: shot.width, height: shot.height, bytes: Math.round(base64.length * 0.75), what: target ? 'element' : args.full_page ? 'full page' : 'viewport' }, image: { mediaType: 'image/png', data: base64 } };
    } catch (err) {
      return fail('SCREENSHOT_FAILED', String(err instanceof Error ? err.message : err), { retryable: true });
    }
  },
};

/** @type {Tool} */
export const getHtml = {
  name: 'get_html',
  description: 'The HTML of an element (ref/text/selector) or of the whole page, scripts and styles emptied, capped at max_chars (default 20000). For structure the outline does not show.',
  parameters: { type: 'object', properties: { ...TARGET_PROPS, max_chars: { type: 'integer', minimum: 100, maximum: 100000 } }, additionalProperties: false },
  effects: ['reads_page'],
  replay: 'target-optional',
  replayOutput: true,
  says: (t, c) => (c.element() ? t('toolSays_get_html', c.element()) : t('toolSays_get_html_page')),
  async run(args, ctx) {
    return ctx.browser.sendToContent(ctx.tabId, { type: 'content.html', target: targetOf(args) ?? undefined, maxChars: args.max_chars });
  },
};

/** @type {Tool} */
export const consoleLogs = {
  name: 'console_logs',
  description: 'The page\'s recent console messages and uncaught exceptions (since the page loaded), newest last; an exception or a logged Error comes with its stack. level: one level (log, info, warn, error, debug, exception; error includes exceptions); levels: several.',
  parameters: {
    type: 'object',
    properties: {
      level: { type: 'string', enum: ['log', 'info', 'warn', 'error', 'debug', 'exception'] },
      levels: { type: 'array', items: { type: 'string', enum: ['log', 'info', 'warn', 'error', 'debug', 'exception'] }, maxItems: 6 },
      max: { type: 'integer', minimum: 1, maximum: 500 },
      clear: { type: 'boolean' },
    },
    additionalProperties: false,
  },
  effects: ['reads_page'],
  says: (t) => t('toolSays_console_logs'),
  async run(args, ctx) {
    return ctx.browser.sendToContent(ctx.tabId, { type: 'content.console', level: args.level, levels: args.levels, max: args.max, clear: args.clear === true });
  },
};

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/** @type {Tool} */
export const fetchUrl = {
  name: 'fetch_url',
  description: 'Fetch a URL from the extension (not the page) and return its text, capped: for APIs, feeds and documents linked from the page. Use GET or HEAD to read. Any other method changes data on a server: only when the user asked for it, and Tabwright asks the user to confirm first (Act mode only).',
  parameters: {
    type: 'object',
    properties: {
      url: { type: 'string' },
      method: { type: 'string', enum: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] },
      headers: { type: 'object', additionalProperties: { type: 'string' } },
      body: { type: 'string' },
      max_chars: { type: 'integer', minimum: 100, maximum: 100000 },
    },
    required: ['url'],
    additionalProperties: false,
  },
  // A GET reads (Ask mode may fetch from the page's own site); another method writes: Act only, asked first.
  effects: ['reads_page', 'leaves_origin'],
  says: (t, c) => {
    const method = String(c.arg?.('method') ?? 'GET').toUpperCase();
    if (SAFE_METHODS.has(method)) return t('toolSays_fetch_url', c.url());
    // Only a write that went through may say it was sent: one refused or failed only tried.
    return t(c.ok ? 'toolSays_fetch_url_send' : 'toolSays_fetch_url_send_failed', [method, c.url()]);
  },
  effectsFor: (args) => SAFE_METHODS.has(String(args.method ?? 'GET').toUpperCase()) ? ['reads_page', 'leaves_origin'] : ['reads_page', 'leaves_origin', 'writes_server'],
  async run(args, ctx) {
    let url;
    try { url = new URL(String(args.url)); } catch { return fail('INVALID_URL', `"${args.url}" is not an absolute URL`); }
    if (!/^https?:$/.test(url.protocol)) return fail('INVALID_URL', 'only http and https URLs can be fetched');
    const method = String(args.method ?? 'GET').toUpperCase();
    return ctx.browser.fetchUrl(url.href, { method, headers: args.headers, body: SAFE_METHODS.has(method) ? undefined : args.body, maxChars: args.max_chars, signal: ctx.signal });
  },
};

/** @type {Tool} */
export const listDownloads = {
  name: 'list_downloads',
  description: 'Recent downloads, newest first: file name, URL, state (in_progress, complete, interrupted), size.',
  parameters: { type: 'object', properties: { query: { type: 'string', description: 'Only downloads whose name or URL contains this.' }, limit: { type: 'integer', minimum: 1, maximum: 100 } }, additionalProperties: false },
  effects: ['reads_page'],
  says: (t) => t('toolSays_list_downloads'),
  async run(args, ctx) {
    try {
      return { ok: true, data: await ctx.browser.listDownloads({ query: args.query, limit: args.limit }) };
    } catch (err) {
      return /** @type {ToolResult} */ (fail('DOWNLOADS_UNAVAILABLE', String(err instanceof Error ? err.message : err)));
    }
  },
};

/** @type {Tool} */
export const readPdf = {
  name: 'read_pdf',
  description: 'The text of a PDF, page by page: the PDF open in this tab, or url. from_page/to_page (1-based, inclusive) choose a range; long documents are capped at max_chars.',
  parameters: {
    type: 'object',
    properties: {
      url: { type: 'string', description: 'The PDF\'s address (default: the current tab\'s).' },
      from_page: { type: 'integer', minimum: 1 },
      to_page: { type: 'integer', minimum: 1 },
      max_chars: { type: 'integer', minimum: 500, maximum: 200000 },
    },
    additionalProperties: false,
  },
  effects: ['reads_page', 'leaves_origin'],
  says: (t, c) => (c.arg?.('url') ? t('toolSays_read_pdf', c.url()) : t('toolSays_read_pdf_tab')),
  // Without url it reads the PDF the tab already shows: nothing leaves.
  effectsFor: (args) => (args.url ? ['reads_page', 'leaves_origin'] : ['reads_page']),
  async run(args, ctx) {
    const url = args.url ? String(args.url) : (await ctx.browser.getTab(ctx.tabId))?.url ?? '';
    if (!/^https?:/.test(url)) return fail('INVALID_URL', 'give the PDF\'s http(s) url, or open the PDF in the tab first');
    if (args.from_page && args.to_page && args.to_page < args.from_page) return fail('INVALID_ARGUMENTS', 'to_page comes before from_page');
    if (args.url) {
      // The PDF reader follows redirects by itself: a HEAD first, which follows none to another origin, says where the address leads.
      const probe = await ctx.browser.fetchUrl(url, { method: 'HEAD', maxChars: 100, signal: ctx.signal });
      if (!probe.ok && probe.code === 'REDIRECT_REFUSED') return probe;
    }
    try {
      return { ok: true, data: await ctx.browser.readPdf(url, { from: args.from_page, to: args.to_page, maxChars: args.max_chars }) };
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      return { ok: false, code: /Invalid PDF|PDF header/i.test(why) ? 'NOT_A_PDF' : 'PDF_FAILED', message: `Could not read ${url} as a PDF: ${why}` };
    }
  },
};
