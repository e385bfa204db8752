// chat.*: the panel's Send, Stop, New chat, Continue, and the transcript it shows on opening.
/** @import { Handler } from './index.js' */
import { required, tabId, text, oneOf } from './request-fields.js';

/** @type {Handler[]} */
export const CHAT_HANDLERS = [
  {
    type: 'chat.send',
    fields: { tabId: required(tabId), text: required(text), mode: required(oneOf(['ask', 'act', 'plan'])) },
    handle: (msg, d) => d.runs.startChat(msg.tabId, msg.text, msg.mode),
  },
  {
    type: 'chat.stop',
    fields: { tabId: required(tabId) },
    async handle(msg, d) {
      const s = d.sessions.get(msg.tabId);
      return { ok: true, data: { stopped: s ? d.runs.stopRun(s) : false } };
    },
  },
  {
    type: 'chat.clear',
    fields: { tabId: required(tabId) },
    async handle(msg, d) {
      // The same session, emptied: the panel listening to it follows the next run.
      await d.runs.newChat(await d.session(msg.tabId));
      return { ok: true, data: null };
    },
  },
  {
    type: 'chat.state',
    fields: { tabId: required(tabId) },
    async handle(msg, d) {
      const s = await d.session(msg.tabId);
      return { ok: true, data: { items: s.items, running: s.running, phase: s.state.phase } };
    },
  },
  {
    // Retry (after an error) and Continue (after Stop): the conversation goes on as it stands.
    type: 'chat.retry',
    fields: { tabId: required(tabId) },
    handle: (msg, d) => d.runs.retryChat(msg.tabId),
  },
  {
    type: 'chat.continue',
    fields: { tabId: required(tabId) },
    handle: (msg, d) => d.runs.continueChat(msg.tabId),
  },
];
