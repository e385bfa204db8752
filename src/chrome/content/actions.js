// Acting on elements by ref with synthetic events that frameworks accept (issue #4 adds trusted
// input through CDP in Chrome).
(() => {
  if (globalThis.Tabwright?.actions) return;

  /** @param {string} ref @returns {{ el: Element } | import('../types/core').ToolErr} */
  function target(ref) {
    const el = globalThis.Tabwright.outline.resolve(ref);
    if (!el) return { ok: false, code: 'STALE_REF', message: `${ref} is not on the page any more (it re-rendered or navigated). Take a new snapshot and use the new ref.`, retryable: true };
    if (/** @type {HTMLButtonElement} */ (el).disabled || el.getAttribute('aria-disabled') === 'true') {
      return { ok: false, code: 'DISABLED', message: `${ref} is disabled. Complete what enables it first (for example, required fields).` };
    }
    return { el };
  }

  /** @param {Element} el @param {string} type @param {Record<string, unknown>} [init] */
  function fire(el, type, init = {}) {
    const rect = el.getBoundingClientRect();
    const base = { bubbles: true, cancelable: true, composed: true, clientX: rect.x + rect.width / 2, clientY: rect.y + rect.height / 2, button: 0, view: window, ...init };
    const Ctor = type.startsWith('pointer') ? PointerEvent : MouseEvent;
    el.dispatchEvent(new Ctor(type, type.startsWith('pointer') ? { ...base, pointerId: 1, pointerType: 'mouse', isPrimary: true } : base));
  }

  /** @param {string} ref @returns {import('../types/core').ToolResult} */
  function click(ref) {
    const t = target(ref);
    if (!('el' in t)) return t;
    const el = t.el;
    el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
    for (const type of ['pointerover', 'pointerenter', 'mouseover', 'mouseenter', 'pointerdown', 'mousedown']) fire(el, type, { buttons: 1 });
    if (el instanceof HTMLElement) el.focus({ preventScroll: true });
    for (const type of ['pointerup', 'mouseup']) fire(el, type);
    if (el instanceof HTMLElement) el.click();
    else fire(el, 'click');
    return { ok: true, data: { clicked: ref } };
  }

  /** @param {HTMLInputElement | HTMLTextAreaElement} el @param {string} value */
  function setNativeValue(el, value) {
    // React and Vue track the value on the element instance; the prototype's setter bypasses
    // their override so the input event they receive is seen as a real change.
    const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
    const setter = Object.getOwnPropertyDescriptor(proto, 'value')?.set;
    if (setter) setter.call(el, value); else el.value = value;
  }

  /**
   * @param {string} ref @param {string} text @param {{ clear?: boolean, submit?: boolean }} [opts]
   * @returns {import('../types/core').ToolResult}
   */
  function type(ref, text, opts = {}) {
    const t = target(ref);
    if (!('el' in t)) return t;
    const el = t.el;
    el.scrollIntoView({ block: 'center', behavior: 'instant' });
    if (el instanceof HTMLElement) el.focus({ preventScroll: true });
    if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
      if (el.readOnly) return { ok: false, code: 'READ_ONLY', message: `${ref} is read-only.` };
      const next = opts.clear === false ? el.value + text : text;
      el.dispatchEvent(new InputEvent('beforeinput', { bubbles: true, cancelable: true, composed: true, inputType: 'insertText', data: text }));
      setNativeValue(el, next);
      el.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText', data: text }));
      el.dispatchEvent(new Event('change', { bubbles: true }));
    } else if (el instanceof HTMLElement && el.isContentEditable) {
      if (opts.clear !== false) el.textContent = '';
      el.dispatchEvent(new InputEvent('beforeinput', { bubbles: true, cancelable: true, composed: true, inputType: 'insertText', data: text }));
      el.append(document.createTextNode(text));
      el.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText', data: text }));
    } else {
      return { ok: false, code: 'NOT_EDITABLE', message: `${ref} is not a text field. Type into a textbox ref from the snapshot.` };
    }
    const secret = el instanceof HTMLInputElement && el.type === 'password';
    if (opts.submit) {
      const key = { key: 'Enter', code: 'Enter', keyCode: 13, which: 13, bubbles: true, cancelable: true, composed: true };
      const proceed = el.dispatchEvent(new KeyboardEvent('keydown', key));
      el.dispatchEvent(new KeyboardEvent('keypress', key));
      el.dispatchEvent(new KeyboardEvent('keyup', key));
      const form = /** @type {HTMLInputElement} */ (el).form;
      if (proceed && form && el instanceof HTMLInputElement) form.requestSubmit();
    }
    return { ok: true, data: { typed: ref, value: secret ? '(hidden)' : /** @type {HTMLInputElement} */ (el).value ?? el.textContent } };
  }

  /** @param {number} [maxChars] @returns {import('../types/core').ToolResult} */
  function readText(maxChars = 20_000) {
    const main = document.querySelector('main, article, [role=main]') ?? document.body;
    const text = (/** @type {HTMLElement} */ (main).innerText ?? '').replace(/\n{3,}/g, '\n\n').trim();
    const body = text.length > maxChars ? `${text.slice(0, maxChars)}\n[… truncated]` : text;
    return { ok: true, data: `# ${document.title}\n${location.href}\n\n${body}` };
  }

  const tw = globalThis.Tabwright = Object.assign(globalThis.Tabwright ?? { handlers: {} }, { actions: { click, type, readText } });
  Object.assign(tw.handlers, {
    'content.click': (/** @type {{ ref: string }} */ msg) => click(msg.ref),
    'content.type': (/** @type {{ ref: string, text: string, clear?: boolean, submit?: boolean }} */ msg) => type(msg.ref, msg.text, { clear: msg.clear, submit: msg.submit }),
    'content.read': (/** @type {{ maxChars?: number }} */ msg) => readText(msg.maxChars),
  });
})();
