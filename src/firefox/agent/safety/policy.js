// The safety policy: one place decides, from what a step does (the effects its tool declares, the
// requests it causes, the URL it opens, the data it carries), whether it runs, asks the user, or is
// refused. It never looks only at a button's name: element semantics only raise a card's severity.
// See docs/SECURITY.md for the rules, what they cover and what they cannot.
/** @import { ConfirmCategory, ConfirmDetail, ConfirmRequest, ConfirmRule, ConfirmScope, Effect, HeldRequest, SecretVault } from '../../types/safety' */
/** @import { Mode } from '../../types/core' */
/** @import { TaskScope } from './scope.js' */
/** @import { ErrorCode } from '../error-codes.js' */
import { dataInUrl, originOf, siteLabel } from './scope.js';
import { elementCategory } from './semantics.js';
import { createPageMemory, shapedData } from './page-data.js';
import { createLookalikeIndex } from './lookalike.js';
import { executableKind, undeclaredDocument } from './executables.js';
import { bodyKeys, fieldsOf, operationOf, writeKind } from './write-kind.js';
import { fieldDetails, maskValue } from './card-details.js';
import { unreadableText } from './request-body.js';
import { CARRIES_DATA, formFields, judgedUrl, pathOf, safeDecode, shortOp, stringsOf, withoutHash, writeSignature } from './request-facts.js';

