// The run ledger in Redis, beside BullMQ's own keys: for each idempotency key, where its run stands
// (started by which worker, done with which verdict, parked for a person), how many times a worker
// began it, and its stored result and trace. A retry reads it before doing anything, so a run that
// is done is never run again, and a run cut off mid-way is looked up before it is run again.
/** @import { Redis } from 'ioredis' */
/** @import { RunResult } from '../result.js' */

/**
 * @typedef {object} LedgerEntry
 * @property {'started' | 'done' | 'parked'} state
 * @property {string} worker the worker that began (or finished) it: host:pid
 * @property {number} pid
 * @property {number} attempt the queue's attempt that began it
 * @property {number} runs how many times a worker began running it (a run taken over after a cut-off counts twice)
 * @property {string} [verdict]
 * @property {string} [recovered] how a cut-off run was settled without running it again
 */

/** @param {Redis} redis @param {string} prefix e.g. "tabwright" */
export function createLedger(redis, prefix) {
  const entryKey = (/** @type {string} */ key) => `${prefix}:run:${key}`;
  const resultKey = (/** @type {string} */ key) => `${prefix}:result:${key}`;
  const parkedKey = `${prefix}:parked`;
  return {
    /** @param {string} key @returns {Promise<LedgerEntry | null>} */
    async get(key) {
      const h = await redis.hgetall(entryKey(key));
      if (!h.state) return null;
      return { ...h, state: /** @type {LedgerEntry['state']} */ (h.state), worker: h.worker ?? '', pid: Number(h.pid), attempt: Number(h.attempt), runs: Number(h.runs ?? 0) };
    },
    /** A worker begins running it: written before the browser does anything. @param {string} key @param {{ worker: string, pid: number, attempt: number }} who */
    async start(key, who) {
      await redis.multi().hset(entryKey(key), { state: 'started', worker: who.worker, pid: who.pid, attempt: who.attempt, startedAt: Date.now() }).hincrby(entryKey(key), 'runs', 1).exec();
    },
    /** A run that never began (nothing was sent): the next attempt runs it as new. @param {string} key */
    async forget(key) {
      await redis.hdel(entryKey(key), 'state');
    },
    /** @param {string} key @param {RunResult & { recovered?: string }} result */
    async finish(key, result) {
      await redis.multi().set(resultKey(key), JSON.stringify(result))
        .hset(entryKey(key), { state: 'done', verdict: result.verdict, endedAt: Date.now(), ...(result.recovered ? { recovered: result.recovered } : {}) }).exec();
    },
    /** A run that needs a person: kept with its reason until someone looks. @param {string} key @param {RunResult} result */
    async park(key, result) {
      await redis.multi().set(resultKey(key), JSON.stringify(result))
        .hset(entryKey(key), { state: 'parked', verdict: result.verdict, endedAt: Date.now() })
        .hset(parkedKey, key, JSON.stringify({ reason: result.needsPerson?.reason ?? '', kind: result.needsPerson?.kind ?? '', at: Date.now() })).exec();
    },
    /** @param {string} key @returns {Promise<(RunResult & { recovered?: string }) | null>} */
    async result(key) {
      const text = await redis.get(resultKey(key));
      return text ? JSON.parse(text) : null;
    },
    /** The runs waiting for a person, by key. @returns {Promise<Record<string, { reason: string, kind: string, at: number }>>} */
    async parked() {
      const h = await redis.hgetall(parkedKey);
      return Object.fromEntries(Object.entries(h).map(([k, v]) => [k, JSON.parse(v)]));
    },
  };
}
/** @typedef {ReturnType<typeof createLedger>} Ledger */
