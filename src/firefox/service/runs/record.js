// The finished run's history record. The history is a convenience: a failed or stuck write never
// keeps the run going.
/** @import { Mode } from '../../types/core' */
/** @import { Session } from '../session.js' */
/** @import { RunsContext } from '../runs.js' */
import { maskSecretArgs } from '../secret-args.js';

/** How long a history write may hold up the run's end. */
const RECORD_WAIT_MS = 2000;

/**
 * @param {Pick<RunsContext, 'ops' | 'history'>} ctx @param {Session} s
 * @param {{ firstItem: number, startedAt: number, usageBefore: { inputTokens: number, outputTokens: number }, mode: Mode, tab: { url?: string, title?: string } | null, status?: import('../../types/core').RunStatus, outcome?: import('../../types/core').Outcome }} run
 */
export async function recordRun({ ops, history }, s, { firstItem, startedAt, usageBefore, mode, tab, status, outcome }) {
  const usage = { inputTokens: s.usage.inputTokens - usageBefore.inputTokens, outputTokens: s.usage.outputTokens - usageBefore.outputTokens };
  const save = ops.getTab(s.tabId).then((t) => history.save({
    id: `${s.tabId}-${startedAt}`, tabId: s.tabId, url: t?.url ?? tab?.url ?? '', title: t?.title ?? tab?.title ?? '', mode,
    startedAt, endedAt: Date.now(), status, items: s.secrets.maskDeep(s.items.slice(firstItem).map(maskSecretArgs)), usage,
    // The verdict History shows: the same one the panel showed, its receipt masked like the transcript.
    ...(outcome ? { outcome: s.secrets.maskDeep(outcome) } : {}),
  }));
  await Promise.race([save.catch(() => {}), new Promise((r) => setTimeout(r, RECORD_WAIT_MS))]);
}
