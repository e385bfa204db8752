// What data a URL or a write carries, for the rules that ask before it goes to another site:
// shaped strings (e-mail, phone, IBAN, card), values the page showed, and what the agent typed.
/** @import { HeldRequest } from '../../../types/safety' */
/** @import { PolicyMemory } from '../policy-memory.js' */
import { shapedData } from '../page-data.js';
import { fieldsOf } from '../write-kind.js';
import { safeDecode } from '../request-facts.js';

/**
 * Page data a URL carries: e-mail, phone, IBAN and card-shaped strings, and values the page showed
 * (not those in the page's own address: a link to another site may name the page it came from).
 * @param {PolicyMemory} m @param {string} url @param {string} pageUrl @returns {{ label: string, value: string }[]}
 */
export function pageDataInUrl(m, url, pageUrl) {
  let u;
  try { u = new URL(url); } catch { return []; }
  const text = safeDecode(`${u.pathname}${u.search}${u.hash}`);
  const own = safeDecode(pageUrl).toLowerCase();
  /** @type {{ label: string, value: string }[]} */
  const out = shapedData(text).map((d) => ({ label: d.label, value: d.value }));
  for (const v of m.page.carried(text)) {
    if (!own.includes(v.toLowerCase()) && !out.some((o) => o.value.includes(v))) out.push({ label: 'a value the page showed', value: v });
  }
  for (const k of m.known) {
    if (k.length >= 4 && text.toLowerCase().includes(k.toLowerCase()) && !out.some((o) => o.value.includes(k))) out.push({ label: 'what the agent typed', value: k });
  }
  return out.map((d) => ({ label: d.label, value: `${d.value} (${d.label})` }));
}

/** Labels of the page data a body holds (shaped strings, values the page showed that are not in its address). @param {PolicyMemory} m @param {string} text @param {string} pageUrl */
export function pageDataIn(m, text, pageUrl) {
  const own = safeDecode(pageUrl).toLowerCase();
  return [...shapedData(text).map((d) => d.label), ...m.page.carried(text).filter((v) => !own.includes(v.toLowerCase())).map(() => 'a value the page showed')];
}

/** What a write sends, decoded and lower-cased, for the checks that look for data in it. @param {HeldRequest} req */
export function sentText(req) {
  return `${req.body ?? ''}\n${safeDecode(req.body ?? '')}\n${fieldsOf(req).map(([k, v]) => `${k}=${v}`).join('\n')}\n${safeDecode(req.url)}`.toLowerCase();
}

/** Does what a write sends hold something the agent typed? @param {PolicyMemory} m @param {string} sent sentText's */
export function carriesTyped(m, sent) {
  return m.known.some((k) => k.length >= 3 && sent.includes(k.toLowerCase()));
}
