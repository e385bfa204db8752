// Finding a target (ref, visible text, selector or point), checking it can be acted on (connected,
// visible, enabled, not covered), scrolling it into view, and the synthetic pointer and keyboard
// sequences Firefox relies on and Chrome falls back to when the debugger cannot attach.
// Resolves refs through Tabwright.outline.resolve only; the ref registry belongs to outline.js.
(() => {
  if (globalThis.Tabwright?.input) return;
  /** @typedef {import('../types/core').ToolResult} ToolResult */
  /** @typedef {import('../types/core').ToolErr} ToolErr */
  /** @typedef {import('../types/core').ActionTarget} ActionTarget */

  /** A shadow root, open or closed: content scripts may see closed ones (Firefox openOrClosedShadowRoot, Chrome chrome.dom). @param {Element} el @returns {ShadowRoot | null} */
  function shadowOf(el) {
    const any = /** @type {any} */ (el);
    if (any.openOrClosedShadowRoot !== undefined) return any.openOrClosedShadowRoot ?? null;
    const dom = /** @type {any} */ (globalThis).chrome?.dom;
    if (dom?.openOrClosedShadowRoot && el instanceof HTMLElement) { try { return dom.openOrClosedShadowRoot(el); } catch { return null; } }
    return el.shadowRoot;
  }

  /** Every element under root, through shadow roots. @param {Document | ShadowRoot | Element} root @returns {Generator<Element>} */
  function* deepElements(root) {
    const kids = root instanceof Element ? root.children : root.children;
    for (const el of kids) {
      yield el;
      const sr = shadowOf(el);
      if (sr) yield* deepElements(sr);
      yield* deepElements(el);
    }
  }

  /** The topmost element at a viewport point, descending into shadow roots. @param {number} x @param {number} y */
  function deepElementFromPoint(x, y) {
    let el = document.elementFromPoint(x, y);
    for (let i = 0; el && i < 20; i++) {
      const sr = shadowOf(el);
      const inner = sr?.elementFromPoint(x, y);
      if (!inner || inner === el) break;
      el = inner;
    }
    return el;
  }

  /** Containment across shadow boundaries. @param {Element} outer @param {Element | null} inner */
  function composedContains(outer, inner) {
    for (let n = /** @type {Node | null} */ (inner); n; ) {
      if (n === outer) return true;
      n = n.parentNode ?? (n instanceof ShadowRoot ? n.host : null);
      if (n instanceof ShadowRoot) n = n.host;
    }
    return false;
  }

  /** @param {string | null | undefined} s */
  const clean = (s) => (s ?? '').replace(/\s+/g, ' ').trim();

  /** A short human name for an element, for errors ("div#cookie-banner \"We use cookies\""). @param {Element} el */
  function describe(el) {
    const id = el.id ? `#${el.id}` : '';
    const cls = !id && typeof el.className === 'string' && el.className.trim() ? `.${el.className.trim().split(/\s+/)[0]}` : '';
    // A secret field's text (a textarea's content) is its value: only its aria-label names it.
    const own = globalThis.Tabwright.secrets?.isSecretField(el) ? '' : /** @type {HTMLElement} */ (el).innerText || el.textContent;
    const label = clean(el.getAttribute('aria-label') || own).slice(0, 60);
    return `${el.tagName.toLowerCase()}${id}${cls}${label ? ` "${label}"` : ''}`;
  }

  const INTERACTIVE = 'a[href],button,input,select,textarea,summary,[role=button],[role=link],[role=option],[role=menuitem],[role=tab],[role=checkbox],[role=radio],[role=switch],[role=combobox],[tabindex],[contenteditable=""],[contenteditable=true]';

  /** @param {Element} el */
  function visibleBox(el) {
    const r = el.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0) return null;
    const s = getComputedStyle(el);
    if (s.visibility === 'hidden' || s.display === 'none') return null;
    return r;
  }

  /** The element whose own visible text (or label) matches; prefers exact over partial, interactive over not, then the smallest. @param {string} text */
  function byText(text) {
    const want = clean(text).toLowerCase();
    const bare = want.replace(/\s+/g, '');
    /** @type {{ el: Element, score: number }[]} */
    const hits = [];
    for (const el of deepElements(document)) {
      if (['SCRIPT', 'STYLE', 'HEAD', 'TEMPLATE', 'NOSCRIPT'].includes(el.tagName)) continue;
      // Cheap filter first: innerText forces layout, so only candidates whose raw text could match pay for it.
      const label = el.getAttribute('aria-label');
      // Compared without whitespace: <br> and block boundaries add spaces to innerText that textContent lacks.
      if (!(label || el instanceof HTMLInputElement || (el.textContent ?? '').toLowerCase().replace(/\s+/g, '').includes(bare))) continue;
      const own = clean(el.getAttribute('aria-label') || (el instanceof HTMLInputElement && ['button', 'submit', 'reset'].includes(el.type) ? el.value : '') || /** @type {HTMLElement} */ (el).innerText || el.textContent).toLowerCase();
      if (!own || !own.includes(want)) continue;
      if (!visibleBox(el)) continue;
      const exact = own === want;
      const interactive = el.matches(INTERACTIVE);
      hits.push({ el, score: (exact ? 2 : 0) + (interactive ? 1 : 0) - own.length / 10_000 });
    }
    if (!hits.length) return null;
    // Among equal scores, the deepest wins: a button's text also matches its container.
    hits.sort((a, b) => b.score - a.score);
    const best = hits.filter((h) => h.score === hits[0].score);
    let pick = best[0].el;
    for (const h of best) if (composedContains(pick, h.el)) pick = h.el;
    // A text node inside a link or button acts through it.
    return pick.closest(INTERACTIVE) ?? pick;
  }

  /** @param {string} selector */
  function bySelector(selector) {
    try {
      const direct = document.querySelector(selector);
      if (direct) return direct;
      for (const el of deepElements(document)) { const sr = shadowOf(el); const hit = sr?.querySelector(selector); if (hit) return hit; }
    } catch { /* invalid selector: reported below */ }
    return null;
  }

  /**
   * @param {ActionTarget} t
   * @returns {{ el: Element } | ToolErr}
   */
  function find(t) {
    if (t.ref) {
      const el = globalThis.Tabwright.outline.resolve(t.ref);
      if (!el) return { ok: false, code: 'STALE_REF', message: `${t.ref} is not on the page any more (it re-rendered or navigated). Take a new snapshot and use the new ref.`, retryable: true };
      return { el };
    }
    if (t.selector) {
      const el = bySelector(t.selector);
      return el ? { el } : { ok: false, code: 'NOT_FOUND', message: `Nothing on the page matches the selector ${t.selector}. Take a snapshot and use a ref instead.` };
    }
    if (t.text) {
      const el = byText(t.text);
      return el ? { el } : { ok: false, code: 'NOT_FOUND', message: `No visible element shows the text "${t.text}". Scroll, or take a snapshot and use a ref.` };
    }
    if (typeof t.x === 'number' && typeof t.y === 'number') {
      const el = deepElementFromPoint(t.x, t.y);
      return el ? { el } : { ok: false, code: 'NOT_FOUND', message: `There is nothing at (${t.x}, ${t.y}) in the viewport.` };
    }
    return { ok: false, code: 'INVALID_ARGUMENTS', message: 'Name the target with ref, text, selector, or both x and y.' };
  }

  /** @param {Element} el */
  function isDisabled(el) {
    if (/** @type {HTMLButtonElement} */ (el).disabled) return true;
    if (el.closest('[aria-disabled=true]')) return true;
    return Boolean(el.closest('fieldset[disabled]') && el.matches('button,input,select,textarea'));
  }

  // A background tab (a scheduled job's, or the page behind the panel) renders no frames and
  // throttles timers to one a second: there a message-channel task stands in for both, so typing and
  // clicking do not slow to a crawl. In a visible tab one frame lets :hover and pointer handlers settle.
  const channel = new MessageChannel();
  /** @type {(() => void)[]} */
  const waiting = [];
  channel.port1.onmessage = () => waiting.shift()?.();
  /** @returns {Promise<void>} the next task, unthrottled even in a background tab */
  const nextTask = () => new Promise((r) => { waiting.push(() => r()); channel.port2.postMessage(null); });
  const nextFrame = () => (document.hidden ? nextTask() : new Promise((r) => requestAnimationFrame(() => r(undefined))));

  /**
   * The point to act at: the first of the centre and four inset points where the target itself is
   * topmost; otherwise what covers it.
   * @param {Element} el @returns {{ x: number, y: number } | { cover: Element | null }}
   */
  function hitPoint(el) {
    const r = el.getBoundingClientRect();
    const vw = innerWidth, vh = innerHeight;
    const pts = [[0.5, 0.5], [0.25, 0.25], [0.75, 0.25], [0.25, 0.75], [0.75, 0.75]];
    /** @type {Element | null} */
    let cover = null;
    for (const [fx, fy] of pts) {
      const x = Math.min(Math.max(r.left + r.width * fx, 1), vw - 1), y = Math.min(Math.max(r.top + r.height * fy, 1), vh - 1);
      const hit = deepElementFromPoint(x, y);
      // A label forwards its clicks to its control, so a control covered by its own label is fine.
      if (hit && (composedContains(el, hit) || hit.closest('label')?.control === el)) return { x: Math.round(x * 100) / 100, y: Math.round(y * 100) / 100 };
      cover ??= hit;
    }
    return { cover };
  }

  /**
   * Resolve, scroll into view and check a target; waits up to ~1 s for it to become visible and uncovered
   * (animations, transitions), as a person would.
   * @param {ActionTarget} t @param {{ needPoint?: boolean, allowDisabled?: boolean }} [opts]
   * @returns {Promise<{ el: Element, point: { x: number, y: number } } | ToolErr>}
   */
  async function prepare(t, opts = {}) {
    const found = find(t);
    if (!('el' in found)) return found;
    let el = found.el;
    const name = t.ref ?? describe(el);
    if (!opts.allowDisabled && isDisabled(el)) return { ok: false, code: 'DISABLED', message: `${name} is disabled. Complete what enables it first (for example, required fields).` };
    if (typeof t.x === 'number' && typeof t.y === 'number' && !t.ref && !t.text && !t.selector) return { el, point: { x: t.x, y: t.y } };
    const deadline = performance.now() + 1000;
    let centred = false;
    /** @type {ToolErr | null} */
    let last = null;
    // "nearest" scrolls every scrolling ancestor only as far as needed, and not at all when the target is in view.
    el.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'instant' });
    for (;;) {
      if (!el.isConnected) {
        // Virtualised lists re-create rows on scroll: a target named by text or selector is found again.
        const again = t.ref ? null : find(t);
        if (!again || !('el' in again)) return removed(name);
        el = again.el;
      }
      const box = visibleBox(el);
      if (!box) {
        last = { ok: false, code: 'NOT_VISIBLE', message: `${name} is on the page but not visible (hidden or zero-sized). Open what reveals it first (a menu, a tab, hover), then retry.` };
      } else {
        if (opts.needPoint === false) return { el, point: { x: 0, y: 0 } };
        const hit = hitPoint(el);
        if ('x' in hit) return { el, point: hit };
        if (!centred) {
          // Partly clipped or under a sticky header: centring usually clears it.
          centred = true;
          el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
          continue;
        }
        const cover = hit.cover ? describe(topCover(hit.cover, el)) : 'something outside the page';
        last = { ok: false, code: 'COVERED', message: `${name} is covered by ${cover}. Close or dismiss that first (for example its close or accept button), then retry.` };
      }
      if (performance.now() > deadline) return last;
      await nextFrame();
    }
  }

  /** Report the outermost covering element that does not contain the target: the overlay, not its inner text. @param {Element} hit @param {Element} target */
  function topCover(hit, target) {
    let c = hit;
    while (c.parentElement && c.parentElement !== document.body && !composedContains(c.parentElement, target)) c = c.parentElement;
    return c;
  }

  /** @param {string} name @returns {ToolErr} */
  function removed(name) {
    return { ok: false, code: 'ELEMENT_REMOVED', message: `${name} was removed from the page while Tabwright was acting on it (the page re-rendered). Take a new snapshot and retry with the new ref.`, retryable: true };
  }

  /** @typedef {{ ctrl?: boolean, shift?: boolean, alt?: boolean, meta?: boolean }} Mods */
  /** @param {string[] | undefined} list @returns {Mods} */
  function mods(list) {
    const m = new Set((list ?? []).map((s) => s.toLowerCase()));
    return { ctrl: m.has('control') || m.has('ctrl'), shift: m.has('shift'), alt: m.has('alt'), meta: m.has('meta') || m.has('command') };
  }

  /**
   * @param {Element} el @param {string} type @param {{ x: number, y: number }} p
   * @param {{ button?: number, buttons?: number, detail?: number, mods?: Mods, relatedTarget?: Element | null }} [o]
   */
  function fireMouse(el, type, p, o = {}) {
    const m = o.mods ?? {};
    const init = { bubbles: !/enter|leave/.test(type), cancelable: !/enter|leave/.test(type), composed: true, clientX: p.x, clientY: p.y, screenX: p.x + screenX, screenY: p.y + screenY,
      button: o.button ?? 0, buttons: o.buttons ?? 0, detail: o.detail ?? 0, view: window, ctrlKey: !!m.ctrl, shiftKey: !!m.shift, altKey: !!m.alt, metaKey: !!m.meta, relatedTarget: o.relatedTarget ?? null };
    const ev = type.startsWith('pointer') ? new PointerEvent(type, { ...init, pointerId: 1, pointerType: 'mouse', isPrimary: true, width: 1, height: 1, pressure: o.buttons ? 0.5 : 0 })
      : type === 'contextmenu' || type === 'auxclick' || type === 'click' || type === 'dblclick' ? new PointerEvent(type, { ...init, pointerId: 1, pointerType: 'mouse', isPrimary: true })
        : new MouseEvent(type, init);
    return el.dispatchEvent(ev);
  }

  /** @type {Element | null} */
  let hovered = null;

  /** el and its ancestors, across shadow boundaries, innermost first. @param {Element | null} el */
  function chain(el) {
    const out = [];
    for (let n = /** @type {Node | null} */ (el); n; n = n instanceof ShadowRoot ? n.host : n.parentNode) if (n instanceof Element) out.push(n);
    return out;
  }

  /**
   * Move the synthetic pointer onto el. As a real pointer does (UI Events, "mouseenter"), the non-bubbling
   * leave events go to every element left and the enter events to every element entered, outermost first:
   * hover menus listen for mouseenter on a wrapper, not on the button under the pointer.
   * @param {Element} el @param {{x:number,y:number}} p
   */
  function moveTo(el, p) {
    if (hovered !== el) {
      const prev = hovered && hovered.isConnected ? hovered : null;
      const now = chain(el), before = chain(prev);
      if (prev) {
        fireMouse(prev, 'pointerout', p, { relatedTarget: el }); fireMouse(prev, 'mouseout', p, { relatedTarget: el });
        for (const e of before.filter((x) => !now.includes(x))) { fireMouse(e, 'pointerleave', p, { relatedTarget: el }); fireMouse(e, 'mouseleave', p, { relatedTarget: el }); }
      }
      fireMouse(el, 'pointerover', p, { relatedTarget: prev }); fireMouse(el, 'mouseover', p, { relatedTarget: prev });
      for (const e of now.filter((x) => !before.includes(x)).reverse()) { fireMouse(e, 'pointerenter', p, { relatedTarget: prev }); fireMouse(e, 'mouseenter', p, { relatedTarget: prev }); }
      hovered = el;
    }
    fireMouse(el, 'pointermove', p); fireMouse(el, 'mousemove', p);
  }

  /** The focusable element a click at el would focus. @param {Element} el */
  function focusTarget(el) {
    const f = el.closest('a[href],button,input,select,textarea,[tabindex],[contenteditable=""],[contenteditable=true],summary');
    return f instanceof HTMLElement ? f : null;
  }

  /**
   * The full sequence a person's click produces, with button, click count and modifiers.
   * @param {Element} el @param {{x:number,y:number}} p @param {{ button?: 'left'|'right'|'middle', clickCount?: number, modifiers?: string[] }} o
   */
  function syntheticClick(el, p, o) {
    const button = o.button === 'right' ? 2 : o.button === 'middle' ? 1 : 0;
    const buttons = button === 2 ? 2 : button === 1 ? 4 : 1;
    const m = mods(o.modifiers);
    moveTo(el, p);
    const count = Math.max(1, o.clickCount ?? 1);
    for (let i = 1; i <= count; i++) {
      // The page may re-render between the press and the release; the release goes to what is now under the pointer.
      const down = fireMouse(el, 'pointerdown', p, { button, buttons, detail: i, mods: m }) && fireMouse(el, 'mousedown', p, { button, buttons, detail: i, mods: m });
      if (down && i === 1) focusTarget(el)?.focus();
      const upTarget = el.isConnected ? el : deepElementFromPoint(p.x, p.y);
      if (!upTarget) return;
      fireMouse(upTarget, 'pointerup', p, { button, detail: i, mods: m });
      fireMouse(upTarget, 'mouseup', p, { button, detail: i, mods: m });
      if (button === 0) fireMouse(upTarget, 'click', p, { button, detail: i, mods: m });
      else fireMouse(upTarget, 'auxclick', p, { button, detail: i, mods: m });
      if (button === 2 && i === 1) fireMouse(upTarget, 'contextmenu', p, { button, buttons: 0, detail: i, mods: m });
    }
    if (count === 2 && button === 0) fireMouse(el, 'dblclick', p, { detail: 2, mods: m });
  }

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
    while (a && shadowOf(a)?.activeElement) a = /** @type {ShadowRoot} */ (shadowOf(a)).activeElement;
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
   * One key press with its default actions that pages rely on (Enter submits, Backspace deletes, Tab moves focus is left to the page).
   * @param {string} key @param {Mods} m
   */
  function syntheticKey(key, m) {
    const el = focused();
    const info = keyInfo(key);
    const init = { ...info, which: info.keyCode, bubbles: true, cancelable: true, composed: true, ctrlKey: !!m.ctrl, shiftKey: !!m.shift, altKey: !!m.alt, metaKey: !!m.meta };
    const proceed = el.dispatchEvent(new KeyboardEvent('keydown', init));
    const printable = info.key.length === 1 && !m.ctrl && !m.meta && !m.alt;
    if (proceed && (printable || info.key === 'Enter')) el.dispatchEvent(new KeyboardEvent('keypress', { ...init, charCode: info.key === 'Enter' ? 13 : info.key.charCodeAt(0) }));
    if (proceed && printable) insertText(el, info.key);
    if (proceed && info.key === 'Enter') {
      if (el instanceof HTMLInputElement && el.form) el.form.requestSubmit();
      else if (el instanceof HTMLTextAreaElement || (el instanceof HTMLElement && el.isContentEditable)) insertText(el, '\n');
    }
    if (proceed && info.key === 'Backspace' && (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement)) {
      const s = el.selectionStart ?? el.value.length, e = el.selectionEnd ?? s;
      const from = s === e ? Math.max(0, s - 1) : s;
      setNativeValue(el, el.value.slice(0, from) + el.value.slice(e));
      el.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'deleteContentBackward' }));
    }
    if (proceed && info.key === ' ' && (el instanceof HTMLButtonElement || (el instanceof HTMLInputElement && ['checkbox', 'radio'].includes(el.type)))) el.click();
    el.dispatchEvent(new KeyboardEvent('keyup', init));
  }

  /** "Control+A" → { key: 'A', mods: ['Control'] }. @param {string} chord */
  function parseChord(chord) {
    const parts = chord.split('+');
    const key = parts.pop() || '+';
    return { key, mods: parts };
  }

  // Trusted pointer input that reached this document: how many, and where the last press landed.
  // Chrome can route CDP mouse input at an out-of-process frame's point to the parent page instead
  // (seen on test/fixtures/site/pages/perception.html), so a frame confirms it received the press.
  /** @type {{ moves: number, downs: number, lastDown: EventTarget | null }} */
  const trustedSeen = { moves: 0, downs: 0, lastDown: null };
  addEventListener('pointermove', (e) => { if (e.isTrusted) trustedSeen.moves++; }, true);
  addEventListener('pointerdown', (e) => { if (e.isTrusted) { trustedSeen.downs++; trustedSeen.lastDown = e.composedPath()[0] ?? e.target; } }, true);

  let leaving = false;
  addEventListener('beforeunload', () => { leaving = true; });
  addEventListener('pagehide', () => { leaving = true; });

  /** What a field holds, as it may leave the page: a secret field's value is the mask (content/secrets.js). @param {Element} el */
  function fieldValue(el) {
    const S = globalThis.Tabwright.secrets;
    if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) return S.maskValue(el, el.value);
    return S.maskText(clean(/** @type {HTMLElement} */ (el).innerText ?? el.textContent).slice(0, 200));
  }

  /** Focus the field and clear it (select-all + delete, as a person does), ready for typing. @param {Element} el @param {boolean} clear */
  function focusField(el, clear) {
    if (!(el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || (el instanceof HTMLElement && el.isContentEditable))) {
      return { ok: false, code: 'NOT_EDITABLE', message: `${describe(el)} is not a text field. Type into a textbox ref from the snapshot.` };
    }
    if ((el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) && el.readOnly) return { ok: false, code: 'READ_ONLY', message: `${describe(el)} is read-only.` };
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
      if (leaving) break;
      if (ch === '\n') syntheticKey('Enter', {}); else syntheticKey(ch, {});
      typed++;
      // Yield now and then so the page's own handlers (autocomplete, navigation) run as they would between keystrokes.
      if (typed % 8 === 0 || typed < 4) await nextTask();
    }
    if (leaving) return { ok: true, data: { typed: typed, of: [...text].length, interrupted: 'The page began to navigate while typing; the rest was not typed.' } };
    el.dispatchEvent(new Event('change', { bubbles: true }));
    if (submit) syntheticKey('Enter', {});
    return { ok: true, data: { value: fieldValue(el) } };
  }

  const tw = globalThis.Tabwright = Object.assign(globalThis.Tabwright ?? { handlers: {} }, {
    input: { nextTask, nextFrame, mark, find, prepare, describe, deepElements, shadowOf, deepElementFromPoint, composedContains, syntheticClick, syntheticKey, parseChord, mods, moveTo, fireMouse, setNativeValue, insertText, focusField, fieldValue, typeSynthetic, focused, clean, visibleBox, removed, get leaving() { return leaving; } },
  });

  /** Mark the element so the background can address it through CDP (DOM.querySelector) without a second lookup. @param {Element} el */
  function mark(el) {
    const id = String(Math.random()).slice(2, 10);
    el.setAttribute('data-tw-target', id);
    setTimeout(() => el.removeAttribute('data-tw-target'), 5000);
    return `[data-tw-target="${id}"]`;
  }

  Object.assign(tw.handlers, {
    /** Resolve and check a target; answers its viewport point for trusted input. */
    'content.prepare': async (/** @type {{ target: ActionTarget, needPoint?: boolean, mark?: boolean }} */ msg) => {
      const r = await prepare(msg.target, { needPoint: msg.needPoint });
      if (!('el' in r)) return r;
      return { ok: true, data: { point: r.point, name: msg.target.ref ?? describe(r.el), selector: msg.mark ? mark(r.el) : undefined, tag: r.el.tagName.toLowerCase(), type: /** @type {HTMLInputElement} */ (r.el).type ?? null } };
    },
    /** After the pointer moved there: is the target still there and still on top? */
    'content.recheck': async (/** @type {{ target: ActionTarget, point: { x: number, y: number } }} */ msg) => {
      // One frame for :hover styles and pointerenter handlers to swap content under the pointer.
      await nextFrame();
      const f = find(msg.target);
      if (!('el' in f)) return msg.target.ref ? removed(msg.target.ref) : f;
      if (!f.el.isConnected) return removed(msg.target.ref ?? describe(f.el));
      if (typeof msg.target.x === 'number' && !msg.target.ref && !msg.target.text && !msg.target.selector) return { ok: true, data: msg.point };
      const hit = hitPoint(f.el);
      if ('x' in hit) return { ok: true, data: { ...hit, downs: trustedSeen.downs } };
      return { ok: false, code: 'COVERED', message: `${msg.target.ref ?? describe(f.el)} became covered by ${hit.cover ? describe(topCover(hit.cover, f.el)) : 'something'} when the pointer reached it. Deal with that first, then retry.` };
    },
    /** Did trusted input reach this frame since `downs` (a press, on the target) or `moves` (the pointer)? */
    'content.trustedSeen': (/** @type {{ target: ActionTarget, downs?: number, moves?: number }} */ msg) => {
      if (typeof msg.moves === 'number') return { ok: true, data: trustedSeen.moves > msg.moves };
      const f = find(msg.target);
      const at = trustedSeen.lastDown;
      const onTarget = 'el' in f && at instanceof Node && (composedContains(f.el, /** @type {Element} */ (at)) || f.el.contains(at));
      return { ok: true, data: trustedSeen.downs > (msg.downs ?? 0) && onTarget };
    },
    'content.trustedMoves': () => ({ ok: true, data: trustedSeen.moves }),
    'content.click': async (/** @type {{ ref?: string, target?: ActionTarget, button?: 'left'|'right'|'middle', clickCount?: number, modifiers?: string[] }} */ msg) => {
      const target = msg.target ?? { ref: msg.ref };
      const r = await prepare(target);
      if (!('el' in r)) return r;
      moveTo(r.el, r.point);
      // Hover first: pages that swap content under the pointer (menus, icons) settle before the press.
      await nextFrame();
      if (!r.el.isConnected) return removed(target.ref ?? describe(r.el));
      // A point target (a canvas, a map) is clicked exactly there, whatever is on top.
      const atPoint = typeof target.x === 'number' && !target.ref && !target.text && !target.selector;
      const again = atPoint ? r.point : hitPoint(r.el);
      if (!('x' in again)) return { ok: false, code: 'COVERED', message: `${target.ref ?? describe(r.el)} became covered by ${again.cover ? describe(topCover(again.cover, r.el)) : 'something'} when the pointer reached it. Deal with that first, then retry.` };
      syntheticClick(r.el, again, msg);
      return { ok: true, data: { clicked: target.ref ?? describe(r.el) } };
    },
    'content.hover': async (/** @type {{ target: ActionTarget }} */ msg) => {
      const r = await prepare(msg.target, { allowDisabled: true });
      if (!('el' in r)) return r;
      moveTo(r.el, r.point);
      return { ok: true, data: { hovered: msg.target.ref ?? describe(r.el), point: r.point } };
    },
    'content.focusField': async (/** @type {{ target: ActionTarget, clear: boolean }} */ msg) => {
      const r = await prepare(msg.target, { needPoint: false });
      if (!('el' in r)) return r;
      const f = focusField(r.el, msg.clear);
      // In a frame, CDP keys go to the focused frame: say whether that is this one.
      return f.ok ? { ok: true, data: { hasFocus: document.hasFocus() } } : f;
    },
    'content.type': async (/** @type {{ ref?: string, target?: ActionTarget, text: string, clear?: boolean, submit?: boolean }} */ msg) => {
      const target = msg.target ?? { ref: msg.ref };
      const r = await prepare(target, { needPoint: false });
      if (!('el' in r)) return r;
      const f = focusField(r.el, msg.clear !== false);
      if (!f.ok) return f;
      return typeSynthetic(r.el, msg.text, msg.submit === true);
    },
    'content.focus': async (/** @type {{ target: ActionTarget }} */ msg) => {
      const r = await prepare(msg.target, { needPoint: false, allowDisabled: true });
      if (!('el' in r)) return r;
      /** @type {HTMLElement} */ (r.el).focus?.({ preventScroll: true });
      return { ok: true, data: { focus: describe(focused()) } };
    },
    /** Mark an element (even a hidden file input) for CDP, without the visibility checks. */
    'content.mark': (/** @type {{ target: ActionTarget }} */ msg) => {
      const f = find(msg.target);
      if (!('el' in f)) return f;
      return { ok: true, data: { selector: mark(f.el), tag: f.el.tagName.toLowerCase(), type: /** @type {HTMLInputElement} */ (f.el).type ?? null } };
    },
    'content.fieldValue': (/** @type {{ target: ActionTarget }} */ msg) => {
      const f = find(msg.target);
      if (!('el' in f)) return f;
      return { ok: true, data: fieldValue(f.el) };
    },
    /**
     * What a target is, for the safety policy: the actionable element it names (for a point, the one
     * under it), its role and name, and whether it is a secret field. Resolves without acting.
     */
    'content.targetInfo': (/** @type {{ target: ActionTarget }} */ msg) => {
      const f = find(msg.target);
      if (!('el' in f)) return f;
      const el = f.el.closest('button, a[href], input, select, textarea, summary, label, [role], [onclick], [contenteditable=""], [contenteditable=true]') ?? f.el;
      const role = tw.actionable.roleFor(el) || el.localName;
      const name = tw.actionable.nameFor(el, role, 'target') || describe(el);
      const secretField = tw.secrets.isSecretField(el.localName === 'label' ? /** @type {HTMLLabelElement} */ (el).control ?? el : el);
      return { ok: true, data: { role, name: String(name).slice(0, 200), secretField } };
    },
    'content.keys': async (/** @type {{ keys: string[], repeat?: number, target?: ActionTarget }} */ msg) => {
      if (msg.target) {
        const r = await prepare(msg.target, { needPoint: false });
        if (!('el' in r)) return r;
        /** @type {HTMLElement} */ (r.el).focus?.({ preventScroll: true });
      }
      for (let i = 0; i < (msg.repeat ?? 1); i++) {
        for (const chord of msg.keys) { const c = parseChord(chord); syntheticKey(c.key, mods(c.mods)); }
      }
      return { ok: true, data: { pressed: msg.keys, repeat: msg.repeat ?? 1, focus: describe(focused()) } };
    },
  });
})();
