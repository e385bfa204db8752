// The panel side of a paused run: each question (plan approval, confirmation, clarify, a budget, the
// person's turn at a sign-in or a challenge) becomes a
// transcript card, and the run waits until the panel answers through the router.
/** @import { ConfirmAnswer, Interaction } from '../types/core' */
/** @import { Session } from './session.js' */
import { suggestedCap } from '../agent/spend/caps.js';

/**
 * @param {Session} s
 * @returns {Interaction}
 */
export function createPanelInteraction(s) {
  return {
    async approvePlan(planId, steps, signal) {
      // The plan card already exists (the loop's 'plan' event); it waits for plan.approve / plan.reject.
      return s.wait(planId, signal);
    },
    async confirm(req, signal) {
      const id = s.newId();
      s.upsert({ kind: 'confirm', id, ...req, status: 'pending' });
      /** @type {ConfirmAnswer} */
      const answer = await s.wait(id, signal);
      const item = s.item(id);
      if (item?.kind === 'confirm') s.upsert({ ...item, status: answer });
      return answer;
    },
    handoff(moment, signal) {
      const id = s.newId();
      s.upsert({ kind: 'handoff', id, moment, status: 'waiting' });
      /** @type {Promise<'done' | 'cancel'>} */
      const answer = s.wait(id, signal);
      return {
        answer,
        update(u) {
          s.upsert({ kind: 'handoff', id, moment: u.moment, status: u.status, ...(u.failed ? { failed: u.failed } : {}), ...(u.evidence ? { evidence: u.evidence } : {}) });
          // The run went on by itself: nothing waits for the card's buttons any more.
          if (u.status !== 'waiting') s.answer(id, 'done');
        },
      };
    },
    async clarify(question, signal) {
      const id = s.newId();
      s.upsert({ kind: 'clarify', id, question, status: 'pending' });
      /** @type {string} */
      const answer = await s.wait(id, signal);
      s.upsert({ kind: 'clarify', id, question, answer, status: 'answered' });
      return answer;
    },
    async budget(pause, signal) {
      const id = s.newId();
      s.upsert({ kind: 'budget', id, pause, suggested: suggestedCap(pause), status: 'pending' });
      /** @type {number} */
      const amount = await s.wait(id, signal);
      const item = s.item(id);
      if (item?.kind === 'budget') s.upsert({ ...item, status: 'raised', raisedTo: amount });
      return amount;
    },
  };
}
