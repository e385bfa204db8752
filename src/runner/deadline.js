// One run's whereabouts and its deadline. Every wait a run makes on its browser goes through a
// watched view of it (watchRun), so a run that does not finish can say what it waits for: the tab
// to load, the extension's answer to one request (which), the lookup. Past its deadline the run is
// given up whatever it waits for: its tabs are closed (their page, its held requests and its
// renderer go with them), and the run's promise rejects with a DeadlineError at once, so the
// worker takes the next job. A wait that answers after that is ignored: the run is over.
/** @import { Browser } from './browser.js' */

/** The run was given up at its deadline; `where` is what it was waiting for then. */
export class DeadlineError extends Error {
  /** @param {string} key @param {number} ms @param {string} where */
  constructor(key, ms, where) {
    super(`${key} passed its deadline of ${Math.round(ms / 1000)} s while waiting for ${where}.`);
    this.code = 'RUN_DEADLINE';
    this.where = where;
  }
}

/**
 * @typedef {object} Whereabouts what a run waits for now, for a worker's reports
 * @property {string} key
 * @property {number} startedAt
 * @property {string} waiting what the run waits for now ('' between waits)
 * @property {number} waitingSince
 * @property {string} lastStep the run's last progress line
 * @property {string} state the run's state at the runner's last look (running, its phase)
 */

/**
 * A view of the browser for one run that records each wait and the tabs the run opened.
 * @param {Browser} b @param {string} key
 */
export function watchRun(b, key) {
  /** @type {Whereabouts} */
  const where = { key, startedAt: Date.now(), waiting: '', waitingSince: Date.now(), lastStep: '', state: '' };
  /** @type {Set<number>} */
  const tabs = new Set();
  /** Set once the run is given up: what it still asks fails at once, so its loop ends too. @type {Error | null} */
  let over = null;
  /** @template T @param {string} what @param {() => Promise<T>} start @returns {Promise<T>} */
  const wait = (what, start) => {
    if (over) return Promise.reject(over);
    const p = start();
    where.waiting = what;
    where.waitingSince = Date.now();
    return p.finally(() => { if (where.waiting === what) where.waiting = ''; });
  };
  /** @type {Browser} */
  const view = {
    ...b,
    ask: (req) => wait(`the extension's answer to ${req.type}`, () => b.ask(req)),
    openTab: async (url, made) => wait(`the tab at ${url} to load`, () => b.openTab(url, (id) => { tabs.add(id); made?.(id); })),
    closeTab: (id) => { tabs.delete(id); return wait(`tab ${id} to close`, () => b.closeTab(id)); },
    readText: (url) => wait(`the lookup ${url}`, () => b.readText(url)),
  };
  return { view, where, tabs, end: (/** @type {Error} */ err) => { over = err; } };
}

/**
 * Runs work on a watched view of b; past ms its tabs are closed and the promise rejects with a
 * DeadlineError (the work itself may still be pending: whatever it gets later is dropped).
 * @template T
 * @param {Browser} b @param {string} key @param {number} ms
 * @param {(view: Browser, where: Whereabouts) => Promise<T>} work
 * @param {Set<Whereabouts>} [running] the worker's runs in progress, for its reports
 * @param {(err: DeadlineError, closed: number[]) => void} [onGiveUp] hears the run given up and the tabs closed
 * @returns {Promise<T>}
 */
export async function withinDeadline(b, key, ms, work, running, onGiveUp) {
  const { view, where, tabs, end } = watchRun(b, key);
  running?.add(where);
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => {
      const err = new DeadlineError(key, ms, where.waiting || `the run to go on (last step: ${where.lastStep || 'none yet'}; ${where.state || 'no state read'})`);
      end(err);
      // A close that does not answer either (the browser itself stuck) must not hold the worker.
      const ids = [...tabs];
      const closed = Promise.all(ids.map((id) => b.closeTab(id)));
      Promise.race([closed, new Promise((r) => setTimeout(r, 10_000))]).finally(() => { onGiveUp?.(err, ids); reject(err); });
    }, ms);
  });
  try {
    return /** @type {T} */ (await Promise.race([work(view, where), late]));
  } finally {
    clearTimeout(timer);
    running?.delete(where);
  }
}

/**
 * A line per run in progress for longer than `after` ms: what it waits for and since when.
 * @param {Iterable<Whereabouts>} running @param {number} after @param {number} [now]
 * @returns {string[]}
 */
export function slowRuns(running, after, now = Date.now()) {
  return [...running].filter((w) => now - w.startedAt > after).map((w) => `${w.key}: ${Math.round((now - w.startedAt) / 1000)} s in, ${w.waiting ? `waiting ${Math.round((now - w.waitingSince) / 1000)} s for ${w.waiting}` : 'between waits'}; last step: ${w.lastStep || 'none yet'}; state: ${w.state || 'not read yet'}`);
}
