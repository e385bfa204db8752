// The default actions of editing keys for synthetic key events, which browsers never perform
// themselves: caret moves and selection (arrows, Home/End, with Shift to extend, Control for words and
// the whole text), Control+A, Backspace/Delete, and Control+B/I/U/Z in rich text. content/keys.js calls
// key() only when the page did not prevent the keydown, as a browser would.
import * as Keys from './keys.js';
import * as Secrets from './secrets.js';

/** @typedef {import('../../types/content').Mods} Mods */

const WORD = /[\p{L}\p{N}_]/u;
/** @param {string} v @param {number} i */
const wordLeft = (v, i) => { while (i > 0 && !WORD.test(v[i - 1])) i--; while (i > 0 && WORD.test(v[i - 1])) i--; return i; };
/** @param {string} v @param {number} i */
const wordRight = (v, i) => { while (i < v.length && !WORD.test(v[i])) i++; while (i < v.length && WORD.test(v[i])) i++; return i; };
/** @param {string} v @param {number} i */
const lineStart = (v, i) => v.lastIndexOf('\n', i - 1) + 1;
/** @param {string} v @param {number} i */
const lineEnd = (v, i) => { const k = v.indexOf('\n', i); return k < 0 ? v.length : k; };

/** The same column on the line above (-1) or below (1). @param {string} v @param {number} i @param {number} dir */
function lineMove(v, i, dir) {
  const start = lineStart(v, i), col = i - start;
  if (dir < 0) return start === 0 ? 0 : Math.min(lineStart(v, start - 1) + col, start - 1);
  const end = lineEnd(v, i);
  return end === v.length ? v.length : Math.min(end + 1 + col, lineEnd(v, end + 1));
}

const TEXT_TYPES = new Set(['text', 'search', 'url', 'tel', 'password', 'email', 'number']);
/** A field that holds typed text (not a checkbox, a button or a file input). @param {Element} el @returns {el is HTMLInputElement | HTMLTextAreaElement} */
const isField = (el) => el instanceof HTMLTextAreaElement || (el instanceof HTMLInputElement && TEXT_TYPES.has(el.type));

/** A field's selection, or null where the type has none (email, number). @param {HTMLInputElement | HTMLTextAreaElement} el */
function selectionOf(el) {
  try {
    const s = el.selectionStart, e = el.selectionEnd;
    if (s === null || e === null) return null;
    return { s, e, backward: el.selectionDirection === 'backward' };
  } catch { return null; }
}

/**
 * Where the moving end of the selection goes for a caret key; null for other keys.
 * @param {string} v @param {number} at @param {string} key @param {Mods} m @param {boolean} multiline
 */
function caretTarget(v, at, key, m, multiline) {
  const word = m.ctrl || m.alt;
  if (key === 'ArrowLeft') return word ? wordLeft(v, at) : Math.max(0, at - 1);
  if (key === 'ArrowRight') return word ? wordRight(v, at) : Math.min(v.length, at + 1);
  if (key === 'Home') return m.ctrl || !multiline ? 0 : lineStart(v, at);
  if (key === 'End') return m.ctrl || !multiline ? v.length : lineEnd(v, at);
  if (multiline && key === 'ArrowUp') return lineMove(v, at, -1);
  if (multiline && key === 'ArrowDown') return lineMove(v, at, 1);
  return null;
}

/**
 * Backspace and Delete in a field: the selection, or the character (Control: the word) before or after the caret.
 * @param {HTMLInputElement | HTMLTextAreaElement} el @param {string} key @param {Mods} m
 */
function deleteInField(el, key, m) {
  const v = el.value;
  const sel = selectionOf(el) ?? { s: v.length, e: v.length };
  let from = sel.s, to = sel.e;
  if (from === to && key === 'Backspace') from = m.ctrl ? wordLeft(v, from) : Math.max(0, from - 1);
  else if (from === to) to = m.ctrl ? wordRight(v, to) : Math.min(v.length, to + 1);
  if (from === to) return;
  const inputType = key === 'Backspace' ? (m.ctrl ? 'deleteWordBackward' : 'deleteContentBackward') : (m.ctrl ? 'deleteWordForward' : 'deleteContentForward');
  if (!el.dispatchEvent(new InputEvent('beforeinput', { bubbles: true, cancelable: true, composed: true, inputType }))) return;
  Keys.setNativeValue(el, v.slice(0, from) + v.slice(to));
  try { el.setSelectionRange(from, from); } catch { /* no selection API */ }
  el.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType }));
}

