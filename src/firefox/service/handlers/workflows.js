// workflows.*: saving a run as a workflow, the review page's save, running one in a tab, repairs
// saved back, export and import (service/workflows.js does the work).
/** @import { Handler } from './index.js' */
import { required, optional, id, tabId, object, wholeNumber } from './request-fields.js';
import { fail } from '../../agent/error-codes.js';

/** @type {import('./request-fields.js').FieldCheck} */
const values = (v) => (v && typeof v === 'object' && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string') ? null : 'must be an object of text values');
/** @type {import('./request-fields.js').FieldCheck} */
const flag = (v) => (typeof v === 'boolean' ? null : 'must be true or false');

/** @type {Handler[]} */
export const WORKFLOW_HANDLERS = [
  {
    type: 'workflows.list',
    fields: {},
    handle: async (_msg, d) => ({ ok: true, data: await d.workflows.store.list() }),
  },
  {
    type: 'workflows.get',
    fields: { id: required(id) },
    async handle(msg, d) {
      const wf = await d.workflows.store.get(msg.id);
      return wf ? { ok: true, data: wf } : fail('WORKFLOW_NOT_FOUND');
    },
  },
  {
    type: 'workflows.draft',
    fields: { runId: required(id) },
    handle: (msg, d) => d.workflows.draft(msg.runId),
  },
  {
    type: 'workflows.save',
    fields: { workflow: required(object) },
    handle: (msg, d) => d.workflows.save(msg.workflow),
  },
  {
    type: 'workflows.delete',
    fields: { id: required(id) },
    async handle(msg, d) {
      await d.workflows.store.remove(msg.id);
      return { ok: true, data: null };
    },
  },
  {
    type: 'workflows.run',
    fields: { tabId: required(tabId), id: required(id), values: optional(values), repair: optional(flag) },
    async handle(msg, d) {
      const run = await d.workflows.begin(msg.tabId, msg.id, msg.values ?? {}, { repair: msg.repair });
      return run.ok ? { ok: true, data: { started: true } } : run;
    },
  },
  {
    type: 'workflows.applyRepair',
    fields: { id: required(id), step: required(wholeNumber(0, 1_000)), accept: required(flag) },
    handle: (msg, d) => d.workflows.applyRepair(msg.id, msg.step, msg.accept),
  },
  {
    type: 'workflows.export',
    fields: { id: optional(id) },
    handle: (msg, d) => d.workflows.exportAll(msg.id),
  },
  {
    type: 'workflows.import',
    fields: { data: required(object) },
    handle: (msg, d) => d.workflows.importAll(msg.data),
  },
];
