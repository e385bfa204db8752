// The parts of the cards the rules build: every field of a write (none cut, typed ones first,
// masked by value), the card of a write and what "Allow for this task" would cover, the card of a
// step on the acting page's site, and the verdict of a secret (asked, or refused in strict mode).
/** @import { ConfirmDetail, ConfirmRequest, ConfirmScope, HeldRequest } from '../../../types/safety' */
/** @import { PolicyMemory } from '../policy-memory.js' */
/** @import { CallFacts, StepContext, Verdict } from './rule.js' */
import { siteLabel } from '../scope.js';
import { elementCategory } from '../semantics.js';
import { typedIn } from '../policy-memory.js';
import { bodyKeys, fieldsOf, operationOf, writeKind } from '../write-kind.js';
import { fieldDetails, maskValue } from '../card-details.js';
import { unreadableText } from '../request-body.js';
import { pathOf, shortOp, withoutHash } from '../request-facts.js';
import { ask, refuse } from './rule.js';

/** @param {string} url */
export function shorten(url) { return url.length > 160 ? `${url.slice(0, 157)}…` : url; }

/** 'press_keys' → 'Press keys'. @param {string} tool */
export function describeTool(tool) { return tool.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase()); }

/** What a card's fields need to know about a value: typed by the agent, shown by the page, a lookalike. @param {PolicyMemory} m @returns {import('../card-details.js').DetailFacts} */
export function detailFacts(m) {
  return {
    mask: m.mask,
    isKnownSecret: (s) => Boolean(m.opts.secrets?.has(s)),
    typed: (v) => typedIn(m, v).length > 0,
    fromPage: (v) => typedIn(m, v).some((k) => !m.userText.toLowerCase().includes(k.toLowerCase()) && m.page.shown(k)),
    shown: (v) => m.page.shown(v),
    lookalike: (v) => m.userWords.lookalikeOf(v) ?? m.pageWords.lookalikeOf(v),
  };
}

/** @param {PolicyMemory} m @param {{ label: string, value: string }} d @returns {ConfirmDetail} */
export function maskDetail(m, d) {
  const value = maskValue(d.label, d.value, detailFacts(m));
  return { label: m.mask(d.label).slice(0, 120), value: value.length > 2000 ? `${value.slice(0, 1999)}…` : value };
}

/** Why a body cannot be read ('1,234 bytes of application/x-protobuf'), or ''. @param {HeldRequest} req */
export function unreadableBody(req) {
  if (req.opaque) return `${req.opaque.bytes.toLocaleString('en')} bytes${req.opaque.contentType ? ` of ${req.opaque.contentType}` : ''}, ${req.opaque.why.replace('_', ' ')}`;
  if (req.body && unreadableText(req.body)) return `${new TextEncoder().encode(req.body).length.toLocaleString('en')} bytes, binary`;
  return '';
}

/**
 * Every field of a write (none cut), typed ones first; an unreadable body is said to be one.
 * @param {PolicyMemory} m @param {HeldRequest} req @returns {ConfirmDetail[]}
 */
export function bodyDetails(m, req) {
  const why = unreadableBody(req);
  if (why) {
    const bytes = req.opaque?.bytes ?? new TextEncoder().encode(req.body ?? '').length;
    const contentType = req.opaque?.contentType;
    return [{ label: 'body', value: `unreadable: ${why}`, unreadable: contentType ? { bytes, contentType } : { bytes } }];
  }
  const fields = fieldsOf(req);
  if (fields.length) return fieldDetails(fields, detailFacts(m));
  return req.body ? [maskDetail(m, { label: 'body', value: req.body })] : [];
}

/**
 * The card of a write: every field, and what "Allow for this task" would cover. Severity is high
 * for a consequential element, an unreadable body or a lookalike value (or when the caller says so).
 * @param {PolicyMemory} m @param {HeldRequest} req @param {StepContext} ctx
 * @param {'normal' | 'high'} [floor] @returns {ConfirmRequest}
 */
export function writeRequest(m, req, ctx, floor = 'normal') {
  const semantic = ctx.target ? elementCategory(ctx.target.name, ctx.pageUrl) : null;
  const details = bodyDetails(m, req);
  const high = floor === 'high' || Boolean(semantic) || details.some((d) => d.unreadable || d.lookalike);
  const severity = high ? 'high' : 'normal';
  /** @type {ConfirmScope} */
  const covered = { kind: 'write', site: siteLabel(req.url), method: req.method, path: pathOf(req.url), keys: bodyKeys(fieldsOf(req)), severity };
  const op = operationOf(req);
  if (op) covered.operation = op;
  return {
    category: semantic ?? 'write', rule: 'server_write', severity,
    // On a site's one GraphQL or JSON-RPC endpoint the URL says nothing: the operation is what the write does.
    action: `${req.method} to ${m.mask(shorten(req.url))}${op ? ` (${m.mask(shortOp(op))})` : ''}`, site: siteLabel(req.url), details, cause: ctx.cause,
    reason: '', scopeKey: writeKind(req), scope: covered,
  };
}

/**
 * A step whose requests cannot be held is asked about before it runs.
 * @param {StepContext} ctx @returns {ConfirmRequest}
 */
export function unheldStepRequest(ctx) {
  const semantic = ctx.target ? elementCategory(ctx.target.name, ctx.pageUrl) : null;
  return {
    category: semantic ?? 'write', rule: 'server_write', severity: semantic ? 'high' : 'normal', action: ctx.cause, site: siteLabel(ctx.pageUrl), details: [],
    reason: 'Tabwright cannot watch what this tab sends (its debugger is in use, for example by DevTools), so it asks before every step that acts on the page.',
  };
}

/**
 * The card of a step on the acting page's own site (a sensitive site, or one the person confirms
 * every step on): the element's meaning names its category.
 * @param {PolicyMemory} m @param {CallFacts} f
 * @param {{ fallback: 'sensitive' | 'site', rule: 'sensitive_site' | 'site_confirm', severity: 'normal' | 'high', reason: string }} card
 * @returns {ConfirmRequest}
 */
export function siteStepRequest(m, f, card) {
  const name = f.target ? `${f.target.role} "${f.target.name}"` : '';
  return {
    category: (f.target && elementCategory(f.target.name, f.url)) ?? card.fallback, rule: card.rule, severity: card.severity,
    action: `${describeTool(f.tool)}${name ? ` ${name}` : ''}`, site: siteLabel(f.url), details: argDetails(m, f),
    reason: card.reason,
  };
}

/** What a typing step types, as a card's detail. @param {PolicyMemory} m @param {CallFacts} f */
export function argDetails(m, f) {
  const text = f.args.text ?? f.args.value ?? f.args.keys;
  return text === undefined ? [] : [maskDetail(m, { label: f.tool === 'press_keys' ? 'keys' : 'text', value: Array.isArray(text) ? text.join(' ') : String(text) })];
}

/** A secret going elsewhere: asked, or refused when strict secret mode is on. @param {PolicyMemory} m @param {ConfirmRequest} request @returns {Verdict} */
export function secretVerdict(m, request) {
  if (m.opts.strictSecrets) return refuse('SECRET_REFUSED', `${request.action} on ${request.site}: ${request.reason.replace(/\.$/, '')}; do not try again, tell the user`);
  return ask(request);
}

/** A card about a destination: allowed, the navigation to it asks no second time. @param {PolicyMemory} m @param {string} url @param {ConfirmRequest} request @returns {Verdict} */
export function destinationAsk(m, url, request) {
  m.cardUrls.set(request, withoutHash(url));
  return ask(request);
}
