// The safety policy: one place decides, from what a step does (the effects its tool declares, the
// requests it causes, the URL it opens, the data it carries), whether it runs, asks the user, or is
// refused. It never looks only at a button's name: element semantics only raise a card's severity.
// See docs/SECURITY.md for the rules, what they cover and what they cannot.
/** @import { ConfirmCategory, ConfirmRequest, ConfirmRule, Effect, HeldRequest, SecretVault } from '../../types/safety' */
/** @import { Mode } from '../../types/core' */
/** @import { TaskScope } from './scope.js' */
/** @import { ErrorCode } from '../error-codes.js' */
import { dataInUrl, originOf, siteLabel } from './scope.js';
import { elementCategory } from './semantics.js';
import { MASK, isSecretName } from './secret-patterns.js';

/** Methods that never change data (a CORS preflight asks nothing either). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Resource types that send data out even with GET. */
const SENDING_TYPES = new Set(['ping', 'beacon', 'csp_report', 'csp-report']);
const MAX_DETAILS = 12;

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
  /** What "Allow for this task" opened: origins (scope) and write kinds (method origin path). @type {Set<string>} */
  const allowedWrites = new Set();
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
    const carried = originOf(url) !== originOf(pageUrl) ? dataInUrl(url, knownStrings()) : [];
    const what = `${verb === 'fetch' ? 'Fetch' : 'Open'} ${mask(shorten(url))}`;
    if (carried.length) {
      return ask({ category: 'leave', rule: 'data_in_url', severity: 'high', action: what, site: siteLabel(url), details: carried.map(maskDetail), cause,
        reason: `The address carries data (${carried.map((c) => c.label).join(', ')}) to ${siteLabel(url)}, another site than the page's.` });
    }
    if (!scope.has(url)) {
      return ask({ category: 'leave', rule: 'leave_scope', severity: 'normal', action: what, site: siteLabel(url), details: [], cause,
        reason: `${siteLabel(url)} is not one of this task's sites (${scope.list().map(siteLabel).join(', ') || 'none yet'}).`, scopeKey: originOf(url) ?? undefined });
    }
    return { action: 'allow' };
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
    if (!sensitive && (allowedWrites.has(key) || matchesAny(allowSites, siteLabel(f.url)))) return { action: 'allow' };
    const code = String(f.args.code ?? '');
    return ask({
      category: 'code', rule: 'run_code', severity: sensitive ? 'high' : 'normal', action: 'Run JavaScript in the page', site: siteLabel(f.url),
      details: [{ label: 'code', value: code.length > 2_000 ? `${mask(code.slice(0, 2_000))}…` : mask(code) }],
      reason: `The agent wants to run its own code in this page; code can read everything on the page and change it${sensitive ? `, and ${sensitive.name} is a sensitive site` : ''}.`,
      scopeKey: sensitive ? undefined : key,
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
    if (req.kind === 'download') return true;
    if (req.method === 'OPTIONS') return false;
    if (!SAFE_METHODS.has(req.method) || SENDING_TYPES.has(req.type)) return true;
    if (req.topLevel) return true;
    return Boolean(opts.secrets?.has(req.url));
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
      return secretVerdict({ ...writeRequest(req, ctx), category: 'secret', rule: 'secret', severity: 'high',
        reason: `It would send a secret from ${[...new Set(leaked.map((h) => siteLabel(h.origin)))].join(', ')} to ${site}.` });
    }
    if (req.kind === 'download') {
      if (scope.has(req.url)) return { action: 'allow' };
      return ask({ category: 'leave', rule: 'leave_scope', severity: 'normal', action: `Download ${req.filename ? `"${req.filename}" ` : ''}from ${mask(shorten(req.url))}`, site, details: [], cause: ctx.cause,
        reason: `${site} is not one of this task's sites.`, scopeKey: dest ?? undefined });
    }
    if (SAFE_METHODS.has(req.method) && !SENDING_TYPES.has(req.type)) {
      // A navigation the action started (a link, a GET form): leaving the task's sites, or carrying data, asks.
      if (!req.topLevel) return { action: 'allow' };
      return checkDestination(req.url, ctx.pageUrl, ctx.cause, 'open');
    }
    const key = writeKey(req);
    const sent = `${req.body ?? ''}\n${safeDecode(req.body ?? '')}\n${(req.fields ?? []).map(([k, v]) => `${k}=${v}`).join('\n')}\n${safeDecode(req.url)}`.toLowerCase();
    const carriesTyped = knownStrings().some((k) => k.length >= 3 && sent.includes(k.toLowerCase()));
    if (!scope.has(at)) {
      if (allowedWrites.has(key)) return { action: 'allow' };
      // A page's own telemetry to a third party carries nothing the agent brought: it is the page's
      // business. A write to the acting page's own site (a tab outside the task) is not.
      const thirdParty = dest !== originOf(ctx.pageUrl);
      if (thirdParty && !carriesTyped && !req.topLevel) return { action: 'allow' };
      return ask({ ...writeRequest(req, ctx), severity: 'high', reason: `The page would send ${carriesTyped ? 'what the agent typed' : 'a change'} to ${site}, which is not one of this task's sites.` });
    }
    if (sentWrites.has(writeSignature(req))) {
      return ask({ ...writeRequest(req, ctx), rule: 'duplicate_write', severity: 'high', scopeKey: undefined,
        reason: `The same ${req.method} to ${site}, with the same data, was already sent during this task: sending it again may order, post or pay twice.` });
    }
    if (allowedWrites.has(key) || (matchesAny(allowSites, site) && !opts.sensitiveSite?.(req.url))) return { action: 'allow' };
    return ask({ ...writeRequest(req, ctx), reason: `It changes data on ${site}: a ${req.method} request the agent's step caused.` });
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

  /** @param {HeldRequest} req @param {{ cause: string, target?: { role: string, name: string } | null, pageUrl: string }} ctx @returns {ConfirmRequest} */
  function writeRequest(req, ctx) {
    const semantic = ctx.target ? elementCategory(ctx.target.name, ctx.pageUrl) : null;
    return {
      category: semantic ?? 'write', rule: 'server_write', severity: semantic ? 'high' : 'normal',
      action: `${req.method} to ${mask(shorten(req.url))}`, site: siteLabel(req.url), details: bodyDetails(req), cause: ctx.cause,
      reason: '', scopeKey: writeKey(req),
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
      details: input.slice(0, MAX_DETAILS).map(([label, value]) => maskDetail({ label, value: typeof value === 'string' ? value : JSON.stringify(value) ?? '' })),
      reason: `${siteLabel(f.url)} declares this tool itself (WebMCP); what it does is the page's own code.`,
    };
  }

  /** @param {HeldRequest} req @returns {{ label: string, value: string }[]} */
  function bodyDetails(req) {
    const fields = req.fields?.length ? req.fields : null;
    const rows = fields ? fields.map(([label, value]) => ({ label, value }))
      : req.body ? [{ label: 'body', value: req.body }] : [];
    const out = rows.slice(0, MAX_DETAILS).map(maskDetail);
    if (rows.length > MAX_DETAILS) out.push({ label: '…', value: `${rows.length - MAX_DETAILS} more` });
    return out;
  }

  /** @param {{ label: string, value: string }} d */
  function maskDetail(d) {
    const secretName = isSecretName(d.label);
    const value = secretName && d.value ? MASK : mask(d.value);
    return { label: mask(d.label).slice(0, 60), value: value.length > 200 ? `${value.slice(0, 197)}…` : value };
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
     * The user's answer to a card: "Allow for this task" widens the scope (an origin) or allows one
     * kind of write (method, origin, path) for the rest of the run.
     * @param {ConfirmRequest} request @param {import('../../types/safety').ConfirmAnswer} answer
     */
    answered(request, answer) {
      if (answer !== 'task' || !request.scopeKey) return;
      if (request.rule === 'leave_scope') scope.add(request.scopeKey);
      else allowedWrites.add(request.scopeKey);
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

/** What makes two writes the same: method, URL and body (its fields when it has them). @param {HeldRequest} req */
function writeSignature(req) {
  const body = req.fields?.length ? req.fields.map(([k, v]) => `${k}=${v}`).join('&') : (req.body ?? '');
  return `${req.method} ${req.url}\n${body}`;
}
/** @param {ConfirmRequest} request @returns {Verdict} */
function ask(request) { return { action: 'ask', request }; }

/**
 * Where a held request goes, for the scope and the own-site checks: a WebSocket (ws:, wss:) as the
 * http(s) origin it shares cookies with, a data channel (a peer the page connected, no address of
 * its own) as the page that opened it; other requests as they are.
 * @param {HeldRequest} req @param {string} pageUrl
 */
function judgedUrl(req, pageUrl) {
  if (req.kind !== 'channel') return req.url;
  if (req.channel === 'datachannel') return /^https?:/i.test(req.initiator ?? '') ? /** @type {string} */ (req.initiator) : pageUrl;
  return req.url.replace(/^ws(s?):/i, 'http$1:');
}

/** @param {HeldRequest} req */
function writeKey(req) {
  try { const u = new URL(req.url); return `${req.method} ${u.origin}${u.pathname}`; } catch { return `${req.method} ${req.url}`; }
}

/** @param {string} s */
function safeDecode(s) { try { return decodeURIComponent(s.replace(/\+/g, ' ')); } catch { return s; } }

/** @param {string} url */
function shorten(url) { return url.length > 160 ? `${url.slice(0, 157)}…` : url; }

/** @param {string} tool */
function describeTool(tool) { return tool.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase()); }

/** Fields of a request body the agent wrote itself (fetch_url): urlencoded or a flat JSON object. @param {string} body @returns {[string, string][] | undefined} */
function formFields(body) {
  if (!body) return undefined;
  try {
    const j = JSON.parse(body);
    if (j && typeof j === 'object' && !Array.isArray(j)) return Object.entries(j).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]);
  } catch { /* not JSON */ }
  if (/^[^=&\s]+=[^&]*(&[^=&\s]+=[^&]*)*$/.test(body)) return [...new URLSearchParams(body)];
  return undefined;
}

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
