// read_page: the page's readable main content as markdown, for Ask mode. Readability (Firefox's
// Reader View) picks the article out of a clone of the document; turndown writes it as markdown.
// Pages Readability cannot parse (apps, search results) fall back to the main landmark's text.
// Injected on first use with vendor/readability.js and vendor/turndown.js (agent/tools/perception.js).
import { tw } from './tabwright.js';

/** @param {number} [maxChars] @returns {import('../../types/core').ToolResult} */
function read(maxChars = 20_000) {
  const head = `# ${document.title}\n${location.href}\n\n`;
  let body = '';
  try {
    const copy = /** @type {Document} */ (document.cloneNode(true));
    // Secret fields' values (value attributes, a textarea's text) are masked in the copy first.
    tw.secrets.scrubClone(document.documentElement, copy.documentElement);
    const article = new Readability(copy, { charThreshold: 300 }).parse();
    if (article && article.content) {
      const td = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
      // Images carry no text a question can use; their alt text is kept.
      td.addRule('img', { filter: 'img', replacement: (/** @type {string} */ _c, /** @type {Element} */ node) => (node.getAttribute('alt') ? `[image: ${node.getAttribute('alt')}]` : '') });
      body = (article.title && article.title !== document.title ? `## ${article.title}\n\n` : '') + td.turndown(article.content);
    }
  } catch { body = ''; }
  if (!body.trim()) {
    const main = document.querySelector('main, article, [role=main]') ?? document.body;
    body = (/** @type {HTMLElement} */ (main).innerText ?? '').replace(/\n{3,}/g, '\n\n').trim();
  }
  body = body.replace(/\n{3,}/g, '\n\n').trim();
  if (body.length > maxChars) body = `${body.slice(0, maxChars)}\n[… truncated at ${maxChars} characters]`;
  return { ok: true, data: tw.secrets.maskText(head + body) };
}

export { read };
Object.assign(tw.handlers, {
  'content.readable': (/** @type {{ maxChars?: number }} */ msg) => read(msg.maxChars),
});
