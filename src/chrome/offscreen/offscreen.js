// Chrome's offscreen document: work a service worker cannot do, behind one small message contract.
// Requests come only from the extension itself and are named 'offscreen.<job>':
//   offscreen.readPdf            { url, opts }                         → { ok, data: PdfText }        (pdf.js needs a worker)
//   offscreen.recorder.start     { streamId | relay, tabId, audio, maxSeconds, maxBytes } → { ok, data: status }
//                                (streamId: tab capture, recorded here; relay: the panel's lock, whose
//                                MediaRecorder sends its chunks here: relay.js)
//   offscreen.recorder.stop      {}                                    → { ok, data: { url, bytes, ms, mimeType, reason } }
//   offscreen.recorder.status    {}                                    → { ok, data: status }
//   offscreen.recorder.release   { url }                               → the saved file's bytes are freed
// and one it sends: offscreen.recorder.finished { file } when a recording ended by itself.
import * as pdfjs from '../vendor/pdf.mjs';
import { fetchPdf, pdfText } from '../service/pdf-text.js';
import * as recorder from './recorder.js';

pdfjs.GlobalWorkerOptions.workerSrc = chrome.runtime.getURL('vendor/pdf.worker.mjs');
recorder.onFinished((file) => { chrome.runtime.sendMessage({ type: 'offscreen.recorder.finished', file }).catch(() => {}); });

/** @type {Record<string, (msg: any) => unknown>} */
const JOBS = {
  'offscreen.readPdf': async (msg) => ({ ok: true, data: await pdfText(pdfjs, await fetchPdf(msg.url), msg.opts ?? {}) }),
  'offscreen.recorder.start': (msg) => recorder.start(msg),
  'offscreen.recorder.stop': () => recorder.stop(),
  'offscreen.recorder.status': () => ({ ok: true, data: recorder.status() }),
  'offscreen.recorder.release': (msg) => recorder.release(msg),
};

chrome.runtime.onMessage.addListener((/** @type {any} */ msg, /** @type {chrome.runtime.MessageSender} */ sender, /** @type {(r: unknown) => void} */ sendResponse) => {
  const job = typeof msg?.type === 'string' && Object.hasOwn(JOBS, msg.type) ? JOBS[msg.type] : null;
  if (!job || sender.id !== chrome.runtime.id) return false;
  Promise.resolve().then(() => job(msg))
    .then(sendResponse, (err) => sendResponse({ ok: false, message: err instanceof Error ? `${err.name}: ${err.message}` : String(err) }));
  return true;
});
