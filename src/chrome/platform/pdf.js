// Chrome reads PDFs in the offscreen document (offscreen/offscreen.js): the service worker cannot run pdf.js.
/** @import { PdfText } from '../types/platform' */
import { askOffscreen } from './offscreen.js';

/** @param {string} url @param {{ from?: number, to?: number, maxChars?: number }} opts @returns {Promise<PdfText>} */
export async function readPdf(url, opts) {
  const reply = await askOffscreen({ type: 'offscreen.readPdf', url, opts });
  if (!reply.ok) throw new Error(reply.message ?? 'the offscreen document could not read the PDF');
  return reply.data;
}
