// traces.*: the trace viewer's requests: the list, one trace, deleting them.
/** @import { Handler } from './index.js' */
import { required, id } from './request-fields.js';

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
      return trace ? { ok: true, data: trace } : { ok: false, code: 'TRACE_NOT_FOUND', message: 'That run has no trace: traces were off when it ran, or it was deleted or expired.' };
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
