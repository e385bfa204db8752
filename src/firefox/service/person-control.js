import { fail } from '../agent/error-codes.js';
// Tabs the person has (a sign-in, a code, a challenge: agent/handoff/): while they do, nothing reads
// them. Every content request but the few below is refused, and so is a screenshot, whoever asks (the
// agent's tools, the tool runner, an MCP client), so what they type there reaches no model, trace
// or storage.

/** What may still be asked of such a tab: whether it still asks for the person (no value), the code the person typed into the card, and the indicator. */
const ALLOWED = new Set(['content.handoff', 'content.handoffFill', 'content.indicator', 'content.indicatorState', 'content.ping', 'content.recordingBadge']);

export function createPersonControl() {
  /** tab → how many handoffs hold it @type {Map<number, number>} */
  const tabs = new Map();
  return {
    /** @param {number} tabId */
    take(tabId) { tabs.set(tabId, (tabs.get(tabId) ?? 0) + 1); },
    /** @param {number} tabId */
    give(tabId) {
      const n = (tabs.get(tabId) ?? 1) - 1;
      if (n > 0) tabs.set(tabId, n); else tabs.delete(tabId);
    },
    /** @param {number} tabId */
    has(tabId) { return tabs.has(tabId); },
    /**
     * The refusal for a request to a tab the person has, or null when it may go.
     * @param {number} tabId @param {string} type
     * @returns {{ ok: false, code: 'PERSON_IN_CONTROL', message: string } | null}
     */
    refusal(tabId, type) {
      if (!tabs.has(tabId) || ALLOWED.has(type)) return null;
      return fail('PERSON_IN_CONTROL');
    },
  };
}
/** @typedef {ReturnType<typeof createPersonControl>} PersonControl */
