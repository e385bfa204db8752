// Confirmation gates (seed 001's two-phase confirm): a consequential action (checkout or payment,
// send, post or publish, delete, account-settings change) waits for the user, who is told what
// will happen on which site. One policy object serves chat runs and scheduled runs: an unattended
// run cannot ask, so it is blocked instead.
/** @import { ChatMessage, ConfirmCategory, ConfirmRequest } from '../types/core' */
import { textOf } from './compaction.js';

/** What an element's accessible name says it does. Ordered: the first match names the category. */
const BY_NAME = /** @type {[ConfirmCategory, RegExp][]} */ ([
  ['checkout', /\b(place (my |your )?order|check ?out|pay( now)?|buy( now| it)?|purchase|complete (my |your )?(order|purchase|payment)|confirm (order|payment|purchase)|submit (order|payment))\b/i],
  ['delete', /\b(delete|remove|erase|destroy|discard|close (my |your )?account|cancel (my |your )?(subscription|account|order))\b/i],
  ['publish', /\b(post|publish|tweet|share now|go live|submit (comment|review|post))\b/i],
  ['send', /\b(send|reply|forward|submit message)\b/i],
  ['account', /\b(change (my |your )?(password|email)|update (password|email|account)|deactivate|disable two-factor|save (changes|settings|profile))\b/i],
]);
/** Pages whose form submissions change the account even behind a plain "Save". */
const SETTINGS_PATH = /\/(settings|account|profile|preferences|security)(\/|$)/i;

/**
 * @typedef {object} ActionFacts
 * @property {string} tool the tool's name
 * @property {Record<string, any>} args
 * @property {{ role: string, name: string } | null} target the element acted on, from the last snapshot
 * @property {string} url the tab's URL
 */
/** @typedef {{ action: 'allow' } | { action: 'ask' | 'block', request: ConfirmRequest }} Decision */

/**
 * @param {{ alwaysAllow?: string[], alwaysConfirm?: string[], unattended?: boolean }} [opts]
 *   alwaysAllow: site patterns (host[:port], or *.host) where the user said "always allow";
 *   alwaysConfirm: site patterns where every acting step asks first (settings → site permissions);
 *   unattended: a scheduled run with nobody to ask
 */
export function createConfirmPolicy(opts = {}) {
  const allowed = (opts.alwaysAllow ?? []).map((s) => s.toLowerCase());
  const confirmAll = (opts.alwaysConfirm ?? []).map((s) => s.toLowerCase());
  return {
    /** @param {ActionFacts} facts @returns {Decision} */
    decide(facts) {
      const site = siteOf(facts.url);
      // The always-confirm list wins over "always allow": the user asked to see every step there.
      if (ACTING_TOOLS.has(facts.tool) && confirmAll.some((p) => siteMatches(p, site))) {
        const request = classify(facts) ?? { category: /** @type {ConfirmCategory} */ ('site'), site, action: describeAction(facts) };
        return { action: opts.unattended ? 'block' : 'ask', request };
      }
      const request = classify(facts);
      if (!request) return { action: 'allow' };
      if (allowed.some((p) => siteMatches(p, request.site))) return { action: 'allow' };
      return { action: opts.unattended ? 'block' : 'ask', request };
    },
    /** @param {string} site */
    allow(site) { allowed.push(site.toLowerCase()); },
  };
}

/** Tools that change the page; on an always-confirm site each of them asks first. */
const ACTING_TOOLS = new Set(['click', 'type', 'navigate', 'set_field', 'select_option', 'check', 'uncheck', 'press_keys', 'drag_drop', 'upload_file', 'submit']);

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

/** @param {ActionFacts} facts */
function describeAction(facts) {
  const target = facts.target ? ` ${facts.target.role} "${facts.target.name}"` : facts.args.ref ? ` ${facts.args.ref}` : '';
  if (facts.tool === 'navigate') return `Open ${facts.args.url}`;
  if (facts.tool === 'type') return `Type into${target}`;
  return `${facts.tool.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase())}${target}`;
}

/** @param {ActionFacts} facts @returns {ConfirmRequest | null} */
export function classify(facts) {
  const site = siteOf(facts.url);
  const name = facts.target?.name ?? '';
  if (facts.tool === 'click' && name) {
    for (const [category, re] of BY_NAME) {
      if (re.test(name)) return { category, site, action: `Click ${facts.target?.role ?? 'element'} "${name}"` };
    }
    if (SETTINGS_PATH.test(pathOf(facts.url)) && /\b(save|update|apply|submit|confirm)\b/i.test(name)) {
      return { category: 'account', site, action: `Click ${facts.target?.role ?? 'element'} "${name}" on the account settings page` };
    }
  }
  // fetch_url with a method other than GET/HEAD changes data on a server: it is a send, named by
  // the server it goes to, not the page the tab shows.
  if (facts.tool === 'fetch_url') {
    const method = String(facts.args.method ?? 'GET').toUpperCase();
    if (method !== 'GET' && method !== 'HEAD') return { category: 'send', site: siteOf(String(facts.args.url)), action: `Send a ${method} request to ${facts.args.url}` };
    return null;
  }
  if (facts.tool === 'type' && facts.args.submit === true && SETTINGS_PATH.test(pathOf(facts.url))) {
    return { category: 'account', site, action: `Submit the form${name ? ` at "${name}"` : ''} on the account settings page` };
  }
  return null;
}

/**
 * The element a ref names, from the latest snapshot in the conversation that lists it.
 * Outline lines look like `- button "Place order" [ref=e5]`.
 * @param {ChatMessage[]} messages @param {string} ref
 * @returns {{ role: string, name: string } | null}
 */
export function describeRef(messages, ref) {
  const marker = `[ref=${ref}]`;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== 'tool') continue;
    const text = textOf(m.content);
    const at = text.indexOf(marker);
    if (at < 0) continue;
    const line = text.slice(text.lastIndexOf('\n', at) + 1, at);
    const named = /-\s*(\S+)\s+"([^"]*)"/.exec(line);
    return named ? { role: named[1], name: named[2] } : { role: 'element', name: line.replace(/^\s*-\s*/, '').trim() };
  }
  return null;
}

/** @param {string} url */
export function siteOf(url) {
  try { return new URL(url).host || url; } catch { return url || 'this page'; }
}

/** @param {string} url */
function pathOf(url) {
  try { return new URL(url).pathname; } catch { return ''; }
}
