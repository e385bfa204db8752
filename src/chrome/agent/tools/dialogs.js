// JavaScript dialogs. content/page-world.js answers alert, confirm and prompt in the page itself so
// a dialog never blocks the tab; every dialog is reported in the effects of the action that opened it.
/** @import { Tool } from '../../types/core' */
import { queued } from './act.js';

/** @type {Tool} */
export const handleDialog = {
  name: 'handle_dialog',
  description: 'Decide how the next confirm() or prompt() dialog on this page is answered (alerts are always acknowledged). By default a confirm is cancelled and a prompt dismissed: after a click reports a dialog, call this with accept true (and prompt_text) and click again if the user wants to go ahead.',
  parameters: {
    type: 'object',
    properties: {
      accept: { type: 'boolean', description: 'true: OK; false: Cancel.' },
      prompt_text: { type: 'string', description: 'The text to answer a prompt() with.' },
      sticky: { type: 'boolean', description: 'Keep answering this way for every later dialog on this page (default: only the next one).' },
    },
    required: ['accept'],
    additionalProperties: false,
  },
  effects: ['reads_page', 'acts_on_page'],
  replay: 'page',
  says: (t, c) => (c.arg?.('accept') === false ? t('toolSays_handle_dialog_dismiss') : t('toolSays_handle_dialog_accept')),
  async run(args, ctx) {
    return queued(ctx.tabId, async () => {
      const r = await ctx.browser.sendToContent(ctx.tabId, { type: 'content.dialogPolicy', accept: args.accept === true, promptText: args.prompt_text, once: args.sticky !== true });
      return r.ok ? { ok: true, data: { nextDialog: args.accept ? 'accept' : 'dismiss', promptText: args.prompt_text ?? null } } : r;
    });
  },
};
