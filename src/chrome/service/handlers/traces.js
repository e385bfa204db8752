// traces.*: the trace viewer's requests: the list, one trace, deleting them.
/** @import { Handler } from './index.js' */
import { required, id } from './request-fields.js';
import { fail } from '../../agent/error-codes.js';

/** @type {Handler[]} */
export const TRACE_HANDLERS = [
  {
    type: 'traces.list',
    fields: {},
    handle: async (_msg, d) => ({ ok: true, data: await d.traces.list() }),
  },
  {
    type: 'traces.get',
    fields: { id: required(id) },
    async handle(msg, d) {
      const trace = await d.traces.get(msg.id);
      return trace ? { ok: true, data: trace } : fail('TRACE_NOT_FOUND');
    },
  },
  {
    type: 'traces.delete',
    fields: { id: required(id) },
    async handle(msg, d) {
      await d.traces.delete(msg.id);
      return { ok: true, data: null };
    },
  },
  {
    type: 'traces.clear',
    fields: {},
    async handle(_msg, d) {
      await d.traces.clear();
      return { ok: true, data: null };
    },
  },
];
