// The synthetic keyboard: key presses with the default actions pages rely on (typing, Enter, and the
// caret and selection keys through content/editing.js), typing into fields, and the type, keys and
// focus requests. Firefox relies on these; Chrome falls back to them when the debugger cannot attach.
import { tw } from './tabwright.js';
import * as Dom from './dom.js';
import * as Editing from './editing.js';
import * as Input from './input.js';
import * as Secrets from './secrets.js';
import { fail } from '../../agent/error-codes.js';

/** @typedef {import('../../types/core').ToolResult} ToolResult */
/** @typedef {import('../../types/core').ActionTarget} ActionTarget */
/** @typedef {import('../../types/content').Mods} Mods */

/** @param {HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement} el @param {string} value */
function setNativeValue(el, value) {
  // React and Vue track the value on the element instance; the prototype's setter bypasses their
  // override so the input event they receive is seen as a real change (React's inputValueTracking).
  const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : el instanceof HTMLSelectElement ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
  const setter = Object.getOwnPropertyDescriptor(proto, 'value')?.set;
  if (setter) setter.call(el, value); else el.value = value;
}

/** Key names to what KeyboardEvent carries. @param {string} key */
function keyInfo(key) {
  const named = /** @type {Record<string, [string, number]>} */ ({
    Enter: ['Enter', 13], Tab: ['Tab', 9], Escape: ['Escape', 27], Esc: ['Escape', 27], Backspace: ['Backspace', 8], Delete: ['Delete', 46],
    ArrowUp: ['ArrowUp', 38], ArrowDown: ['ArrowDown', 40], ArrowLeft: ['ArrowLeft', 37], ArrowRight: ['ArrowRight', 39],
    Home: ['Home', 36], End: ['End', 35], PageUp: ['PageUp', 33], PageDown: ['PageDown', 34], Space: [' ', 32], ' ': [' ', 32],
  });
  if (named[key]) { const [k, kc] = named[key]; return { key: k, code: k === ' ' ? 'Space' : k, keyCode: kc }; }
  if (/^F\d{1,2}$/.test(key)) return { key, code: key, keyCode: 111 + Number(key.slice(1)) };
  if (key.length === 1) {
    const up = key.toUpperCase();
    const code = /[A-Z]/.test(up) ? `Key${up}` : /\d/.test(key) ? `Digit${key}` : '';
    return { key, code, keyCode: up.charCodeAt(0) };
  }
  return { key, code: key, keyCode: 0 };
}

/** The element keys go to. */
function focused() {
  let a = document.activeElement;
  while (a && Dom.shadowOf(a)?.activeElement) a = /** @type {ShadowRoot} */ (Dom.shadowOf(a)).activeElement;
  return a ?? document.body;
}

/**
 * Insert text at the caret of the focused field, as typing does: beforeinput, the value, input.
 * @param {Element} el @param {string} text
 */
function insertText(el, text) {
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
    const ok = el.dispatchEvent(new InputEvent('beforeinput', { bubbles: true, cancelable: true, composed: true, inputType: 'insertText', data: text }));
    if (!ok) return;
    let start = el.value.length, end = el.value.length;
    try { start = el.selectionStart ?? start; end = el.selectionEnd ?? end; } catch { /* number/date inputs have no selection */ }
    const next = el.value.slice(0, start) + text + el.value.slice(end);
    setNativeValue(el, next);
    try { el.setSelectionRange(start + text.length, start + text.length); } catch { /* no selection API */ }
    el.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText', data: text }));
  } else if (el instanceof HTMLElement && el.isContentEditable) {
    const ok = el.dispatchEvent(new InputEvent('beforeinput', { bubbles: true, cancelable: true, composed: true, inputType: 'insertText', data: text }));
    if (!ok) return;
    // execCommand keeps the editor's undo stack and selection; editors listen for its input event.
    if (!document.execCommand('insertText', false, text)) {
      const sel = getSelection();
      if (sel && sel.rangeCount) { const r = sel.getRangeAt(0); r.deleteContents(); r.insertNode(document.createTextNode(text)); r.collapse(false); }
      else el.append(text);
      el.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText', data: text }));
    }
  }
}

