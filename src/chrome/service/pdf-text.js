// The text of a PDF's pages through pdf.js, given the loaded pdf.js module: shared by Firefox's
// background page and Chrome's offscreen document (a service worker cannot load pdf.js's worker).

/**
 * @param {{ getDocument: (src: any) => { promise: Promise<any>, destroy?: () => Promise<void> } }} pdfjs
 * @param {ArrayBuffer} data
 * @param {{ from?: number, to?: number, maxChars?: number }} opts pages are 1-based and inclusive
 * @returns {Promise<{ pages: number, from: number, to: number, text: string, truncated: boolean }>}
 */
export async function pdfText(pdfjs, data, opts) {
  const task = pdfjs.getDocument({ data: new Uint8Array(data), isEvalSupported: false });
  try {
    const doc = await task.promise;
    const pages = doc.numPages;
    const from = Math.max(1, Math.min(opts.from ?? 1, pages));
    const to = Math.max(from, Math.min(opts.to ?? pages, pages));
    const max = opts.maxChars ?? 30_000;
    let text = '';
    let truncated = false;
    for (let n = from; n <= to; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      const body = content.items.map((/** @type {{ str?: string, hasEOL?: boolean }} */ i) => (i.str ?? '') + (i.hasEOL ? '\n' : '')).join('').replace(/[ \t]+\n/g, '\n').trim();
      text += `--- page ${n} ---\n${body}\n`;
      if (text.length > max) { text = text.slice(0, max); truncated = true; break; }
    }
    return { pages, from, to, text: text.trim(), truncated };
  } finally {
    await task.destroy?.();
  }
}

/** @param {string} url @returns {Promise<ArrayBuffer>} */
export async function fetchPdf(url) {
  const res = await fetch(url, { credentials: 'include', signal: AbortSignal.timeout(30_000) });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.arrayBuffer();
}
