// jobs.*: scheduled jobs; the scheduler (service/jobs.js) validates each job itself.
/** @import { Handler } from './index.js' */
import { required, id, object } from './request-fields.js';

/** @type {Handler[]} */
export const JOB_HANDLERS = [
  { type: 'jobs.list', fields: {}, handle: (msg, d) => d.jobs().handle(msg) },
  { type: 'jobs.create', fields: { job: required(object) }, handle: (msg, d) => d.jobs().handle(msg) },
  { type: 'jobs.update', fields: { id: required(id), patch: required(object) }, handle: (msg, d) => d.jobs().handle(msg) },
  ...(/** @type {const} */ (['jobs.pause', 'jobs.resume', 'jobs.runNow', 'jobs.delete'])).map((type) => /** @type {Handler} */ ({ type, fields: { id: required(id) }, handle: (msg, d) => d.jobs().handle(msg) })),
];
