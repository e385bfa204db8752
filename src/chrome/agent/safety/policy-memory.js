// What the safety policy reads from its settings and remembers during a run: the sites the person
// always allows or always confirms, what "Allow for this task" opened, the destinations a card
// allowed before the step ran, what the page showed, what the agent typed, and the writes already
// sent. The rules (rules/) read it; the policy's notes (answered, notePage, remember, noteSent)
// change it.
/** @import { ConfirmRequest, SecretVault } from '../../types/safety' */
/** @import { TaskScope } from './scope.js' */
import { createPageMemory } from './page-data.js';
import { createLookalikeIndex } from './lookalike.js';

/**
 * @typedef {object} PolicyOptions
 * @property {TaskScope} scope
 * @property {string[]} [alwaysAllow] site patterns where writes inside the task scope need no card
 * @property {string[]} [alwaysConfirm] site patterns where every acting step asks
 * @property {boolean} [strictSecrets] refuse, rather than ask, when a secret would go elsewhere
 * @property {SecretVault} [secrets]
 * @property {(url: string) => { name: string } | null} [sensitiveSite] the high-risk site adapter of a URL (banks, payment and
 *   cloud consoles, admin and account security; docs/ADAPTERS.md): every acting step there asks, and the always-allow list does not apply
 */

/** @param {PolicyOptions} opts */
export function createPolicyMemory(opts) {
  const { scope } = opts;
  const userText = scope.userText ?? '';
  /** Lookalike references: the user's words, and the words the page showed. */
  const userWords = createLookalikeIndex();
  userWords.add([userText]);
  return {
    opts,
    scope,
    userText,
    allowSites: (opts.alwaysAllow ?? []).map((s) => s.toLowerCase()),
    confirmSites: (opts.alwaysConfirm ?? []).map((s) => s.toLowerCase()),
    /** What "Allow for this task" opened: write kinds (write-kind.js) and code on an origin, each with the highest severity allowed. */
    allowedWrites: /** @type {Map<string, 'normal' | 'high'>} */ (new Map()),
    /** Destinations the user allowed once on a card before the step ran (navigate): the navigation itself asks no second time. */
    approvedUrls: /** @type {Set<string>} */ (new Set()),
    /** The URL a destination card asked about. */
    cardUrls: /** @type {WeakMap<ConfirmRequest, string>} */ (new WeakMap()),
    /** What the page showed the model (policy.notePage). */
    page: createPageMemory(),
    userWords,
    pageWords: createLookalikeIndex(),
    /** Strings the agent typed or the user wrote: a URL that carries one to another site asks first. */
    known: /** @type {string[]} */ ([]),
    /** Writes already sent in this task (method, URL and body): the same one again asks first. */
    sentWrites: /** @type {Set<string>} */ (new Set()),
    /** scope.has by origin, remembered (wantsRequest runs for every request; "Allow for this task" clears it). */
    scopeCache: /** @type {Map<string, boolean>} */ (new Map()),
    /** Known secrets masked in what a card shows. @param {string} s */
    mask: (s) => opts.secrets?.mask(s) ?? s,
  };
}
/** @typedef {ReturnType<typeof createPolicyMemory>} PolicyMemory */

/** Does an earlier "Allow for this task" cover this kind at this severity? @param {PolicyMemory} m @param {string} key @param {'normal' | 'high'} severity */
export function covers(m, key, severity) {
  const allowed = m.allowedWrites.get(key);
  return allowed === 'high' || (allowed === 'normal' && severity === 'normal');
}

/** scope.has by origin, remembered. @param {PolicyMemory} m @param {string} url */
export function inScope(m, url) {
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url)?.[0] ?? url;
  let hit = m.scopeCache.get(origin);
  if (hit === undefined) {
    hit = m.scope.has(url);
    if (m.scopeCache.size > 2000) m.scopeCache.clear();
    m.scopeCache.set(origin, hit);
  }
  return hit;
}

/** The strings the agent typed that a value is, or holds. @param {PolicyMemory} m @param {string} v */
export function typedIn(m, v) {
  const low = v.toLowerCase();
  return m.known.filter((k) => low === k.toLowerCase() || (k.length >= 4 && low.includes(k.toLowerCase())));
}
