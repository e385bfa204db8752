import { fail } from '../../agent/error-codes.js';
// The messages of content/channel-hold.js, the one content script the router answers besides the
// indicator's Stop: whether its tab is held, a send to judge, a reply to pair, a refusal to tell. They are not in the
// handler table (that serves Tabwright's own pages): the router hands them here only when the
// sender is this extension's content script in a tab, and the tab and frame come from the sender.
/** @import { ChannelHold, ChannelSender } from '../channel-hold.js' */

/**
 * @param {ChannelHold} channels @param {any} msg
 * @param {{ tab?: { id?: number, url?: string }, frameId?: number, url?: string }} sender
 * @param {(r: unknown) => void} sendResponse
 * @returns {boolean} whether the answer comes later (the runtime's onMessage contract)
 */
export function answerChannelHold(channels, msg, sender, sendResponse) {
  /** @type {ChannelSender} */
  const from = { tabId: /** @type {number} */ (sender.tab?.id), frameId: sender.frameId ?? 0, url: sender.url ?? '', tabUrl: sender.tab?.url };
  if (msg.type === 'channelHold.state') {
    sendResponse({ ok: true, data: channels.state(from.tabId) });
    return false;
  }
  if (msg.type === 'channelHold.reply') {
    channels.reply(from, msg);
    sendResponse({ ok: true, data: null });
    return false;
  }
  if (msg.type === 'channelHold.refused') {
    channels.refused(from, msg);
    sendResponse({ ok: true, data: null });
    return false;
  }
  if (msg.type === 'channelHold.send') {
    channels.send(from, msg).then(
      (r) => sendResponse(typeof r === 'string' ? fail('INVALID_REQUEST', `channelHold.send: ${r}`) : { ok: true, data: r }),
      (err) => sendResponse(fail('INTERNAL_ERROR', err instanceof Error ? err.message : String(err))));
    return true;
  }
  sendResponse(fail('UNKNOWN_REQUEST', `"${msg.type}"`));
  return false;
}
