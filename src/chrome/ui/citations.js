// Places the model cites in an answer ("the total is in [e12]"): each ref becomes a button that
// scrolls the page to that element and outlines it (content/highlight.js). Only refs written as
// [e12] or [f3:e4] in the answer's text count; code blocks are left as they are.
/** @import { RouterRequest, RouterReply } from '../types/messages' */

const REF = /\[((?:f\d+:)?e\d+)\]/g;
/** The same, without the global flag: test() on a global expression keeps a position between calls. */
const HAS_REF = /\[(?:f\d+:)?e\d+\]/;

/**
 * @param {HTMLElement} el a rendered answer
 * @param {{ tabId: () => number | null, request: (r: RouterRequest) => Promise<RouterReply<any>>, t: (key: string, subs?: string[]) => string, showStatus: (text: string) => void }} deps
 */
export function linkCitations(el, { tabId, request, t, showStatus }) {
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => (n.parentElement?.closest('pre, code, button, a') ? NodeFilter.FILTER_REJECT : HAS_REF.test(n.textContent ?? '') ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_SKIP),
  });
  /** @type {Text[]} */
  const nodes = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) nodes.push(/** @type {Text} */ (n));
  for (const node of nodes) {
    const text = node.textContent ?? '';
    const parts = [];
    let last = 0;
    for (const m of text.matchAll(REF)) {
      parts.push(document.createTextNode(text.slice(last, m.index)));
      parts.push(citeButton(m[1]));
      last = (m.index ?? 0) + m[0].length;
    }
    parts.push(document.createTextNode(text.slice(last)));
    node.replaceWith(...parts);
  }

  /** @param {string} ref */
  function citeButton(ref) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'cite';
    b.dataset.ref = ref;
    b.textContent = ref;
    b.title = t('citeShow');
    b.setAttribute('aria-label', `${t('citeShow')} (${ref})`);
    b.addEventListener('click', async () => {
      const id = tabId();
      if (id === null) return;
      const r = await request({ type: 'page.highlight', tabId: id, ref });
      if (!r.ok) showStatus(t('citeGone'));
    });
    return b;
  }
}