/** @param {HTMLInputElement | HTMLTextAreaElement} el @param {string} key @param {Mods} m */
function fieldKey(el, key, m) {
  if ((m.ctrl || m.meta) && key.toLowerCase() === 'a' && !m.shift) { el.select(); return; }
  if ((m.ctrl || m.meta) && key.toLowerCase() === 'z') { document.execCommand(m.shift ? 'redo' : 'undo'); return; }
  if (key === 'Backspace' || key === 'Delete') { deleteInField(el, key, m); return; }
  const sel = selectionOf(el);
  if (!sel) return;
  const focus = sel.backward ? sel.s : sel.e, anchor = sel.backward ? sel.e : sel.s;
  // Left/Right without Shift collapse a selection to its start or end.
  if (!m.shift && !m.ctrl && sel.s !== sel.e && (key === 'ArrowLeft' || key === 'ArrowRight')) {
    const at = key === 'ArrowLeft' ? sel.s : sel.e;
    el.setSelectionRange(at, at);
    return;
  }
  const to = caretTarget(el.value, focus, key, m, el instanceof HTMLTextAreaElement);
  if (to === null) return;
  if (m.shift) el.setSelectionRange(Math.min(anchor, to), Math.max(anchor, to), to < anchor ? 'backward' : 'forward');
  else el.setSelectionRange(to, to);
}

/** The editing host an element is in: the outermost contenteditable ancestor. @param {HTMLElement} el */
function editingHost(el) {
  let host = el;
  for (let p = el.parentElement; p && p.isContentEditable; p = p.parentElement) host = p;
  return host;
}

/** Move or extend the selection to a boundary of the host. @param {Selection} sel @param {HTMLElement} host @param {boolean} start @param {boolean} extend */
function toHostEdge(sel, host, start, extend) {
  const r = document.createRange();
  r.selectNodeContents(host);
  r.collapse(start);
  if (extend && sel.rangeCount) sel.extend(r.startContainer, r.startOffset);
  else sel.collapse(r.startContainer, r.startOffset);
}

/** @type {Record<string, ['backward' | 'forward', string]>} */
const MOVES = { ArrowLeft: ['backward', 'character'], ArrowRight: ['forward', 'character'], ArrowUp: ['backward', 'line'], ArrowDown: ['forward', 'line'], Home: ['backward', 'lineboundary'], End: ['forward', 'lineboundary'] };

/** Backspace or Delete in rich text: what an editor's execCommand does, after a cancellable beforeinput. @param {string} key @param {Mods} m @param {Selection} sel */
function deleteInRich(key, m, sel) {
  const back = key === 'Backspace';
  if (m.ctrl && sel.isCollapsed) sel.modify('extend', back ? 'backward' : 'forward', 'word');
  const inputType = back ? (m.ctrl ? 'deleteWordBackward' : 'deleteContentBackward') : (m.ctrl ? 'deleteWordForward' : 'deleteContentForward');
  const target = /** @type {Element} */ (Keys.focused());
  if (!target.dispatchEvent(new InputEvent('beforeinput', { bubbles: true, cancelable: true, composed: true, inputType }))) return;
  document.execCommand(back ? 'delete' : 'forwardDelete');
}

/** @param {HTMLElement} el @param {string} key @param {Mods} m */
function richKey(el, key, m) {
  const host = editingHost(el);
  const sel = getSelection();
  if (!sel) return;
  const k = key.length === 1 ? key.toLowerCase() : key;
  if ((m.ctrl || m.meta) && !m.alt) {
    if (k === 'a' && !m.shift) { const r = document.createRange(); r.selectNodeContents(host); sel.removeAllRanges(); sel.addRange(r); return; }
    const cmd = /** @type {Record<string, string>} */ ({ b: 'bold', i: 'italic', u: 'underline', z: m.shift ? 'redo' : 'undo', y: 'redo' })[k];
    if (cmd) { document.execCommand(cmd); return; }
  }
  if (key === 'Backspace' || key === 'Delete') { deleteInRich(key, m, sel); return; }
  const move = MOVES[key];
  if (!move) return;
  if (!m.shift && !sel.isCollapsed && move[1] === 'character' && !m.ctrl) {
    if (key === 'ArrowLeft') sel.collapseToStart(); else sel.collapseToEnd();
    return;
  }
  if (m.ctrl && (key === 'Home' || key === 'End')) { toHostEdge(sel, host, key === 'Home', !!m.shift); return; }
  const granularity = (m.ctrl || m.alt) && move[1] === 'character' ? 'word' : move[1];
  sel.modify(m.shift ? 'extend' : 'move', move[0], granularity);
}

/**
 * The default action of a non-printing key on the focused element (printing keys and Enter are typed
 * by content/keys.js). Keys outside any text (Tab focus moves, PageDown scrolling) are left to the page.
 * @param {Element} el @param {string} key @param {Mods} m
 */
function key(el, key, m) {
  if (isField(el) && !el.readOnly && !el.disabled) return fieldKey(el, key, m);
  if (isField(el) && (m.ctrl || m.meta) && key.toLowerCase() === 'a') return el.select();
  if (el instanceof HTMLElement && el.isContentEditable) return richKey(el, key, m);
  if ((m.ctrl || m.meta) && key.toLowerCase() === 'a' && !m.shift) getSelection()?.selectAllChildren(document.body);
}

/** The text selected in the focused field or the page (a secret field's as the mask), for reports. @param {Element} el */
function selectedText(el) {
  if (isField(el)) {
    const sel = selectionOf(el);
    if (!sel) return null;
    const text = el.value.slice(sel.s, sel.e);
    return Secrets.isSecretField(el) && text ? Secrets.MASK : text;
  }
  return String(getSelection() ?? '');
}

export { key, selectedText };
