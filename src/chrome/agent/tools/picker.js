// ask_user_which_element: the user points at the element they mean (content/picker.js).
/** @import { Tool } from '../../types/core' */

/** @type {Tool} */
export const askUserWhichElement = {
  name: 'ask_user_which_element',
  description: 'Ask the user to point at an element on the page (an overlay highlights what is under the pointer; they click to choose or press Esc). Use when the request is ambiguous ("this button", "that field"). Returns its ref, a CSS selector, its text and box.',
  parameters: {
    type: 'object',
    properties: { message: { type: 'string', description: 'A short instruction shown to the user, e.g. "Click the price you mean".' } },
    additionalProperties: false,
  },
  effects: ['reads_page'],
  says: (t) => t('toolSays_ask_user_which_element'),
  async run(args, ctx) {
    return ctx.browser.sendToContent(ctx.tabId, { type: 'content.pick', message: args.message, timeoutMs: 120_000 });
  },
};
