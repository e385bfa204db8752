// Firefox reads PDFs in the background page itself, loading pdf.js on first use.
/** @import { PdfText } from '../types/platform' */
import { fetchPdf, pdfText } from '../service/pdf-text.js';

/** @type {Promise<any> | null} */
let pdfjs = null;

/** @param {string} url @param {{ from?: number, to?: number, maxChars?: number }} opts @returns {Promise<PdfText>} */
export async function readPdf(url, opts) {
  pdfjs ??= import('../vendor/pdf.mjs').then((m) => {
    m.GlobalWorkerOptions.workerSrc = browser.runtime.getURL('vendor/pdf.worker.mjs');
    return m;
  });
  return pdfText(await pdfjs, await fetchPdf(url), opts);
}
