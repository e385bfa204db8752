// spend.*: what runs spend (every tab's run and today's, for the runs overview), and the cap a
// person raised on a run paused at its budget (the budget card's Continue).
/** @import { Handler } from './index.js' */
import { required, tabId, id } from './request-fields.js';
import { capLetsThrough } from '../../agent/spend/caps.js';
import { fail } from '../../agent/error-codes.js';

/** A positive amount of tokens or dollars. @param {unknown} v */
const amount = (v) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? null : 'must be a number above 0');

/** @type {Handler[]} */
export const SPEND_HANDLERS = [
  {
    type: 'spend.status',
    fields: {},
    handle: async (_msg, d) => ({ ok: true, data: await d.spend.status() }),
  },
  {
    type: 'spend.raise',
    fields: { tabId: required(tabId), id: required(id), amount: required(amount) },
    async handle(msg, d) {
      const s = await d.session(msg.tabId);
      const item = s.item(msg.id);
      if (item?.kind !== 'budget' || item.status !== 'pending') return fail('NOT_WAITING', 'the run ended or was stopped');
      // A cap the paused call would still pass would only pause the run again at once.
      if (!capLetsThrough(item.pause, msg.amount)) return fail('INVALID_ARGUMENTS', `the new cap must be at least ${item.pause.unit === 'usd' ? `$${(item.pause.used + item.pause.next).toFixed(4)}` : `${Math.ceil(item.pause.used + item.pause.next)} tokens`}: what was used plus the next call`);
      s.answer(msg.id, msg.amount);
      return { ok: true, data: null };
    },
  },
];
