// Tools that steer the run itself rather than the page.
/** @import { Tool } from '../../types/core' */
import { fail } from '../error-codes.js';

/** @type {Tool} */
export const done = {
  name: 'done',
  compact: { description: "Finish: summary of what you did and what you saw." },
  description: 'Finish the task. summary: what you did and the result the user should know.',
  parameters: {
    type: 'object',
    properties: { summary: { type: 'string', description: 'A short summary for the user.' } },
    required: ['summary'],
    additionalProperties: false,
  },
  effects: ['controls_run'],
  alwaysOffered: true,
  replay: 'silent',
  says: (t) => t('toolSays_done'),
  terminal: true,
  async run(args) {
    return { ok: true, data: String(args.summary) };
  },
};

/** @type {Tool} */
export const clarify = {
  name: 'clarify',
  compact: { description: "Ask the user one short question." },
  description: 'Ask the user a question when the task is ambiguous or you need information only they have. The run pauses until they answer; the answer is the result.',
  parameters: {
    type: 'object',
    properties: { question: { type: 'string', description: 'One short, specific question.' } },
    required: ['question'],
    additionalProperties: false,
  },
  effects: ['controls_run'],
  alwaysOffered: true,
  says: (t) => t('toolSays_clarify'),
  async run(args, ctx) {
    const answer = ctx.agent ? await ctx.agent.clarify(String(args.question)) : null;
    if (answer === null) return fail('NO_USER', 'nobody can answer questions in this run; decide from what you know, or finish and say what you need');
    return { ok: true, data: `The user answered: ${answer}` };
  },
};

/** @type {Tool} */
export const scratchpad = {
  name: 'scratchpad',
  description: 'Keep a short note (facts found, progress, what is left). It is pinned: it stays visible to you even after older turns are summarized. Each call replaces the note.',
  parameters: {
    type: 'object',
    properties: { note: { type: 'string', description: 'The whole note, at most about 1,500 characters.' } },
    required: ['note'],
    additionalProperties: false,
  },
  effects: ['controls_run'],
  replay: 'silent',
  says: (t) => t('toolSays_scratchpad'),
  async run(args, ctx) {
    if (!ctx.agent) return fail('NO_RUN', 'scratchpad only works inside a chat run');
    const note = String(args.note).slice(0, 2_000);
    ctx.agent.setNote(note);
    return { ok: true, data: `Note saved (${note.length} characters).` };
  },
};
