// Trusted mouse and keyboard input through CDP (Input.dispatchMouseEvent, dispatchKeyEvent,
// insertText): events arrive with isTrusted === true, which some pages require (React's synthetic
// events do not, but drag libraries, editors and anti-bot checks do).
/** @import { TrustedInput, PointerOptions } from '../types/platform' */
/** @typedef {ReturnType<typeof import('./session.js').createCdpSessions>} Sessions */

/** CDP modifier bit field: Alt=1, Ctrl=2, Meta=4, Shift=8. @param {string[] | undefined} list */
function modBits(list) {
  let bits = 0;
  for (const m of list ?? []) {
    const k = m.toLowerCase();
    if (k === 'alt') bits |= 1;
    else if (k === 'control' || k === 'ctrl') bits |= 2;
    else if (k === 'meta' || k === 'command') bits |= 4;
    else if (k === 'shift') bits |= 8;
  }
  return bits;
}

/** Windows virtual key codes and the text a key types; what dispatchKeyEvent needs to act like a keyboard. */
const NAMED = /** @type {Record<string, { code: string, keyCode: number, text?: string }>} */ ({
  Enter: { code: 'Enter', keyCode: 13, text: '\r' }, Tab: { code: 'Tab', keyCode: 9 }, Escape: { code: 'Escape', keyCode: 27 },
  Backspace: { code: 'Backspace', keyCode: 8 }, Delete: { code: 'Delete', keyCode: 46 }, ArrowUp: { code: 'ArrowUp', keyCode: 38 },
  ArrowDown: { code: 'ArrowDown', keyCode: 40 }, ArrowLeft: { code: 'ArrowLeft', keyCode: 37 }, ArrowRight: { code: 'ArrowRight', keyCode: 39 },
  Home: { code: 'Home', keyCode: 36 }, End: { code: 'End', keyCode: 35 }, PageUp: { code: 'PageUp', keyCode: 33 }, PageDown: { code: 'PageDown', keyCode: 34 },
  ' ': { code: 'Space', keyCode: 32, text: ' ' }, Space: { code: 'Space', keyCode: 32, text: ' ' },
});

/** @param {string} key */
function keyDef(key) {
  if (key === 'Esc') key = 'Escape';
  const named = NAMED[key];
  if (named) return { key: key === 'Space' ? ' ' : key, ...named };
  if (/^F\d{1,2}$/.test(key)) return { key, code: key, keyCode: 111 + Number(key.slice(1)) };
  if ([...key].length === 1) {
    const up = key.toUpperCase();
    const code = /[A-Z]/.test(up) ? `Key${up}` : /\d/.test(key) ? `Digit${key}` : '';
    return { key, code, keyCode: /[A-Z0-9]/.test(up) ? up.charCodeAt(0) : 0, text: key };
  }
  return { key, code: key, keyCode: 0 };
}

/** One key press through CDP, typing its text unless Ctrl/Alt/Meta is held. @param {Sessions} cdp @param {number} tabId @param {string} key @param {number} modifiers */
async function pressKey(cdp, tabId, key, modifiers) {
  const d = keyDef(key);
  // With Ctrl/Alt/Meta held a key types nothing (Ctrl+A selects); Shift still types.
  const text = modifiers & 7 ? undefined : d.text;
  const common = { key: d.key, code: d.code, windowsVirtualKeyCode: d.keyCode, nativeVirtualKeyCode: d.keyCode, modifiers };
  // Ctrl+A and friends need the editing command, or Chrome's key handling ignores them under CDP.
  const commands = modifiers & 2 || modifiers & 4 ? ({ a: ['selectAll'], c: ['copy'], x: ['cut'], v: ['paste'], z: ['undo'] })[d.key.toLowerCase()] : undefined;
  await cdp.send(tabId, 'Input.dispatchKeyEvent', { type: text ? 'keyDown' : 'rawKeyDown', text, unmodifiedText: text, ...common, ...(commands ? { commands } : {}) });
  await cdp.send(tabId, 'Input.dispatchKeyEvent', { type: 'keyUp', ...common });
}

/**
 * The first node a CSS selector matches anywhere in the page, shadow trees included (DOM.performSearch;
 * DOM.querySelector stops at shadow roots). 0 when none.
 * @param {Sessions} cdp @param {number} tabId @param {string} selector @returns {Promise<number>}
 */
async function searchNode(cdp, tabId, selector) {
  const { searchId, resultCount } = await cdp.send(tabId, 'DOM.performSearch', { query: selector });
  try {
    if (!resultCount) return 0;
    const { nodeIds } = await cdp.send(tabId, 'DOM.getSearchResults', { searchId, fromIndex: 0, toIndex: 1 });
    return nodeIds[0] ?? 0;
  } finally {
    await cdp.send(tabId, 'DOM.discardSearchResults', { searchId }).catch(() => {});
  }
}

