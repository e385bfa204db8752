// The gate's waits: for a promise at most so long (or until the run stops), and for the cards
// still open.
/** @import { GuardRun } from './run-state.js' */

/** Waits for p, at most ms (or until the run stops). @param {GuardRun} g @param {Promise<unknown>} p @param {number} ms */
export function within(g, p, ms) {
  const { signal, timers } = g;
  return new Promise((resolve) => {
    if (ms <= 0 || signal?.aborted) { resolve(undefined); return; }
    const end = () => { timers.clearTimeout(id); signal?.removeEventListener('abort', end); resolve(undefined); };
    const id = timers.setTimeout(end, ms);
    signal?.addEventListener('abort', end, { once: true });
    p.then(end, end);
  });
}

/** @param {GuardRun} g @param {number} ms */
export function sleep(g, ms) { return within(g, new Promise(() => {}), ms); }

/** Decisions still being made (cards the user has not answered). @param {GuardRun} g */
export async function decisionsMade(g) {
  while (g.pending.size) await Promise.race([...g.pending]);
}
