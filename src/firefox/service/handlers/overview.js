// runs.*: the runs overview, read when a panel opens it (afterwards the router pushes each change).
/** @import { Handler } from './index.js' */

/** @type {Handler[]} */
export const OVERVIEW_HANDLERS = [
  {
    type: 'runs.list',
    fields: {},
    handle: async (_msg, d) => ({ ok: true, data: await d.overview.list() }),
  },
];
