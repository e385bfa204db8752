// Chrome reads PDFs in the offscreen document (offscreen/offscreen.js): the service worker cannot run pdf.js.
/** @import { PdfText } from '../types/platform' */

const PATH = 'offscreen/offscreen.html';
/** @type {Promise<void> | null} */
let creating = null;

async function ensureOffscreen() {
  const url = chrome.runtime.getURL(PATH);
  const contexts = await chrome.runtime.getContexts({ contextTypes: [chrome.runtime.ContextType.OFFSCREEN_DOCUMENT], documentUrls: [url] });
  if (contexts.length) return;
  creating ??= chrome.offscreen.createDocument({ url: PATH, reasons: [chrome.offscreen.Reason.WORKERS], justification: 'Read PDF text with pdf.js, which needs a worker.' })
    .finally(() => { creating = null; });
  await creating;
}

/** @param {string} url @param {{ from?: number, to?: number, maxChars?: number }} opts @returns {Promise<PdfText>} */
export async function readPdf(url, opts) {
  await ensureOffscreen();
  const reply = await chrome.runtime.sendMessage({ type: 'offscreen.readPdf', url, opts });
  if (!reply?.ok) throw new Error(reply?.message ?? 'the offscreen document did not answer');
  return reply.data;
}
