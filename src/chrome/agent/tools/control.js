// Tools that steer the run itself rather than the page.
/** @import { Tool } from '../../types/core' */

/** @type {Tool} */
export const done = {
  name: 'done',
  description: 'Finish the task. summary: what you did and the result the user should know.',
  parameters: {
    type: 'object',
    properties: { summary: { type: 'string', description: 'A short summary for the user.' } },
    required: ['summary'],
    additionalProperties: false,
  },
  readOnly: true,
  terminal: true,
  async run(args) {
    return { ok: true, data: String(args.summary) };
  },
};
