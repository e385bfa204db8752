// The runs overview: every active run (its tab, task, state, where it came from, the card it waits on)
// and the work queued for a free slot, pushed to every open panel when it changes
// (ui/runs-overview.js). Built from the live sessions, so it cannot disagree with them.
/** @import { Session } from './session.js' */
/** @import { RunRow, QueuedRow } from '../types/messages' */

/** The kinds of transcript card a run waits on the person for, and the status each has while it waits. */
const WAITING = new Map([['plan', 'pending'], ['confirm', 'pending'], ['clarify', 'pending'], ['budget', 'pending'], ['handoff', 'waiting']]);
/** Changes come in bursts (a streamed answer, a card and the state after it): one push per burst. */
const PUSH_DELAY_MS = 60;

/**
 * @param {object} deps
 * @param {Map<number, Session>} deps.sessions
 * @param {() => import('./run-slots.js').QueuedRun[]} deps.queued
 * @param {(tabId: number) => import('./run-groups.js').RunGroup | null} deps.groupOf
 * @param {(tabId: number) => Promise<{ url: string, title: string } | null>} deps.getTab
 * @param {(tabId: number) => import('../types/spend').RunCostView | null} [deps.costOf] a run's tokens and cost so far
 */
export function createRunsOverview({ sessions, queued, groupOf, getTab, costOf = () => null }) {
  /** @type {Set<(rows: { runs: RunRow[], queued: QueuedRow[] }) => void>} */
  const listeners = new Set();
  let last = '';
  /** @type {ReturnType<typeof setTimeout> | null} */
  let timer = null;

  /** @returns {Promise<{ runs: RunRow[], queued: QueuedRow[] }>} */
  async function list() {
    const active = [...sessions.values()].filter((s) => s.running);
    const runs = await Promise.all(active.map(row));
    return { runs: runs.sort((a, b) => a.startedAt - b.startedAt), queued: queued().map((q) => ({ id: q.id, kind: q.kind, title: q.title, since: q.since, limit: q.limit })) };
  }

  /** @param {Session} s @returns {Promise<RunRow>} */
  async function row(s) {
    const tab = await getTab(s.tabId).catch(() => null);
    const waiting = [...s.items].reverse().find((i) => WAITING.has(i.kind) && /** @type {{ status?: string }} */ (i).status === WAITING.get(i.kind));
    const cost = costOf(s.tabId);
    const group = groupOf(s.tabId);
    const origin = s.origin ?? { kind: 'panel' };
    return {
      tabId: s.tabId, phase: s.state.phase, mode: s.mode, task: s.task ?? '', startedAt: s.startedAt ?? 0,
      kind: origin.kind, ...(origin.label ? { label: origin.label } : {}),
      tab: { url: tab?.url ?? '', title: tab?.title ?? '' },
      ...(waiting ? { waiting } : {}),
      ...(group ? { group: { title: group.title, tabs: [...group.tabs], grouped: group.groupId !== null } } : {}),
      ...(cost && cost.run.calls > 0 ? { cost } : {}),
    };
  }

  async function push() {
    timer = null;
    const rows = await list();
    const text = JSON.stringify(rows);
    if (text === last) return;
    last = text;
    for (const l of listeners) { try { l(rows); } catch { /* a closed panel; removed on disconnect */ } }
  }

  return {
    list,
    /** Something a row shows may have changed: the panels hear the new list once the burst is over. */
    changed() { if (!timer && listeners.size) timer = setTimeout(() => { void push(); }, PUSH_DELAY_MS); },
    /** @param {(rows: { runs: RunRow[], queued: QueuedRow[] }) => void} fn @returns {() => void} */
    subscribe(fn) {
      listeners.add(fn);
      return () => { listeners.delete(fn); };
    },
  };
}