/**
 * One key press and, unless the page prevented it, the browser's default action: synthetic key events
 * never make the browser type, move the caret or select, so they are done here (content/editing.js).
 * @param {string} key @param {Mods} m
 */
function syntheticKey(key, m) {
  const el = focused();
  // A chord's letter is what the keyboard sends: "b" for Control+B, "B" with Shift.
  if (/^[a-z]$/i.test(key) && (m.ctrl || m.alt || m.meta || m.shift)) key = m.shift ? key.toUpperCase() : key.toLowerCase();
  const info = keyInfo(key);
  const init = { ...info, which: info.keyCode, bubbles: true, cancelable: true, composed: true, ctrlKey: !!m.ctrl, shiftKey: !!m.shift, altKey: !!m.alt, metaKey: !!m.meta };
  let proceed = el.dispatchEvent(new KeyboardEvent('keydown', init));
  const printable = info.key.length === 1 && !m.ctrl && !m.meta && !m.alt;
  if (proceed && (printable || info.key === 'Enter')) proceed = el.dispatchEvent(new KeyboardEvent('keypress', { ...init, charCode: info.key === 'Enter' ? 13 : info.key.charCodeAt(0) }));
  if (proceed) defaultAction(el, info.key, m, printable);
  el.dispatchEvent(new KeyboardEvent('keyup', init));
}

/** What the browser does for a key nobody prevented. @param {Element} el @param {string} key @param {Mods} m @param {boolean} printable */
function defaultAction(el, key, m, printable) {
  if (printable) insertText(el, key);
  if (key === 'Enter' && !m.ctrl && !m.alt && !m.meta) {
    if (el instanceof HTMLInputElement && el.form) el.form.requestSubmit();
    // Enter activates a focused button or link (HTML's activation behaviour), drawn or not (a canvas's fallback control).
    else if (el instanceof HTMLButtonElement || el instanceof HTMLAnchorElement) el.click();
    else if (el instanceof HTMLTextAreaElement || (el instanceof HTMLElement && el.isContentEditable)) insertText(el, '\n');
    return;
  }
  if (key === ' ' && (el instanceof HTMLButtonElement || (el instanceof HTMLInputElement && ['checkbox', 'radio'].includes(el.type)))) { el.click(); return; }
  if (!printable) Editing.key(el, key, m);
}

/** "Control+A" → { key: 'A', mods: ['Control'] }. @param {string} chord */
function parseChord(chord) {
  const parts = chord.split('+');
  const key = parts.pop() || '+';
  return { key, mods: parts };
}

// Trusted pointer input that reached this document: how many, and where the last press landed.
// Chrome can route CDP mouse input at an out-of-process frame's point to the parent page instead

/** What a field holds, as it may leave the page: a secret field's value is the mask (content/secrets.js). @param {Element} el */
function fieldValue(el) {
  const S = Secrets;
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) return S.maskValue(el, el.value);
  return S.maskText(Dom.clean(/** @type {HTMLElement} */ (el).innerText ?? el.textContent).slice(0, 200));
}

/** Focus the field and clear it (select-all + delete, as a person does), ready for typing. @param {Element} el @param {boolean} clear */
function focusField(el, clear) {
  if (!(el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || (el instanceof HTMLElement && el.isContentEditable))) {
    return fail('NOT_EDITABLE', `${Input.describe(el)} is not a text field`);
  }
  if ((el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) && el.readOnly) return fail('READ_ONLY', Input.describe(el));
  /** @type {HTMLElement} */ (el).focus({ preventScroll: true });
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
    if (clear && el.value) {
      setNativeValue(el, '');
      el.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'deleteContentBackward' }));
    } else {
      try { el.setSelectionRange(el.value.length, el.value.length); } catch { /* no selection API */ }
    }
  } else if (el instanceof HTMLElement) {
    const sel = getSelection();
    const range = document.createRange();
    range.selectNodeContents(el);
    if (!clear) range.collapse(false);
    sel?.removeAllRanges(); sel?.addRange(range);
    if (clear && el.textContent) document.execCommand('delete');
  }
  return { ok: true, data: null };
}

