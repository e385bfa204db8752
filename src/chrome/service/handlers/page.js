// page.*: the panel shows the user a place on the page (a ref the model cited in its answer).
/** @import { Handler } from './index.js' */
import { required, tabId, text } from './request-fields.js';
import { fail } from '../../agent/error-codes.js';

/** @type {Handler[]} */
export const PAGE_HANDLERS = [
  {
    type: 'page.highlight',
    fields: { tabId: required(tabId), ref: required(text) },
    async handle(msg, d) {
      if (!/^(?:f\d+:)?e\d+$/.test(msg.ref)) return fail('INVALID_REQUEST', `"${msg.ref}" is not a ref like e12`);
      return d.ops.sendToContent(msg.tabId, { type: 'content.highlight', target: { ref: msg.ref } });
    },
  },
];
