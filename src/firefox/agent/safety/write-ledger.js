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
 */

/** @param {WriteEntry} w */
export function writeLine(w) {
  let path = w.url;
  try { const u = new URL(w.url); path = `${u.host}${u.pathname}`; } catch { /* keep the URL */ }
  const outcome = !w.sent ? 'not sent (declined)' : w.status !== undefined ? String(w.status) : w.error ? `failed (${w.error})` : 'no answer yet';
  return `${w.method} ${path} → ${outcome}`;
}

/** Did the write change what it meant to (the server said 2xx or 3xx)? @param {WriteEntry} w */
export function succeeded(w) {
  return w.sent && w.status !== undefined && w.status < 400;
}

/** Did it certainly fail (an error status, a network error, or it was never sent)? @param {WriteEntry} w */
export function failed(w) {
  return !w.sent || (w.status !== undefined && w.status >= 400) || (w.status === undefined && Boolean(w.error));
}

export function createWriteLedger() {
  /** @type {WriteEntry[]} */
  const all = [];
  /** @type {WeakMap<HeldRequest, WriteEntry>} */
  const byRequest = new WeakMap();
  /** @type {Map<WriteEntry, (w: WriteEntry) => void>} */
  const waiting = new Map();

  return {
    /** A write decided during a step. @param {HeldRequest} req @param {boolean} sent @param {number} step */
    add(req, sent, step) {
      /** @type {WriteEntry} */
      const w = { method: req.method, url: req.url, sent, step, settled: !sent, ...(req.fields ? { fields: req.fields } : {}), ...(req.body !== undefined ? { body: req.body } : {}) };
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
      await Promise.race([
        Promise.all(open.map((w) => new Promise((resolve) => waiting.set(w, resolve)))),
        new Promise((resolve) => setTimeout(resolve, ms)),
      ]);
      for (const w of open) if (!w.settled) waiting.set(w, late);
    },
    /** @param {number} step */
    ofStep: (step) => all.filter((w) => w.step === step),
    all: () => /** @type {readonly WriteEntry[]} */ (all),
  };
}
/** @typedef {ReturnType<typeof createWriteLedger>} WriteLedger */
