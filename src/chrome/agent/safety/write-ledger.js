// The writes a run caused: every request that changes data which an agent step made the page send
// (from the request hold), whether it was let go or declined, and how it ended (the server's status
// or a network error). Each step's result names its writes ("POST /api/orders → 201"); done is
// checked against them (agent/completion.js). Browser-free.
/** @import { HeldRequest, WriteOutcome } from '../../types/safety' */

/**
 * @typedef {object} WriteEntry
 * @property {string} method
 * @property {string} url
 * @property {boolean} sent false: declined or blocked, it never left the browser
 * @property {number} step the agent step that caused it (1-based)
 * @property {number} [status]
 * @property {string} [error]
 * @property {boolean} settled
 * @property {WriteOutcome} [outcome] the whole answer (status, body, final URL, who answered), for the verdict
 * @property {number} [at] epoch ms when the answer came
 * @property {[string, string][]} [fields] the body's fields as sent
 * @property {string} [body] the body as sent (capped)
 * @property {'request' | 'download' | 'channel'} [kind] channel: a WebSocket frame or another non-HTTP write
 * @property {string} [channel] which channel (websocket_frame, beacon, …)
 * @property {string} [page] the page it was sent from (a form POST redirected back to it shows the form again)
 * @property {boolean} [inTask] it went to one of the task's sites (a third party's telemetry does not judge the task)
 * @property {boolean} [afterDone] the page sent it after the agent said done (reported with the verdict)
 * @property {boolean} [unheld] it left without being held (seen only after it left: a worker's kept send)
 */

/** Where a write was decided: the page, the task's sites, the moment. @typedef {{ page?: string, inTask?: boolean, afterDone?: boolean }} WriteContext */

/** @param {WriteEntry} w */
export function writeLine(w) {
  let path = w.url;
  try { const u = new URL(w.url); path = `${u.host}${u.pathname}`; } catch { /* keep the URL */ }
  const outcome = !w.sent ? `not sent (${w.error ?? 'declined'})` : w.unheld ? 'sent without being held' : w.status !== undefined ? String(w.status) : w.error ? `failed (${w.error})` : w.outcome?.reply !== undefined ? 'replied' : 'no answer yet';
  return `${w.kind === 'channel' ? `${w.channel === 'beacon' ? 'BEACON' : 'SEND'}` : w.method} ${path} → ${outcome}`;
}

/** Did the write change what it meant to (the server said 2xx or 3xx)? @param {WriteEntry} w */
export function succeeded(w) {
  return w.sent && w.status !== undefined && w.status < 400;
}

/** Did it certainly fail (an error status, a network error, or it was never sent)? @param {WriteEntry} w */
export function failed(w) {
  return !w.sent || (w.status !== undefined && w.status >= 400) || (w.status === undefined && Boolean(w.error));
}

/**
 * @param {{ setTimeout: (fn: () => void, ms: number) => any, clearTimeout: (id: any) => void }} [timers] a fake clock in tests
 */
export function createWriteLedger(timers = { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (id) => clearTimeout(id) }) {
  /** @type {WriteEntry[]} */
  const all = [];
  /** @type {WeakMap<HeldRequest, WriteEntry>} */
  const byRequest = new WeakMap();
  /** @type {Map<WriteEntry, (w: WriteEntry) => void>} */
  const waiting = new Map();

  return {
    /**
     * A write decided during the run (under the step that caused it, or the last one).
     * @param {HeldRequest} req @param {boolean} sent @param {number} step @param {WriteContext} [where]
     */
    add(req, sent, step, where = {}) {
      /** @type {WriteEntry} */
      const w = {
        method: req.method, url: req.url, sent, step, settled: !sent, ...(req.fields ? { fields: req.fields } : {}), ...(req.body !== undefined ? { body: req.body } : {}),
        ...(req.kind !== 'request' ? { kind: req.kind } : {}), ...(req.channel ? { channel: req.channel } : {}),
        ...(where.page ? { page: where.page } : {}), ...(where.inTask !== undefined ? { inTask: where.inTask } : {}), ...(where.afterDone ? { afterDone: true } : {}),
      };
      all.push(w);
      byRequest.set(req, w);
      return w;
    },
    /** How a write that was let go ended. @param {HeldRequest} req @param {WriteOutcome} outcome */
    settle(req, outcome) {
      const w = byRequest.get(req);
      if (!w || w.settled) return;
      if (outcome.status !== undefined) w.status = outcome.status;
      if (outcome.error) w.error = outcome.error;
      w.outcome = outcome;
      w.at = Date.now();
      w.settled = true;
      waiting.get(w)?.(w);
      waiting.delete(w);
    },
    /**
     * Waits (at most ms) for these writes to end; calls late(w) for each that ends afterwards.
     * @param {WriteEntry[]} writes @param {number} ms @param {(w: WriteEntry) => void} late
     */
    async settleWithin(writes, ms, late) {
      const open = writes.filter((w) => !w.settled);
      if (!open.length) return;
      /** @type {ReturnType<typeof setTimeout> | undefined} */
      let timer;
      await Promise.race([
        Promise.all(open.map((w) => new Promise((resolve) => waiting.set(w, resolve)))),
        new Promise((resolve) => { timer = timers.setTimeout(() => resolve(undefined), ms); }),
      ]);
      timers.clearTimeout(timer);
      for (const w of open) if (!w.settled) waiting.set(w, late);
    },
    /** Writes still waiting for their answer. */
    open: () => all.filter((w) => !w.settled),
    /** @param {number} step */
    ofStep: (step) => all.filter((w) => w.step === step),
    all: () => /** @type {readonly WriteEntry[]} */ (all),
  };
}
/** @typedef {ReturnType<typeof createWriteLedger>} WriteLedger */
