// An Interaction double: records what the run asked the user and answers from a script.
/** @import { ConfirmAnswer, ConfirmRequest, Interaction } from '../../src/chrome/types/core' */

/**
 * @param {{ plan?: (steps: string[]) => { approved: boolean, steps: string[] }, confirm?: ConfirmAnswer, clarify?: string }} answers
 */
export function fakeInteraction(answers = {}) {
  /** @type {{ plans: string[][], confirms: ConfirmRequest[], questions: string[] }} */
  const asked = { plans: [], confirms: [], questions: [] };
  /** @type {Interaction & { asked: typeof asked }} */
  const ui = {
    asked,
    async approvePlan(_id, steps) { asked.plans.push(steps); return answers.plan ? answers.plan(steps) : { approved: true, steps }; },
    async confirm(req) { asked.confirms.push(req); return answers.confirm ?? 'no'; },
    async clarify(q) { asked.questions.push(q); return answers.clarify ?? 'no idea'; },
  };
  return ui;
}