/**
 * Type text character by character with synthetic keys; stops when the page starts to unload.
 * @param {Element} el @param {string} text @param {boolean} submit
 * @returns {Promise<ToolResult>}
 */
async function typeSynthetic(el, text, submit) {
  let typed = 0;
  for (const ch of text) {
    if (Input.leaving) break;
    if (ch === '\n') syntheticKey('Enter', {}); else syntheticKey(ch, {});
    typed++;
    // Yield now and then so the page's own handlers (autocomplete, navigation) run as they would between keystrokes.
    if (typed % 8 === 0 || typed < 4) await Input.nextTask();
  }
  if (Input.leaving) return { ok: true, data: { typed: typed, of: [...text].length, interrupted: 'The page began to navigate while typing; the rest was not typed.' } };
  el.dispatchEvent(new Event('change', { bubbles: true }));
  if (submit) syntheticKey('Enter', {});
  return { ok: true, data: { value: fieldValue(el) } };
}

export { syntheticKey, parseChord, setNativeValue, insertText, focusField, fieldValue, typeSynthetic, focused };

Object.assign(tw.handlers, {
  'content.focusField': async (/** @type {{ target: ActionTarget, clear: boolean }} */ msg) => {
    const r = await Input.prepare(msg.target, { needPoint: false });
    if (!('el' in r)) return r;
    const f = focusField(r.el, msg.clear);
    // In a frame, CDP keys go to the focused frame: say whether that is this one.
    return f.ok ? { ok: true, data: { hasFocus: document.hasFocus() } } : f;
  },
  'content.type': async (/** @type {{ ref?: string, target?: ActionTarget, text: string, clear?: boolean, submit?: boolean }} */ msg) => {
    const target = msg.target ?? { ref: msg.ref };
    const r = await Input.prepare(target, { needPoint: false });
    if (!('el' in r)) return r;
    const f = focusField(r.el, msg.clear !== false);
    if (!f.ok) return f;
    return typeSynthetic(r.el, msg.text, msg.submit === true);
  },
  'content.focus': async (/** @type {{ target: ActionTarget }} */ msg) => {
    const r = await Input.prepare(msg.target, { needPoint: false, allowDisabled: true });
    if (!('el' in r)) return r;
    /** @type {HTMLElement} */ (r.el).focus?.({ preventScroll: true });
    return { ok: true, data: { focus: Input.describe(focused()) } };
  },
  'content.fieldValue': (/** @type {{ target: ActionTarget }} */ msg) => {
    const f = Input.find(msg.target);
    if (!('el' in f)) return f;
    return { ok: true, data: fieldValue(f.el) };
  },
  'content.keys': async (/** @type {{ keys: string[], repeat?: number, target?: ActionTarget }} */ msg) => {
    if (msg.target) {
      const r = await Input.prepare(msg.target, { needPoint: false });
      if (!('el' in r)) return r;
      /** @type {HTMLElement} */ (r.el).focus?.({ preventScroll: true });
    }
    for (let i = 0; i < (msg.repeat ?? 1); i++) {
      for (const chord of msg.keys) { const c = parseChord(chord); syntheticKey(c.key, Input.mods(c.mods)); }
    }
    return { ok: true, data: { pressed: msg.keys, repeat: msg.repeat ?? 1, focus: Input.describe(focused()) } };
  },
  /** The focused field's selection (what Shift+arrows chose), for the keys tool's report. */
  'content.selection': () => ({ ok: true, data: Editing.selectedText(focused()) ?? null }),
});
