// What a transcript card may use: localized strings and the router. Passed in by panel.js so the
// cards stay free of the panel's state.
/** @import { RouterReply, RouterRequest } from '../../types/messages' */

/**
 * @typedef {object} CardContext
 * @property {(key: string, subs?: string | string[]) => string} t
 * @property {(req: RouterRequest) => Promise<RouterReply>} request
 * @property {() => number | null} tabId
 */

/**
 * A button that sends one request and disables its card's buttons while it is on its way.
 * @param {string} label @param {string} className @param {() => Promise<unknown>} action
 */
export function cardButton(label, className, action) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = className;
  b.textContent = label;
  b.addEventListener('click', async () => {
    const card = b.closest('.card');
    const buttons = card ? [...card.querySelectorAll('button')] : [b];
    for (const x of buttons) x.disabled = true;
    try { await action(); } finally { for (const x of buttons) x.disabled = false; }
  });
  return b;
}

/** @param {string} className @param {string} [text] */
export function el(className, text, tag = 'div') {
  const e = document.createElement(tag);
  e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}