/** Methods that never change data (a CORS preflight asks nothing either). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Resource types that send data out even with GET. */
const SENDING_TYPES = new Set(['ping', 'beacon', 'csp_report', 'csp-report']);
/** execute_js code that reads what signs the user in (cookies, storage)… */
const READS_SESSION = /document\s*\.\s*cookie|\bcookieStore\b|\b(?:local|session)Storage\b|\bindexedDB\b/;
/** …and can send it somewhere. */
const CAN_SEND = /\bfetch\s*\(|\bXMLHttpRequest\b|\bsendBeacon\b|\bWebSocket\b|\bEventSource\b|\bnew\s+Image\b|\.src\s*=|\bsetAttribute\s*\(\s*['"](?:src|href|action)|\blocation(?:\.href)?\s*=|\bwindow\.open\s*\(|\.submit\s*\(|\bimport\s*\(/;

/**
 * @typedef {object} CallFacts
 * @property {string} tool
 * @property {Record<string, any>} args
 * @property {readonly Effect[]} effects what this call does (the tool's declaration for these arguments)
 * @property {string} url the acting tab's URL
 * @property {{ role: string, name: string, secretField?: boolean } | null} target the element acted on, when known
 * @property {Mode} mode the run's mode for this call (Plan mode's steps run as act)
 * @property {string | null} [dest] where the call goes, when it names a place (Tool.destination: a URL, or the tab it switches to)
 */
/**
 * @typedef {{ action: 'allow' } | { action: 'ask', request: ConfirmRequest } | { action: 'refuse', code: ErrorCode, message: string }} Verdict
 */

/**
 * @param {object} opts
 * @param {TaskScope} opts.scope
 * @param {string[]} [opts.alwaysAllow] site patterns where writes inside the task scope need no card
 * @param {string[]} [opts.alwaysConfirm] site patterns where every acting step asks
 * @param {boolean} [opts.strictSecrets] refuse, rather than ask, when a secret would go elsewhere
 * @param {SecretVault} [opts.secrets]
 * @param {(url: string) => { name: string } | null} [opts.sensitiveSite] the high-risk site adapter of a URL (banks, payment and
 *   cloud consoles, admin and account security; docs/ADAPTERS.md): every acting step there asks, and the always-allow list does not apply
 */
export function createPolicy(opts) {
  const { scope } = opts;
  const allowSites = (opts.alwaysAllow ?? []).map((s) => s.toLowerCase());
  const confirmSites = (opts.alwaysConfirm ?? []).map((s) => s.toLowerCase());
  /** What "Allow for this task" opened: write kinds (agent/safety/write-kind.js) and code on an origin, each with the highest severity allowed. @type {Map<string, 'normal' | 'high'>} */
  const allowedWrites = new Map();
  /** Destinations the user allowed once on a card before the step ran (navigate): the navigation itself asks no second time. @type {Set<string>} */
  const approvedUrls = new Set();
  /** The URL a destination card asked about. @type {WeakMap<ConfirmRequest, string>} */
  const cardUrls = new WeakMap();
  /** What the page showed the model (policy.notePage). */
  const page = createPageMemory();
  const userText = scope.userText ?? '';
  /** Lookalike references: the user's words, and the words the page showed. */
  const userWords = createLookalikeIndex();
  userWords.add([userText]);
  const pageWords = createLookalikeIndex();
  /** Strings the agent typed or the user wrote: a URL that carries one to another site asks first. @type {string[]} */
  const known = [];
  /** Writes already sent in this task (method, URL and body): the same one again asks first. @type {Set<string>} */
  const sentWrites = new Set();

  const mask = (/** @type {string} */ s) => opts.secrets?.mask(s) ?? s;

  /**
   * Before a tool call runs.
   * @param {CallFacts} f @returns {Verdict}
   */
  function checkCall(f) {
    const { mode } = f;
    const has = (/** @type {Effect} */ e) => f.effects.includes(e);
    const changes = has('acts_on_page') || has('navigates') || has('writes_server') || has('creates_jobs') || has('saves_skills') || has('runs_code') || has('records_tab');
    if (mode !== 'act' && changes) {
      return refuse('NOT_ALLOWED_IN_ASK_MODE', `${f.tool} would change something, and ${mode === 'plan' ? 'planning' : 'Ask mode'} only reads. Answer from what you can read, or tell the user to switch to Act mode.`);
    }
    const dest = f.dest ?? (typeof f.args.url === 'string' ? f.args.url : '');
    if (has('leaves_origin') && dest && mode !== 'act' && originOf(dest) !== originOf(f.url)) {
      return refuse('NOT_ALLOWED_IN_ASK_MODE', `Ask mode sends nothing off this page: ${siteLabel(dest)} is another site than the page's (${siteLabel(f.url)}). Answer from the page itself.`);
    }
    if (has('creates_jobs')) return ask(jobRequest(f));
    if (has('saves_skills')) return ask(skillRequest(f));
    if (has('calls_page_tool')) return ask(pageToolRequest(f));
    if (has('writes_server')) return ask(fetchWriteRequest(f, dest));
    if (has('runs_code')) {
      const v = checkCode(f);
      if (v.action !== 'allow') return v;
    }
    if ((has('leaves_origin') || has('navigates')) && dest) {
      const v = checkDestination(dest, f.url, `${f.tool.replace(/_/g, ' ')} ${siteLabel(dest)}`, f.tool === 'fetch_url' || f.tool === 'read_pdf' ? 'fetch' : 'open');
      if (v.action !== 'allow') return v;
    }
    if (has('touches_secrets')) {
      const text = typeof f.args.text === 'string' ? f.args.text : typeof f.args.value === 'string' ? f.args.value : '';
      const v = checkTypedSecret(text, f);
      if (v.action !== 'allow') return v;
    }
    const sensitive = has('acts_on_page') ? opts.sensitiveSite?.(f.url) : null;
    if (sensitive) {
      const name = f.target ? `${f.target.role} "${f.target.name}"` : '';
      return ask({
        category: (f.target && elementCategory(f.target.name, f.url)) ?? 'sensitive', rule: 'sensitive_site', severity: 'high',
        action: `${describeTool(f.tool)}${name ? ` ${name}` : ''}`, site: siteLabel(f.url), details: argDetails(f),
        reason: `${sensitive.name} is a sensitive site (money, administration or account security): Tabwright asks before every step there.`,
      });
    }
    if (has('acts_on_page') && matchesAny(confirmSites, siteLabel(f.url))) {
      const name = f.target ? `${f.target.role} "${f.target.name}"` : '';
      return ask({
        category: (f.target && elementCategory(f.target.name, f.url)) ?? 'site', rule: 'site_confirm', severity: 'normal',
        action: `${describeTool(f.tool)}${name ? ` ${name}` : ''}`, site: siteLabel(f.url), details: argDetails(f),
        reason: `You asked to confirm every step on ${siteLabel(f.url)} (Settings → Site permissions).`,
      });
    }
    return { action: 'allow' };
  }

  /**
   * Is a URL the agent chose (navigate, a new tab, fetch_url, read_pdf) inside the task, and free of data?
   * @param {string} url @param {string} pageUrl @param {string} cause @param {'open' | 'fetch'} verb
   * @returns {Verdict}
   */
  function checkDestination(url, pageUrl, cause, verb) {
    const carried = originOf(url) !== originOf(pageUrl) ? [...dataInUrl(url, knownStrings()), ...pageDataInUrl(url, pageUrl)] : [];
    const what = `${verb === 'fetch' ? 'Fetch' : 'Open'} ${mask(shorten(url))}`;
    if (carried.length) {
      return destinationAsk(url, { category: 'leave', rule: 'data_in_url', severity: 'high', action: what, site: siteLabel(url), details: carried.map(maskDetail), cause,
        reason: `The address carries data (${[...new Set(carried.map((c) => c.label))].join(', ')}) to ${siteLabel(url)}, another site than the page's.` });
    }
    if (!scope.has(url)) {
      const scopeKey = originOf(url) ?? undefined;
      return destinationAsk(url, { category: 'leave', rule: 'leave_scope', severity: 'normal', action: what, site: siteLabel(url), details: [], cause,
        reason: `${siteLabel(url)} is not one of this task's sites (${scope.list().map(siteLabel).join(', ') || 'none yet'}).`, scopeKey,
        scope: scopeKey ? { kind: 'site', site: siteLabel(url), severity: 'normal' } : undefined });
    }
    return { action: 'allow' };
  }

  /** @param {string} url @param {ConfirmRequest} request @returns {Verdict} */
  function destinationAsk(url, request) {
    cardUrls.set(request, withoutHash(url));
    return ask(request);
  }

  /**
   * Page data a URL carries: e-mail, phone, IBAN and card-shaped strings, and values the page showed
   * (not those in the page's own address: a link to another site may name the page it came from).
   * @param {string} url @param {string} pageUrl @returns {{ label: string, value: string }[]}
   */
  function pageDataInUrl(url, pageUrl) {
    let u;
    try { u = new URL(url); } catch { return []; }
    const text = safeDecode(`${u.pathname}${u.search}${u.hash}`);
    const own = safeDecode(pageUrl).toLowerCase();
    /** @type {{ label: string, value: string }[]} */
    const out = shapedData(text).map((d) => ({ label: d.label, value: d.value }));
    for (const v of page.carried(text)) {
      if (!own.includes(v.toLowerCase()) && !out.some((o) => o.value.includes(v))) out.push({ label: 'a value the page showed', value: v });
    }
    for (const k of knownStrings()) {
      if (k.length >= 4 && text.toLowerCase().includes(k.toLowerCase()) && !out.some((o) => o.value.includes(k))) out.push({ label: 'what the agent typed', value: k });
    }
    return out.map((d) => ({ label: d.label, value: `${d.value} (${d.label})` }));
  }

  /**
   * The agent's own JavaScript in the page can do anything the page can (read every field, send
   * requests): it asks, unless the user always allows the site (Settings → Site permissions) or
   * allowed code there for this task. A sensitive site always asks; what the code sends is held
   * like any acting step's requests.
   * @param {CallFacts} f @returns {Verdict}
   */
  function checkCode(f) {
    const origin = originOf(f.url) ?? '';
    const key = `code ${origin}`;
    const sensitive = opts.sensitiveSite?.(f.url);
    const code = String(f.args.code ?? '');
    // Code that reads what signs the user in and can send it anywhere can hand the session to
    // another site: high, asked on every site, and never covered by an answer for ordinary code.
    const exfil = READS_SESSION.test(code) && CAN_SEND.test(code);
    const severity = sensitive || exfil ? 'high' : 'normal';
    if (!sensitive && !exfil && (covers(key, severity) || matchesAny(allowSites, siteLabel(f.url)))) return { action: 'allow' };
    return ask({
      category: 'code', rule: 'run_code', severity, action: 'Run JavaScript in the page', site: siteLabel(f.url),
      details: [{ label: 'code', value: code.length > 2_000 ? `${mask(code.slice(0, 2_000))}…` : mask(code) }],
      reason: exfil ? 'The agent\'s code reads the site\'s cookies or storage (what keeps you signed in) and can send data off the page: it could hand your session to another site.'
        : `The agent wants to run its own code in this page; code can read everything on the page and change it${sensitive ? `, and ${sensitive.name} is a sensitive site` : ''}.`,
      scopeKey: sensitive || exfil ? undefined : key,
      scope: sensitive || exfil ? undefined : { kind: 'code', site: siteLabel(f.url), severity },
    });
  }

  /** @param {string} text @param {CallFacts} f @returns {Verdict} */
  function checkTypedSecret(text, f) {
    if (!text || !opts.secrets) return { action: 'allow' };
    const hits = opts.secrets.find(text);
    if (!hits.length) return { action: 'allow' };
    const here = originOf(f.url);
    // A secret typed back into a secret field of the site it belongs to is how signing in works.
    if (f.target?.secretField && hits.every((h) => h.origin === here)) return { action: 'allow' };
    const field = f.target ? `${f.target.role} "${f.target.name}"` : 'a field';
    return secretVerdict({
      category: 'secret', rule: 'secret', severity: 'high', action: `Type a secret into ${field}`, site: siteLabel(f.url),
      details: [{ label: 'text', value: mask(text) }],
      reason: `The text contains a secret from ${[...new Set(hits.map((h) => siteLabel(h.origin)))].join(', ')}, and this is not its own field.`,
    });
  }

  /**
   * Does the policy want to look at a request the page made during an action? Synchronous and cheap.
   * @param {HeldRequest} req
   */
  function wantsRequest(req) {
    if (req.kind === 'download' || req.framesUnheld) return true;
    // A channel write (a frame, a beacon, a data-channel message) is a write. A WebSocket's opening
    // handshake sends nothing but its URL: judged like a subresource GET (below) by what that carries.
    if (req.kind === 'channel' && req.channel !== 'websocket') return true;
    if (req.method === 'OPTIONS') return false;
    if (!SAFE_METHODS.has(req.method) || SENDING_TYPES.has(req.type)) return true;
    if (req.topLevel) return true;
    if (opts.secrets?.has(req.url)) return true;
    // A subresource GET to another site that could carry data (a query, a fragment, an @, a long
    // number): judgeRequest looks at what it carries. The cheap test comes first.
    return CARRIES_DATA.test(req.url) && !inScope(req.url.replace(/^ws(s?):/i, 'http$1:'));
  }

  /** scope.has by origin, remembered (wantsRequest runs for every request; "Allow for this task" clears it). @type {Map<string, boolean>} */
  const scopeCache = new Map();
  /** @param {string} url */
  function inScope(url) {
    const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url)?.[0] ?? url;
    let hit = scopeCache.get(origin);
    if (hit === undefined) {
      hit = scope.has(url);
      if (scopeCache.size > 2000) scopeCache.clear();
      scopeCache.set(origin, hit);
    }
    return hit;
  }

  /**
   * A held request: go, ask, or drop.
   * @param {HeldRequest} req
   * @param {{ pageUrl: string, cause: string, target?: { role: string, name: string } | null }} ctx
   * @returns {Verdict}
   */
  function judgeRequest(req, ctx) {
    const site = siteLabel(req.url);
    const leaked = opts.secrets ? opts.secrets.find(`${req.url}\n${req.body ?? ''}`) : [];
    const at = judgedUrl(req, ctx.pageUrl);
    const dest = originOf(at);
    if (leaked.some((h) => h.origin !== dest)) {
      return secretVerdict({ ...writeRequest(req, ctx), category: 'secret', rule: 'secret', severity: 'high', scopeKey: undefined, scope: undefined,
        reason: `It would send a secret from ${[...new Set(leaked.map((h) => siteLabel(h.origin)))].join(', ')} to ${site}.` });
    }
    if (req.kind === 'download') return judgeDownload(req, ctx);
    if (req.framesUnheld) return judgeUnheldSocket(req, ctx);
    if (SAFE_METHODS.has(req.method) && !SENDING_TYPES.has(req.type)) return judgeRead(req, ctx);
    const unreadable = unreadableBody(req);
    const sent = sentText(req);
    const carriesTyped = knownStrings().some((k) => k.length >= 3 && sent.includes(k.toLowerCase()));
    if (!scope.has(at)) {
      const request = writeRequest(req, ctx, 'high');
      if (!unreadable && covers(writeKind(req), request.severity)) return { action: 'allow' };
      // A page's own telemetry to a third party is the page's business only when it carries nothing
      // the agent brought and nothing the page showed. A write to the acting page's own site (a tab
      // outside the task) is never telemetry.
      const thirdParty = dest !== originOf(ctx.pageUrl);
      const pageData = carriesTyped ? [] : pageDataIn(sent, ctx.pageUrl);
      if (thirdParty && !carriesTyped && !pageData.length && !unreadable && !req.topLevel) return { action: 'allow' };
      const what = carriesTyped ? 'what the agent typed' : pageData.length ? `data from the page (${[...new Set(pageData)].join(', ')})` : unreadable ? 'data it cannot show' : 'a change';
      return ask({ ...request, reason: `The page would send ${what} to ${site}, which is not one of this task's sites.` });
    }
    if (sentWrites.has(writeSignature(req))) {
      return ask({ ...writeRequest(req, ctx, 'high'), rule: 'duplicate_write', scopeKey: undefined, scope: undefined,
        reason: `The same ${req.method} to ${site}, with the same data, was already sent during this task: sending it again may order, post or pay twice.` });
    }
    const request = writeRequest(req, ctx);
    const trusted = matchesAny(allowSites, site) && !opts.sensitiveSite?.(req.url);
    // The always-allowed sites (Settings) cover every write there, but not one the user could not
    // read (an unreadable body) or could misread (a lookalike value).
    const misread = request.details.some((d) => d.lookalike);
    if (!unreadable && (covers(writeKind(req), request.severity) || (trusted && !misread))) return { action: 'allow' };
    if (unreadable) return ask({ ...request, reason: `It sends data to ${site} that cannot be shown as text (${unreadable}): Tabwright cannot tell you what it changes.` });
    const lookalike = request.details.find((d) => d.lookalike);
    if (lookalike) return ask({ ...request, reason: `"${lookalike.value}" looks like "${lookalike.lookalike}" but is not the same: check it character by character. It changes data on ${site}.` });
    return ask({ ...request, reason: `It changes data on ${site}: a ${req.method} request the agent's step caused.` });
  }

  /**
   * A socket whose frames nothing can hold (a worker's, in Firefox) asks before it opens, on any
   * site, at high severity; one opened before the run asks before each step that acts while it may
   * be open. "Allow for this task" covers that socket only (the worker's kind and the exact URL): it
   * opens, and steps act while it is open, without another card; its frames stay unseen, as the card
   * says. Any other socket, and every write, still asks.
   * @param {HeldRequest} req @param {{ cause: string }} ctx @returns {Verdict}
   */
  function judgeUnheldSocket(req, ctx) {
    const key = `socket ${req.source ?? 'worker'} ${withoutHash(req.url)}`;
    if (covers(key, 'high')) return { action: 'allow' };
    const site = siteLabel(req.url);
    const who = req.source === 'service_worker' ? 'the site\'s service or shared worker' : 'a worker of the page';
    const socket = mask(shorten(withoutHash(req.url)));
    /** @type {ConfirmScope} */
    const covered = { kind: 'write', site, socket, severity: 'high' };
    const details = [{ label: 'socket', value: socket }, ...(req.initiator ? [{ label: 'worker', value: mask(shorten(req.initiator)) }] : [])];
    if (req.openBefore) {
      return ask({ category: 'write', rule: 'server_write', severity: 'high', action: `Act on the page while ${who} keeps a WebSocket to ${socket} open`, site, details, cause: ctx.cause,
        reason: `Before this task began, ${who} opened a live connection to ${site}, and it may still be open. Tabwright cannot hold or show what a worker sends over it: allowed, anything this step makes it send goes unseen; declined, the step does not run.`,
        scopeKey: key, scope: covered });
    }
    return ask({ category: 'write', rule: 'server_write', severity: 'high', action: `Open a WebSocket to ${socket} from ${who}`, site, details, cause: ctx.cause,
      reason: `While the agent acts, ${who} opens a live connection to ${site}. Tabwright cannot hold or show what a worker sends over it: allowed, everything it sends goes unseen; declined, it never opens.`,
      scopeKey: key, scope: covered });
  }

  /** @param {HeldRequest} req @param {{ pageUrl: string, cause: string }} ctx @returns {Verdict} */
  function judgeDownload(req, ctx) {
    const site = siteLabel(req.url);
    const name = req.filename ? `"${req.filename}" ` : '';
    const program = executableKind(req);
    if (program) {
      // A program runs with the user's rights once opened: asked on every site, the always-allowed ones too.
      return ask({ category: 'download', rule: 'executable_download', severity: 'high', action: `Download ${name}from ${mask(shorten(req.url))}`, site,
        details: [{ label: 'file', value: req.filename || shorten(req.url) }, ...(req.mime ? [{ label: 'type', value: req.mime.split(';base64,')[0] }] : [])],
        cause: ctx.cause, reason: `The file is ${program}: opened, it runs with your rights on this computer.` });
    }
    const unsure = undeclaredDocument(req);
    if (unsure) {
      // The browser shows no byte of a download before it is decided: a program named like a document is only told by its server's word.
      return ask({ category: 'download', rule: 'executable_download', severity: 'normal', action: `Download ${name}from ${mask(shorten(req.url))}`, site,
        details: [{ label: 'file', value: req.filename || shorten(req.url) }, { label: 'type', value: /** @type {string} */ (req.mime) }],
        cause: ctx.cause, reason: `The server does not say what the file is (${unsure}): Tabwright cannot check that it is the document its name says and not a program. Allow it only if you expected this file.` });
    }
    if (scope.has(req.url)) return { action: 'allow' };
    return destinationAsk(req.url, { category: 'leave', rule: 'leave_scope', severity: 'normal', action: `Download ${name}from ${mask(shorten(req.url))}`, site, details: [], cause: ctx.cause,
      reason: `${site} is not one of this task's sites.`, scopeKey: dest(req.url), scope: dest(req.url) ? { kind: 'site', site, severity: 'normal' } : undefined });
  }

  /**
   * A GET: a navigation the action started (a link, a GET form) asks when it leaves the task's sites
   * or carries data; a subresource (an image, a script, a fetch) asks when it carries page data or
   * what the agent typed to another site.
   * @param {HeldRequest} req @param {{ pageUrl: string, cause: string }} ctx @returns {Verdict}
   */
  function judgeRead(req, ctx) {
    if (req.topLevel) {
      if (approvedUrls.delete(withoutHash(req.url))) return { action: 'allow' };
      return checkDestination(req.url, ctx.pageUrl, ctx.cause, 'open');
    }
    // A WebSocket's handshake goes to the site of its http(s) origin (judgedUrl).
    const at = judgedUrl(req, ctx.pageUrl);
    if (scope.has(at) || originOf(at) === originOf(ctx.pageUrl)) return { action: 'allow' };
    // Firefox sees a socket's handshake twice: the page's hook asked before it built the socket, then
    // its request leaves; the answer already given covers it.
    const socket = req.type === 'websocket' && !req.framesUnheld;
    if (socket && req.kind === 'request' && approvedUrls.delete(withoutHash(req.url))) return { action: 'allow' };
    const carried = pageDataInUrl(req.url, ctx.pageUrl);
    if (!carried.length) return { action: 'allow' };
    const what = socket ? 'open a WebSocket to' : `load ${req.type || 'a resource'} from`;
    const request = { category: /** @type {const} */ ('leave'), rule: /** @type {const} */ ('data_in_url'), severity: /** @type {const} */ ('high'), action: `${socket ? 'Open a WebSocket to' : `Load ${req.type || 'a resource'} from`} ${mask(shorten(req.url))}`, site: siteLabel(req.url),
      details: carried.map(maskDetail), cause: ctx.cause,
      reason: `The page would ${what} ${siteLabel(req.url)}, another site, with data in its address (${[...new Set(carried.map((c) => c.value.replace(/^.*\((.*)\)$/, '$1')))].join(', ')}).` };
    if (socket) cardUrls.set(request, withoutHash(req.url));
    return ask(request);
  }

  /** @param {string} url */
  function dest(url) { return originOf(url) ?? undefined; }

  /** What a write sends, decoded and lower-cased, for the checks that look for data in it. @param {HeldRequest} req */
  function sentText(req) {
    return `${req.body ?? ''}\n${safeDecode(req.body ?? '')}\n${fieldsOf(req).map(([k, v]) => `${k}=${v}`).join('\n')}\n${safeDecode(req.url)}`.toLowerCase();
  }

  /** Labels of the page data a body holds (shaped strings, values the page showed that are not in its address). @param {string} text @param {string} pageUrl */
  function pageDataIn(text, pageUrl) {
    const own = safeDecode(pageUrl).toLowerCase();
    return [...shapedData(text).map((d) => d.label), ...page.carried(text).filter((v) => !own.includes(v.toLowerCase())).map(() => 'a value the page showed')];
  }

  /** Why a body cannot be read ('1,234 bytes of application/x-protobuf'), or ''. @param {HeldRequest} req */
  function unreadableBody(req) {
    if (req.opaque) return `${req.opaque.bytes.toLocaleString('en')} bytes${req.opaque.contentType ? ` of ${req.opaque.contentType}` : ''}, ${req.opaque.why.replace('_', ' ')}`;
    if (req.body && unreadableText(req.body)) return `${new TextEncoder().encode(req.body).length.toLocaleString('en')} bytes, binary`;
    return '';
  }

  /** Does an earlier "Allow for this task" cover this kind at this severity? @param {string} key @param {'normal' | 'high'} severity */
  function covers(key, severity) {
    const allowed = allowedWrites.get(key);
    return allowed === 'high' || (allowed === 'normal' && severity === 'normal');
  }

  /**
   * A step whose requests cannot be held is asked about before it runs.
   * @param {{ cause: string, target?: { role: string, name: string } | null, pageUrl: string }} ctx @returns {ConfirmRequest}
   */
  function unheldStep(ctx) {
    const semantic = ctx.target ? elementCategory(ctx.target.name, ctx.pageUrl) : null;
    return {
      category: semantic ?? 'write', rule: 'server_write', severity: semantic ? 'high' : 'normal', action: ctx.cause, site: siteLabel(ctx.pageUrl), details: [],
      reason: 'Tabwright cannot watch what this tab sends (its debugger is in use, for example by DevTools), so it asks before every step that acts on the page.',
    };
  }

  /**
   * The card of a write: every field, and what "Allow for this task" would cover. Severity is high
   * for a consequential element, an unreadable body or a lookalike value (or when the caller says so).
   * @param {HeldRequest} req @param {{ cause: string, target?: { role: string, name: string } | null, pageUrl: string }} ctx
   * @param {'normal' | 'high'} [floor] @returns {ConfirmRequest}
   */
  function writeRequest(req, ctx, floor = 'normal') {
    const semantic = ctx.target ? elementCategory(ctx.target.name, ctx.pageUrl) : null;
    const details = bodyDetails(req);
    const high = floor === 'high' || Boolean(semantic) || details.some((d) => d.unreadable || d.lookalike);
    const severity = high ? 'high' : 'normal';
    const fields = fieldsOf(req);
    /** @type {ConfirmScope} */
    const covered = { kind: 'write', site: siteLabel(req.url), method: req.method, path: pathOf(req.url), keys: bodyKeys(fields), severity };
    const op = operationOf(req);
    if (op) covered.operation = op;
    return {
      category: semantic ?? 'write', rule: 'server_write', severity,
      // On a site's one GraphQL or JSON-RPC endpoint the URL says nothing: the operation is what the write does.
      action: `${req.method} to ${mask(shorten(req.url))}${op ? ` (${mask(shortOp(op))})` : ''}`, site: siteLabel(req.url), details, cause: ctx.cause,
      reason: '', scopeKey: writeKind(req), scope: covered,
    };
  }

  /** @param {ConfirmRequest} request @returns {Verdict} */
  function secretVerdict(request) {
    if (opts.strictSecrets) return refuse('SECRET_REFUSED', `${request.action} on ${request.site}: refused, because strict secret mode is on. ${request.reason} Do not try again; tell the user.`);
    return ask(request);
  }

  /** @param {CallFacts} f @returns {ConfirmRequest} */
  function jobRequest(f) {
    const a = f.args;
    const recurrence = a.schedule === 'interval' ? `every ${a.every_minutes} minutes`
      : a.schedule === 'calendar' ? `${a.repeat}${a.time ? ` at ${a.time}` : ''}${a.cron ? ` (${a.cron})` : ''}${a.days ? ` on days ${a.days}` : ''}${a.day_of_month ? ` on day ${a.day_of_month}` : ''}`
      : a.run_at ? `once, at ${a.run_at}` : a.after_seconds !== undefined ? `once, in ${a.after_seconds} s` : 'once';
    const resume = f.tool === 'schedule_resume';
    const target = resume || a.target !== 'url' ? `this tab (${siteLabel(f.url)})` : String(a.url ?? '');
    const details = [
      { label: 'title', value: String(resume ? a.reason : a.title ?? '') },
      { label: 'prompt', value: String(resume ? a.resume_instruction : a.prompt ?? '') },
      { label: 'runs on', value: target },
      { label: 'when', value: resume ? (a.run_at ? `at ${a.run_at}` : `in ${a.after_seconds} s`) : recurrence },
      { label: 'mode', value: resume ? 'act' : String(a.mode ?? 'act') },
    ].map(maskDetail);
    return {
      category: 'job', rule: 'future_job', severity: a.schedule && a.schedule !== 'once' ? 'high' : 'normal',
      action: resume ? 'Continue this task later, unattended' : `Create a ${a.schedule === 'once' || !a.schedule ? 'one-time' : 'recurring'} job that runs unattended`,
      site: resume || a.target !== 'url' ? siteLabel(f.url) : siteLabel(String(a.url ?? '')), details,
      reason: 'The agent wants to schedule work that will run later without you watching.',
    };
  }

  /**
   * save_skill: instructions the agent will be given in later runs. The user sees all of it, since
   * a page that talked the model into "remembering" something would speak in every later run.
   * @param {CallFacts} f @returns {ConfirmRequest}
   */
  function skillRequest(f) {
    const a = f.args;
    let host = '';
    try { host = new URL(f.url).hostname; } catch { /* no page */ }
    // What save_skill will store: the sites named, else this page's host (agent/tools/skills.js).
    const sites = Array.isArray(a.sites) && a.sites.length ? a.sites.map(String).join(', ') : host;
    return {
      category: 'skill', rule: 'skill_save', severity: 'high',
      action: `Save the skill "${String(a.name ?? '')}" for later runs`, site: siteLabel(f.url),
      details: [
        { label: 'title', value: mask(String(a.title ?? '')).slice(0, 200) },
        { label: 'used on', value: mask(sites).slice(0, 200) },
        { label: 'instructions', value: mask(String(a.prompt ?? '')) },
      ],
      reason: 'The agent wants to keep instructions that it will follow in later runs on these sites. Allow only what you would write yourself.',
    };
  }

  /** @param {CallFacts} f @param {string} url @returns {ConfirmRequest} */
  function fetchWriteRequest(f, url) {
    const method = String(f.args.method ?? 'GET').toUpperCase();
    const body = typeof f.args.body === 'string' ? f.args.body : '';
    return {
      category: 'write', rule: 'fetch_write', severity: scope.has(url) ? 'normal' : 'high', action: `${method} to ${mask(shorten(url))}`, site: siteLabel(url),
      details: bodyDetails({ kind: 'request', method, url, type: 'fetch', topLevel: false, body, fields: formFields(body) }),
      reason: `The agent itself would send a ${method} request, which changes data on ${siteLabel(url)}.`,
    };
  }

  /**
   * A page's own WebMCP tool (agent/tools/webmcp.js): the page's code does whatever it does, so every call asks.
   * @param {CallFacts} f @returns {ConfirmRequest}
   */
  function pageToolRequest(f) {
    const input = f.args.input && typeof f.args.input === 'object' ? Object.entries(f.args.input) : [];
    return {
      category: 'write', rule: 'page_tool', severity: 'normal', action: `Call the page's tool "${mask(String(f.args.name ?? '')).slice(0, 100)}"`, site: siteLabel(f.url),
      details: input.map(([label, value]) => maskDetail({ label, value: typeof value === 'string' ? value : JSON.stringify(value) ?? '' })),
      reason: `${siteLabel(f.url)} declares this tool itself (WebMCP); what it does is the page's own code.`,
    };
  }

  /**
   * Every field of a write (none cut), typed ones first; an unreadable body is said to be one.
   * @param {HeldRequest} req @returns {ConfirmDetail[]}
   */
  function bodyDetails(req) {
    const why = unreadableBody(req);
    if (why) {
      const bytes = req.opaque?.bytes ?? new TextEncoder().encode(req.body ?? '').length;
      const contentType = req.opaque?.contentType;
      return [{ label: 'body', value: `unreadable: ${why}`, unreadable: contentType ? { bytes, contentType } : { bytes } }];
    }
    const fields = fieldsOf(req);
    if (fields.length) return fieldDetails(fields, detailFacts);
    return req.body ? [maskDetail({ label: 'body', value: req.body })] : [];
  }

  /** @type {import('./card-details.js').DetailFacts} */
  const detailFacts = {
    mask,
    isKnownSecret: (s) => Boolean(opts.secrets?.has(s)),
    typed: (v) => typedIn(v).length > 0,
    fromPage: (v) => typedIn(v).some((k) => !userText.toLowerCase().includes(k.toLowerCase()) && page.shown(k)),
    shown: (v) => page.shown(v),
    lookalike: (v) => userWords.lookalikeOf(v) ?? pageWords.lookalikeOf(v),
  };

  /** The strings the agent typed that a value is, or holds. @param {string} v */
  function typedIn(v) {
    const low = v.toLowerCase();
    return knownStrings().filter((k) => low === k.toLowerCase() || (k.length >= 4 && low.includes(k.toLowerCase())));
  }

  /** @param {{ label: string, value: string }} d @returns {ConfirmDetail} */
  function maskDetail(d) {
    const value = maskValue(d.label, d.value, detailFacts);
    return { label: mask(d.label).slice(0, 120), value: value.length > 2000 ? `${value.slice(0, 1999)}…` : value };
  }

  /** @param {CallFacts} f */
  function argDetails(f) {
    const text = f.args.text ?? f.args.value ?? f.args.keys;
    return text === undefined ? [] : [maskDetail({ label: f.tool === 'press_keys' ? 'keys' : 'text', value: Array.isArray(text) ? text.join(' ') : String(text) })];
  }

  function knownStrings() { return known; }

  return {
    checkCall,
    wantsRequest,
    judgeRequest,
    unheldStep,
    /**
     * Before a step acts: a sender the hold cannot see that was open when it began (a worker's
     * socket opened before the run, Firefox) asks, unless the user allowed it for the task.
     * @param {HeldRequest} req @param {{ cause: string }} ctx @returns {Verdict}
     */
    unheldSender(req, ctx) { return judgeUnheldSocket(req, ctx); },
    /**
     * The user's answer to a card: "Allow for this task" widens the scope (an origin) or allows one
     * kind of write (method, origin, path) for the rest of the run.
     * @param {ConfirmRequest} request @param {import('../../types/safety').ConfirmAnswer} answer
     */
    answered(request, answer) {
      const url = cardUrls.get(request);
      if (url && answer !== 'no') approvedUrls.add(url);
      if (answer !== 'task' || !request.scopeKey) return;
      if (request.rule === 'leave_scope') { scope.add(request.scopeKey); scopeCache.clear(); }
      else allowedWrites.set(request.scopeKey, request.severity === 'high' || allowedWrites.get(request.scopeKey) === 'high' ? 'high' : 'normal');
    },
    /**
     * What the page showed the model (the text of a result that read a page): its values are page
     * data from now on (a request carrying one to another site asks), the references of the
     * lookalike check, and the provenance of what the agent types.
     * @param {unknown} result a tool result's data: its strings are read
     */
    notePage(result) {
      const texts = stringsOf(result);
      page.note(texts);
      pageWords.add(texts);
    },
    /** Strings that must not leave for another site unasked: what the agent typed. @param {string} s */
    remember(s) { if (s && s.length >= 3 && !known.includes(s)) known.push(s); },
    /** A write left the browser: the same one again asks first. @param {HeldRequest} req */
    noteSent(req) { sentWrites.add(writeSignature(req)); },
    /** The server refused it (4xx, 5xx, no answer): trying it again is a retry, not a second submit. @param {HeldRequest} req */
    noteFailed(req) { sentWrites.delete(writeSignature(req)); },
    scope,
  };
}
/** @typedef {ReturnType<typeof createPolicy>} Policy */

/** @param {ErrorCode} code @param {string} message @returns {Verdict} */
function refuse(code, message) { return { action: 'refuse', code, message }; }

/** @param {ConfirmRequest} request @returns {Verdict} */
function ask(request) { return { action: 'ask', request }; }

/** @param {string} url */
function shorten(url) { return url.length > 160 ? `${url.slice(0, 157)}…` : url; }

/** @param {string} tool */
function describeTool(tool) { return tool.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase()); }

/**
 * A site pattern from settings: "host[:port]" matches that host, "*.host" the host and its subdomains.
 * @param {string} pattern @param {string} site host[:port], lower-case
 */
export function siteMatches(pattern, site) {
  const p = pattern.toLowerCase();
  if (p === site) return true;
  if (p.startsWith('*.')) {
    const base = p.slice(2);
    const host = site.replace(/:\d+$/, '');
    return host === base || host.endsWith(`.${base}`) || site === base || site.endsWith(`.${base}`);
  }
  return false;
}

/** @param {string[]} patterns @param {string} site */
function matchesAny(patterns, site) { return patterns.some((p) => siteMatches(p, site.toLowerCase())); }
