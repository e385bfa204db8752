// history.*: past runs, kept in IndexedDB (service/history-store.js), for the panel's history view.
/** @import { Handler } from './index.js' */
import { required, optional, id, wholeNumber } from './request-fields.js';
import { fail } from '../../agent/error-codes.js';

/** @type {Handler[]} */
export const HISTORY_HANDLERS = [
  {
    type: 'history.list',
    fields: { limit: optional(wholeNumber(1, 10_000)) },
    handle: async (_msg, d) => ({ ok: true, data: await d.history.list() }),
  },
  {
    type: 'history.get',
    fields: { id: required(id) },
    async handle(msg, d) {
      const run = await d.history.get(msg.id);
      return run ? { ok: true, data: run } : fail('NOT_FOUND', 'that run is no longer in the history');
    },
  },
  {
    type: 'history.clear',
    fields: {},
    async handle(_msg, d) {
      // A run's trace goes with it.
      await Promise.all([d.history.clear(), d.traces.clear()]);
      return { ok: true, data: null };
    },
  },
  {
    // One run, with its trace.
    type: 'history.delete',
    fields: { id: required(id) },
    async handle(msg, d) {
      await Promise.all([d.history.delete(msg.id), d.traces.delete(msg.id)]);
      return { ok: true, data: null };
    },
  },
];
