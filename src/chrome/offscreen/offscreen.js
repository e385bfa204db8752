// Chrome's offscreen document: work a service worker cannot do. Today: reading PDFs with pdf.js
// (its worker needs a document). Answers only messages addressed to it ('offscreen.*').
import * as pdfjs from '../vendor/pdf.mjs';
import { fetchPdf, pdfText } from '../service/pdf-text.js';

pdfjs.GlobalWorkerOptions.workerSrc = chrome.runtime.getURL('vendor/pdf.worker.mjs');

chrome.runtime.onMessage.addListener((/** @type {any} */ msg, /** @type {chrome.runtime.MessageSender} */ sender, /** @type {(r: unknown) => void} */ sendResponse) => {
  if (msg?.type !== 'offscreen.readPdf' || sender.id !== chrome.runtime.id) return false;
  fetchPdf(msg.url)
    .then((data) => pdfText(pdfjs, data, msg.opts ?? {}))
    .then((data) => sendResponse({ ok: true, data }), (err) => sendResponse({ ok: false, message: err instanceof Error ? err.message : String(err) }));
  return true;
});
