// The user's answers to a run's questions: plan approval, confirmation cards, clarify.
/** @import { Handler, HandlerDeps } from './index.js' */
/** @import { RouterReply } from '../../types/messages' */
import { required, tabId, id, text, textList, oneOf } from './request-fields.js';
import { originOf } from '../../agent/safety/scope.js';
import { fail } from '../../agent/error-codes.js';

/**
 * Hands the panel's answer to the run waiting for it.
 * @param {HandlerDeps} d @param {number} tab @param {string} question @param {unknown} value @returns {Promise<RouterReply>}
 */
async function answer(d, tab, question, value) {
  const s = await d.session(tab);
  if (s.answer(question, value)) return { ok: true, data: null };
  return fail('NOT_WAITING', 'the run ended or was stopped');
}

/** @type {Handler[]} */
export const ANSWER_HANDLERS = [
  {
    type: 'plan.approve',
    fields: { tabId: required(tabId), id: required(id), steps: required(textList) },
    handle: (msg, d) => answer(d, msg.tabId, msg.id, { approved: true, steps: msg.steps }),
  },
  {
    type: 'plan.reject',
    fields: { tabId: required(tabId), id: required(id) },
    handle: (msg, d) => answer(d, msg.tabId, msg.id, { approved: false, steps: [] }),
  },
  {
    type: 'confirm.answer',
    // "yes" allows once, "task" allows for this task, "no" declines.
    fields: { tabId: required(tabId), id: required(id), answer: required(oneOf(['yes', 'task', 'no'])) },
    handle: (msg, d) => answer(d, msg.tabId, msg.id, msg.answer),
  },
  {
    // The person's word on the "Your turn" card: Done (the run goes on) or Cancel (it ends).
    type: 'handoff.answer',
    fields: { tabId: required(tabId), id: required(id), answer: required(oneOf(['done', 'cancel'])) },
    handle: (msg, d) => answer(d, msg.tabId, msg.id, msg.answer),
  },
  {
    // "Go to the tab": the tab the run waits in comes to the front, in its window.
    type: 'handoff.focus',
    fields: { tabId: required(tabId) },
    async handle(msg) {
      const tab = await browser.tabs.update(msg.tabId, { active: true }).catch(() => null);
      if (!tab) return fail('TAB_GONE');
      if (tab.windowId !== undefined) await browser.windows.update(tab.windowId, { focused: true }).catch(() => {});
      return { ok: true, data: null };
    },
  },
  {
    // The code the person typed into the card: into the code field of the site the card is for, and
    // nowhere else; it joins the tab's secrets (masked everywhere) and never enters the conversation.
    type: 'handoff.fill',
    fields: { tabId: required(tabId), id: required(id), code: required(text) },
    async handle(msg, d) {
      const s = await d.session(msg.tabId);
      const item = s.item(msg.id);
      if (item?.kind !== 'handoff' || item.status !== 'waiting' || item.moment.kind !== 'second_factor' || item.moment.factor === 'push') return fail('NOT_WAITING', 'no code is asked for any more');
      const code = msg.code.trim();
      const tab = await browser.tabs.get(msg.tabId).catch(() => null);
      const here = originOf(tab?.url ?? '');
      if (!here || here !== originOf(item.moment.url)) return fail('PAGE_CHANGED', `the tab is no longer on ${item.moment.site}; the code was not filled in`);
      s.secrets.add([code], here);
      return d.ops.sendToContent(msg.tabId, { type: 'content.handoffFill', code });
    },
  },
  {
    type: 'clarify.answer',
    fields: { tabId: required(tabId), id: required(id), text: required(text) },
    async handle(msg, d) {
      if (!msg.text.trim()) return fail('EMPTY', 'type an answer first');
      return answer(d, msg.tabId, msg.id, msg.text.trim());
    },
  },
];
