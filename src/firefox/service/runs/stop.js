// Stop and New chat: a run ends in whatever state it is, and New chat empties the same session.
/** @import { Session } from '../session.js' */
/** @import { RunsContext } from '../runs.js' */

/** How long New chat waits for the stopped run to be recorded. */
const NEW_CHAT_WAIT_MS = 3000;

/**
 * Stop: ends the run in whatever state it is (starting included); a second Stop changes nothing.
 * @param {Session} s @param {'user' | 'tab_closed'} [reason] @returns {boolean} whether a run was stopped
 */
export function stopRun(s, reason = 'user') {
  if (s.running) s.stopReason = reason;
  s.run?.abort();
  return s.state.transition('stop');
}

/**
 * New chat: the old run is stopped and given a moment to be recorded, then the same session
 * starts empty, so the panel that listens to it shows the next run live.
 * @param {Pick<RunsContext, 'ops' | 'spend'>} ctx @param {Session} s
 */
export async function newChat({ ops, spend }, s) {
  stopRun(s);
  await Promise.race([s.settled.catch(() => {}), new Promise((r) => setTimeout(r, NEW_CHAT_WAIT_MS))]);
  spend?.forget(s.tabId);
  s.reset();
  // The style sheets inject_css added leave with the conversation that added them.
  await ops.devtools.revert(s.tabId).catch(() => {});
}