/** "Control+B" → key "b" (what the keyboard sends: pages test e.key === 'b'; "B" with Shift) and the modifier bits. @param {string} chord */
function parseChord(chord) {
  const parts = chord.split('+');
  let key = parts.pop() || '+';
  const modifiers = modBits(parts);
  if (modifiers && /^[a-z]$/i.test(key)) key = modifiers & 8 ? key.toUpperCase() : key.toLowerCase();
  return { key, modifiers };
}

/** Set a file input's files from paths on this computer. @param {Sessions} cdp @param {number} tabId @param {string} selector @param {string[]} paths */
async function setFileInputFiles(cdp, tabId, selector, paths) {
  const { root } = await cdp.send(tabId, 'DOM.getDocument', { depth: 0 });
  let { nodeId } = await cdp.send(tabId, 'DOM.querySelector', { nodeId: root.nodeId, selector });
  if (!nodeId) nodeId = await searchNode(cdp, tabId, selector);
  if (!nodeId) throw new Error(`no element matches ${selector}`);
  await cdp.send(tabId, 'DOM.setFileInputFiles', { nodeId, files: paths });
}

/** How long a move's or a wheel turn's answer is waited for (a few frames of a visible tab). */
const FRAME_WAIT_MS = 150;

/** @param {Sessions} cdp @returns {TrustedInput} */
export function createTrustedInput(cdp) {
  const BUTTON = { left: 'left', right: 'right', middle: 'middle' };

  /**
   * Moves and wheel turns are delivered with the page's next frame, and a tab in the background
   * draws none (Chromium acknowledges them seconds later, or never): their answer is waited for a
   * short while only. The event stays queued in order, and the press that follows delivers it first.
   * @param {number} tabId @param {string} type @param {number} x @param {number} y @param {Record<string, unknown>} [extra]
   */
  const mouse = async (tabId, type, x, y, extra = {}) => {
    const sent = cdp.send(tabId, 'Input.dispatchMouseEvent', { type, x, y, ...extra });
    if (type !== 'mouseMoved' && type !== 'mouseWheel') return sent;
    // The tab in front answers at its next frame: wait for it, as ever.
    if ((await chrome.tabs.get(tabId).catch(() => null))?.active) return sent;
    sent.catch(() => {});
    return Promise.race([sent, new Promise((r) => setTimeout(r, FRAME_WAIT_MS))]);
  };

  /** @param {number} tabId @param {string} key @param {number} modifiers */
  const press = (tabId, key, modifiers) => pressKey(cdp, tabId, key, modifiers);

  return {
    async move(tabId, p) {
      await mouse(tabId, 'mouseMoved', p.x, p.y, { modifiers: modBits(p.modifiers) });
    },
    async click(tabId, p) {
      const button = BUTTON[p.button ?? 'left'];
      const modifiers = modBits(p.modifiers);
      const buttons = button === 'left' ? 1 : button === 'right' ? 2 : 4;
      const count = Math.max(1, p.clickCount ?? 1);
      for (let i = 1; i <= count; i++) {
        await mouse(tabId, 'mousePressed', p.x, p.y, { button, buttons, clickCount: i, modifiers });
        await mouse(tabId, 'mouseReleased', p.x, p.y, { button, buttons: 0, clickCount: i, modifiers });
      }
    },
    async drag(tabId, from, to, steps = 10) {
      await mouse(tabId, 'mouseMoved', from.x, from.y);
      await mouse(tabId, 'mousePressed', from.x, from.y, { button: 'left', buttons: 1, clickCount: 1 });
      for (let i = 1; i <= steps; i++) {
        await mouse(tabId, 'mouseMoved', from.x + ((to.x - from.x) * i) / steps, from.y + ((to.y - from.y) * i) / steps, { button: 'left', buttons: 1 });
      }
      await mouse(tabId, 'mouseReleased', to.x, to.y, { button: 'left', buttons: 0, clickCount: 1 });
    },
    async wheel(tabId, p, dx, dy) {
      await mouse(tabId, 'mouseWheel', p.x, p.y, { deltaX: dx, deltaY: dy });
    },
    async keys(tabId, chord) {
      const c = parseChord(chord);
      await press(tabId, c.key, c.modifiers);
    },
    async typeText(tabId, text) {
      cdp.resetNavigation(tabId);
      let typed = 0;
      for (const ch of text) {
        // Stop at a navigation: the rest would be typed into the next page.
        if (cdp.navigating(tabId)) break;
        if (ch === '\n') await press(tabId, 'Enter', 0);
        else if (keyDef(ch).keyCode || ch === ' ') await press(tabId, ch, 0);
        // Characters without a key of their own (é, 漢, emoji) arrive as an IME would send them.
        else await cdp.send(tabId, 'Input.insertText', { text: ch });
        typed++;
      }
      return { typed, interrupted: cdp.navigating(tabId) && typed < [...text].length };
    },
    async insertText(tabId, text) {
      await cdp.send(tabId, 'Input.insertText', { text });
    },
    setFiles: (tabId, selector, paths) => setFileInputFiles(cdp, tabId, selector, paths),
    navigating(tabId) { return cdp.navigating(tabId); },
    resetNavigation(tabId) { cdp.resetNavigation(tabId); },
  };
}
