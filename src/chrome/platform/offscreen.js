// Chrome's one offscreen document (offscreen/offscreen.js): created on first need with every
// reason it serves (pdf.js's worker, the recorder's media stream), asked through one contract.

const PATH = 'offscreen/offscreen.html';
/** @type {Promise<void> | null} */
let creating = null;

async function ensureOffscreen() {
  const url = chrome.runtime.getURL(PATH);
  const contexts = await chrome.runtime.getContexts({ contextTypes: [chrome.runtime.ContextType.OFFSCREEN_DOCUMENT], documentUrls: [url] });
  if (contexts.length) return;
  creating ??= chrome.offscreen.createDocument({
    url: PATH,
    reasons: [chrome.offscreen.Reason.WORKERS, chrome.offscreen.Reason.USER_MEDIA, chrome.offscreen.Reason.BLOBS],
    justification: 'Read PDF text with pdf.js (which needs a worker) and record a tab the user asked to record.',
  }).finally(() => { creating = null; });
  await creating;
}

/** Is the document there already (a recording may be going on)? */
export async function offscreenExists() {
  const contexts = await chrome.runtime.getContexts({ contextTypes: [chrome.runtime.ContextType.OFFSCREEN_DOCUMENT], documentUrls: [chrome.runtime.getURL(PATH)] });
  return contexts.length > 0;
}

/**
 * One request to the offscreen document; its answer is { ok, data } or { ok: false, code?, message }.
 * @param {{ type: string } & Record<string, unknown>} msg @returns {Promise<any>}
 */
export async function askOffscreen(msg) {
  await ensureOffscreen();
  const reply = await chrome.runtime.sendMessage(msg);
  if (!reply) throw new Error('the offscreen document did not answer');
  return reply;
}
