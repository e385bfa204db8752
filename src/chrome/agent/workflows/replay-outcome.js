// A replay's judgment: the same verdict an agent run gets (agent/outcome.js), over the writes its
// steps caused. A workflow that acts must leave writes the server accepted; one that only reads
// has nothing to check. Browser-free.
/** @import { Outcome } from '../../types/core' */
/** @import { Workflow } from '../../types/workflows' */
/** @import { WriteEntry } from '../safety/write-ledger.js' */
import { judgeRun } from '../outcome.js';
import { readAnswer } from '../safety/answer-reading.js';
import { findTool } from '../tools/index.js';

/** How long the end of a replay waits for answers still on their way before judging. */
export const REPLAY_ANSWER_MS = 5_000;

/** A step that enters data (Tool.entersData): a workflow with one is there to change something (a click alone may only open a menu to read). @param {string} name */
const entersData = (name) => findTool(name)?.entersData === true;

/** @param {Workflow} wf @param {readonly WriteEntry[]} writes @returns {Outcome} */
export function judgeReplay(wf, writes) {
  return judgeRun({ writes, asksForChange: writes.length > 0 || wf.steps.some((s) => entersData(s.tool)), createdJobs: 0 });
}

/**
 * The first write among these that the server refused, said with its words
 * ("POST 127.0.0.1:5000/api/applications → 422: \"The field Phone is required.\""), or null.
 * @param {readonly WriteEntry[]} writes @returns {string | null}
 */
export function refusedBy(writes) {
  for (const w of writes) {
    if (!w.sent || !w.settled) continue;
    const a = readAnswer(w, w.outcome ?? (w.status !== undefined ? { status: w.status } : { error: w.error }));
    if (a.verdict !== 'failed') continue;
    const status = w.outcome?.finalStatus ?? w.status;
    return `${w.method} ${pathOf(w.url)} → ${status ?? 'failed'}${a.said && a.said !== `HTTP ${status}` ? `: "${a.said}"` : ''}`;
  }
  return null;
}

/** @param {string} url */
function pathOf(url) {
  try { const u = new URL(url); return `${u.host}${u.pathname}`; } catch { return url; }
}
