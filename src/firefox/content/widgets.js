// Form widgets that need more than a click or keystrokes: setting a value outright (date, range,
// fields that fight keystrokes), native selects and ARIA comboboxes/listboxes, checkboxes and
// radios, drag-and-drop (HTML5 and pointer), scrolling, and file inputs through DataTransfer.
(() => {
  if (globalThis.Tabwright?.widgets) return;
  /** @typedef {import('../types/core').ToolResult} ToolResult */
  /** @typedef {import('../types/core').ToolErr} ToolErr */
  /** @typedef {import('../types/core').ActionTarget} ActionTarget */
  const tw = globalThis.Tabwright;
  const I = tw.input;
  const nextFrame = () => globalThis.Tabwright.input.nextFrame();
  /** @param {number} ms */
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

  /** @param {Element} el @param {string} type */
  function fire(el, type) { el.dispatchEvent(new Event(type, { bubbles: true, composed: true })); }

  /**
   * Set a field's value in one step: the native setter plus input and change, which React's value
   * tracker and Vue's v-model both accept. For date, range, color and fields whose key handlers mangle typing.
   * @param {Element} el @param {string} value @returns {ToolResult}
   */
  function setField(el, value) {
    if (el instanceof HTMLSelectElement) return selectNative(el, { value });
    if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
      if (el.readOnly) return { ok: false, code: 'READ_ONLY', message: `${I.describe(el)} is read-only.` };
      el.focus({ preventScroll: true });
      I.setNativeValue(el, value);
      el.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertReplacementText', data: value }));
      fire(el, 'change');
      // A date or number input silently rejects a malformed value; say so instead of pretending.
      if (el.value !== value && !(el instanceof HTMLInputElement && el.type === 'range')) {
        const secret = globalThis.Tabwright.secrets.isSecretField(el);
        return { ok: false, code: 'VALUE_REJECTED', message: `${I.describe(el)} did not accept ${secret ? 'the value' : `"${value}"`} (it now holds "${I.fieldValue(el)}"). ${el instanceof HTMLInputElement && el.type === 'date' ? 'Dates use the form YYYY-MM-DD.' : 'Check the expected format.'}` };
      }
      el.blur();
      return { ok: true, data: { value: I.fieldValue(el) } };
    }
    if (el instanceof HTMLElement && el.isContentEditable) {
      I.focusField(el, true);
      I.insertText(el, value);
      return { ok: true, data: { value: I.fieldValue(el) } };
    }
    return { ok: false, code: 'NOT_EDITABLE', message: `${I.describe(el)} is not a field. Use click or select_option for custom widgets.` };
  }

  /** @param {{ label?: string, value?: string, index?: number }} want @param {string} label @param {string} value @param {number} i */
  function matches(want, label, value, i) {
    if (typeof want.index === 'number') return want.index === i;
    if (want.value !== undefined && value === want.value) return true;
    if (want.label !== undefined) return I.clean(label).toLowerCase() === I.clean(want.label).toLowerCase();
    return false;
  }

  /** @param {HTMLSelectElement} sel @param {{ label?: string, value?: string, index?: number }} want @returns {ToolResult} */
  function selectNative(sel, want) {
    const opts = [...sel.options];
    let i = opts.findIndex((o, k) => matches(want, o.label || o.text, o.value, k));
    // A partial label is how people name options ("Norway" for "Norway (+47)").
    if (i < 0 && want.label) i = opts.findIndex((o) => I.clean(o.label || o.text).toLowerCase().includes(I.clean(/** @type {string} */ (want.label)).toLowerCase()));
    if (i < 0) return { ok: false, code: 'NO_SUCH_OPTION', message: `${I.describe(sel)} has no option ${JSON.stringify(want)}. Its options: ${opts.slice(0, 30).map((o) => JSON.stringify(I.clean(o.text))).join(', ')}.` };
    if (opts[i].disabled) return { ok: false, code: 'DISABLED', message: `The option "${I.clean(opts[i].text)}" is disabled.` };
    sel.focus({ preventScroll: true });
    if (sel.multiple) opts[i].selected = true;
    else I.setNativeValue(sel, opts[i].value);
    sel.selectedIndex = sel.multiple ? sel.selectedIndex : i;
    fire(sel, 'input');
    fire(sel, 'change');
    return { ok: true, data: { selected: I.clean(opts[i].text), value: opts[i].value } };
  }

  /** The listbox a combobox controls (aria-controls / aria-owns / a listbox inside or next to it). @param {Element} combo */
  function listboxOf(combo) {
    const ids = (combo.getAttribute('aria-controls') || combo.getAttribute('aria-owns') || '').split(/\s+/).filter(Boolean);
    for (const id of ids) {
      const el = (combo.getRootNode() instanceof ShadowRoot ? /** @type {ShadowRoot} */ (combo.getRootNode()).getElementById(id) : null) ?? document.getElementById(id);
      if (el) return el.matches('[role=listbox],[role=tree],[role=grid],[role=menu]') ? el : el.querySelector('[role=listbox]') ?? el;
    }
    return combo.querySelector('[role=listbox]') ?? combo.parentElement?.querySelector('[role=listbox]') ?? null;
  }

  /** @param {Element | null} list */
  function visibleOptions(list) {
    const scope = list ?? document;
    return [...scope.querySelectorAll('[role=option],[role=menuitem],[role=treeitem]')].filter((o) => I.visibleBox(o));
  }

  /**
   * An ARIA combobox: open it (click, or type the label to filter when it is an editable box), wait for
   * the options (they often load asynchronously), click the matching one. Per the ARIA 1.2 combobox pattern.
   * @param {Element} combo @param {{ label?: string, value?: string, index?: number }} want @returns {Promise<ToolResult>}
   */
  async function selectAria(combo, want) {
    const editable = combo instanceof HTMLInputElement || combo instanceof HTMLTextAreaElement;
    const box = combo.getBoundingClientRect();
    const point = { x: box.left + box.width / 2, y: box.top + box.height / 2 };
    if (editable && want.label) {
      I.focusField(combo, true);
      const r = await I.typeSynthetic(combo, want.label, false);
      if (!r.ok) return r;
    } else if (combo.getAttribute('aria-expanded') !== 'true' || !visibleOptions(listboxOf(combo)).length) {
      I.syntheticClick(combo, point, {});
    }
    const deadline = performance.now() + 5000;
    for (;;) {
      const list = listboxOf(combo);
      const options = visibleOptions(list);
      const pick = options.find((o, i) => matches(want, o.getAttribute('aria-label') || /** @type {HTMLElement} */ (o).innerText || o.textContent || '', o.getAttribute('data-value') ?? o.getAttribute('value') ?? '', i))
        ?? (want.label ? options.find((o) => I.clean(/** @type {HTMLElement} */ (o).innerText).toLowerCase().includes(I.clean(/** @type {string} */ (want.label)).toLowerCase())) : undefined);
      if (pick) {
        if (pick.getAttribute('aria-disabled') === 'true') return { ok: false, code: 'DISABLED', message: `The option "${I.clean(pick.textContent)}" is disabled.` };
        pick.scrollIntoView({ block: 'nearest', behavior: 'instant' });
        const b = pick.getBoundingClientRect();
        I.syntheticClick(pick, { x: b.left + b.width / 2, y: b.top + b.height / 2 }, {});
        await nextFrame();
        return { ok: true, data: { selected: I.clean(/** @type {HTMLElement} */ (pick).innerText || pick.textContent), value: I.fieldValue(combo) || undefined } };
      }
      if (performance.now() > deadline) {
        return { ok: false, code: 'NO_SUCH_OPTION', message: `No option ${JSON.stringify(want)} appeared within 5 s. Visible options: ${options.slice(0, 20).map((o) => JSON.stringify(I.clean(o.textContent))).join(', ') || 'none'}.` };
      }
      await sleep(50);
    }
  }

  /** @param {Element} el */
  function checkedState(el) {
    if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) return el.checked;
    const aria = el.getAttribute('aria-checked') ?? el.getAttribute('aria-pressed') ?? el.getAttribute('aria-selected');
    return aria === 'true';
  }

  /**
   * @param {ActionTarget} target @param {boolean} want
   * @returns {Promise<ToolResult>}
   */
  async function setChecked(target, want) {
    const found = I.find(target);
    if (!('el' in found)) return found;
    let el = found.el;
    // A label names a checkbox; checking the label means checking its control.
    if (el instanceof HTMLLabelElement && el.control) el = el.control;
    // Styled checkboxes hide the real input (display:none, opacity 0, 1 px) and draw the label: click the label.
    /** @type {ActionTarget} */
    let clickAt = target;
    if (el instanceof HTMLInputElement && el.labels?.length) {
      const r = await I.prepare(target, { allowDisabled: false });
      const label = [...el.labels].find((l) => I.visibleBox(l));
      if (!('el' in r) && r.code !== 'DISABLED' && label) clickAt = { selector: I.mark(label) };
      else if (!('el' in r)) return r;
    } else {
      const r = await I.prepare(target);
      if (!('el' in r)) return r;
    }
    const isBox = (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) || el.matches('[role=checkbox],[role=radio],[role=switch],[role=menuitemcheckbox],[role=menuitemradio],[aria-pressed]');
    if (!isBox) return { ok: false, code: 'NOT_CHECKABLE', message: `${target.ref ?? I.describe(el)} is not a checkbox, radio or switch.` };
    if (checkedState(el) === want) return { ok: true, data: { checked: want, changed: false } };
    if (!want && el instanceof HTMLInputElement && el.type === 'radio') return { ok: false, code: 'NOT_CHECKABLE', message: 'A radio button is unchecked by checking another one in its group.' };
    return { ok: true, data: { needsClick: true, clickAt } };
  }

  /** @param {ActionTarget} target */
  async function checkedOf(target) {
    const f = I.find(target);
    if (!('el' in f)) return f;
    let el = f.el;
    if (el instanceof HTMLLabelElement && el.control) el = el.control;
    return { ok: true, data: checkedState(el) };
  }

  /**
   * HTML5 drag-and-drop: browsers never start a native drag from synthetic mouse events, so fire the
   * drag events themselves with one shared DataTransfer (what html5 DnD libraries read).
   * @param {Element} src @param {Element} dst @param {{x:number,y:number}} from @param {{x:number,y:number}} to
   */
  function html5Drag(src, dst, from, to) {
    const dt = new DataTransfer();
    /** @param {Element} el @param {string} type @param {{x:number,y:number}} p */
    const ev = (el, type, p) => el.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, composed: true, clientX: p.x, clientY: p.y, dataTransfer: dt }));
    ev(src, 'dragstart', from);
    ev(src, 'drag', from);
    ev(dst, 'dragenter', to);
    ev(dst, 'dragover', to);
    ev(dst, 'drop', to);
    ev(src, 'dragend', to);
  }

  /**
   * Pointer drag (sliders, sortable lists, canvases): press, move in steps, release.
   * @param {Element} src @param {{x:number,y:number}} from @param {{x:number,y:number}} to
   */
  async function pointerDrag(src, from, to, steps = 8) {
    I.moveTo(src, from);
    I.fireMouse(src, 'pointerdown', from, { buttons: 1 });
    I.fireMouse(src, 'mousedown', from, { buttons: 1 });
    let over = src;
    for (let i = 1; i <= steps; i++) {
      const p = { x: from.x + ((to.x - from.x) * i) / steps, y: from.y + ((to.y - from.y) * i) / steps };
      // Pointer capture sends moves to the pressed element; without capture they go to what is under the pointer.
      over = I.deepElementFromPoint(p.x, p.y) ?? over;
      over.dispatchEvent(new PointerEvent('pointermove', { bubbles: true, cancelable: true, composed: true, clientX: p.x, clientY: p.y, buttons: 1, pointerId: 1, pointerType: 'mouse', isPrimary: true }));
      over.dispatchEvent(new MouseEvent('mousemove', { bubbles: true, cancelable: true, composed: true, clientX: p.x, clientY: p.y, buttons: 1 }));
      await nextFrame();
    }
    const end = I.deepElementFromPoint(to.x, to.y) ?? src;
    I.fireMouse(end, 'pointerup', to);
    I.fireMouse(end, 'mouseup', to);
  }

  /** @param {Element} el */
  function isDraggable(el) {
    return /** @type {HTMLElement} */ (el).draggable === true || Boolean(el.closest('[draggable=true]'));
  }

  /** The nearest scrollable ancestor (or the page). @param {Element} el */
  function scroller(el) {
    for (let e = /** @type {Element | null} */ (el); e && e !== document.documentElement; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (/(auto|scroll)/.test(s.overflowY + s.overflowX) && (e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1)) return e;
    }
    return document.scrollingElement ?? document.documentElement;
  }

  /** Count of elements now in the document, to tell whether scrolling loaded more. */
  const domSize = () => document.getElementsByTagName('*').length;

  /** @param {string} text */
  function textVisible(text) {
    const el = I.find({ text });
    if (!('el' in el)) return null;
    const r = el.el.getBoundingClientRect();
    return r.bottom > 0 && r.top < innerHeight ? el.el : null;
  }

  /**
   * Scroll the page or an element; with toText, keep scrolling until that text is visible (infinite
   * scroll and virtualised lists only create rows near the viewport).
   * @param {{ target?: ActionTarget, direction?: 'up'|'down'|'left'|'right', amount?: number, to?: 'top'|'bottom', toText?: string, maxScrolls?: number }} msg
   * @returns {Promise<ToolResult>}
   */
  async function scroll(msg) {
    /** @type {Element} */
    let box = document.scrollingElement ?? document.documentElement;
    if (msg.target) {
      const f = I.find(msg.target);
      if (!('el' in f)) return f;
      if (!msg.direction && !msg.to && !msg.toText) {
        f.el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
        await nextFrame();
        return { ok: true, data: { scrolledTo: msg.target.ref ?? I.describe(f.el), ...where(scroller(f.el)) } };
      }
      box = scroller(f.el) === f.el || isScrollable(f.el) ? f.el : scroller(f.el);
    }
    const before = domSize();
    const page = box === document.scrollingElement || box === document.documentElement;
    const view = page ? innerHeight : box.clientHeight;
    const step = msg.amount ?? Math.round(view * 0.8);
    /** @param {number} dx @param {number} dy */
    const by = (dx, dy) => { if (page) scrollBy({ left: dx, top: dy, behavior: 'instant' }); else box.scrollBy({ left: dx, top: dy, behavior: 'instant' }); };
    if (msg.toText) {
      const max = msg.maxScrolls ?? 40;
      for (let i = 0; i <= max; i++) {
        const el = textVisible(msg.toText);
        if (el) { el.scrollIntoView({ block: 'center', behavior: 'instant' }); return { ok: true, data: { found: msg.toText, scrolls: i, ...where(box), loadedMore: domSize() > before } }; }
        const top = box.scrollTop;
        by(0, msg.direction === 'up' ? -step : step);
        // Wait for the page's scroll handlers (and any rows they fetch) to render.
        await waitStable(box, top);
        if (box.scrollTop === top && !textVisible(msg.toText)) {
          await sleep(400);
          if (box.scrollTop === top && box.scrollHeight - box.clientHeight <= top + 1 && !textVisible(msg.toText)) break;
        }
      }
      return { ok: false, code: 'NOT_FOUND', message: `Scrolled to the end without finding "${msg.toText}".`, retryable: false };
    }
    if (msg.to === 'top') { if (page) scrollTo({ top: 0, behavior: 'instant' }); else box.scrollTop = 0; }
    else if (msg.to === 'bottom') { if (page) scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' }); else box.scrollTop = box.scrollHeight; }
    else {
      const d = msg.direction ?? 'down';
      by(d === 'left' ? -step : d === 'right' ? step : 0, d === 'up' ? -step : d === 'down' ? step : 0);
    }
    await waitStable(box, -1);
    return { ok: true, data: { ...where(box), loadedMore: domSize() > before } };
  }

  /** @param {Element} el */
  function isScrollable(el) {
    const s = getComputedStyle(el);
    return /(auto|scroll)/.test(s.overflowY + s.overflowX);
  }

  /** Waits until the DOM stops growing for a couple of frames (up to 1.5 s). @param {Element} box @param {number} _top */
  async function waitStable(box, _top) {
    let size = domSize(), h = box.scrollHeight, quiet = 0;
    const deadline = performance.now() + 1500;
    while (quiet < 3 && performance.now() < deadline) {
      await sleep(50);
      const s = domSize(), nh = box.scrollHeight;
      if (s === size && nh === h) quiet++; else { quiet = 0; size = s; h = nh; }
    }
  }

  /** @param {Element} box */
  function where(box) {
    const page = box === document.scrollingElement || box === document.documentElement;
    const top = page ? scrollY : box.scrollTop;
    const max = (page ? document.documentElement.scrollHeight - innerHeight : box.scrollHeight - box.clientHeight);
    return { scrollY: Math.round(top), maxScrollY: Math.max(0, Math.round(max)), atEnd: top >= max - 2, container: page ? 'page' : I.describe(box) };
  }

  /**
   * Files given as content (name, text or base64) set on a file input through DataTransfer, then input
   * and change, which is what a user's choice fires.
   * @param {Element} el @param {{ name: string, content?: string, base64?: string, mimeType?: string }[]} files @returns {ToolResult}
   */
  function setFiles(el, files) {
    if (!(el instanceof HTMLInputElement) || el.type !== 'file') return { ok: false, code: 'NOT_FILE_INPUT', message: `${I.describe(el)} is not a file input. Find the <input type=file> (it may be hidden behind a styled button) and use its ref or a selector such as input[type=file].` };
    const dt = new DataTransfer();
    for (const f of files) {
      const bytes = f.base64 !== undefined ? Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0)) : new TextEncoder().encode(f.content ?? '');
      dt.items.add(new File([bytes], f.name, { type: f.mimeType ?? 'application/octet-stream' }));
    }
    if (!el.multiple && dt.files.length > 1) return { ok: false, code: 'INVALID_ARGUMENTS', message: `${I.describe(el)} takes one file; ${dt.files.length} were given.` };
    el.files = dt.files;
    fire(el, 'input');
    fire(el, 'change');
    return { ok: true, data: { files: [...el.files].map((f) => ({ name: f.name, size: f.size })) } };
  }

  tw.widgets = { setField, selectNative, selectAria, setChecked, scroll, setFiles };
  Object.assign(tw.handlers, {
    'content.setField': async (/** @type {{ target: ActionTarget, value: string }} */ msg) => {
      const r = await I.prepare(msg.target, { needPoint: false });
      if (!('el' in r)) return r;
      return setField(r.el, msg.value);
    },
    'content.select': async (/** @type {{ target: ActionTarget, option: { label?: string, value?: string, index?: number } }} */ msg) => {
      const r = await I.prepare(msg.target);
      if (!('el' in r)) return r;
      const el = r.el;
      if (el instanceof HTMLSelectElement) return selectNative(el, msg.option);
      const combo = el.closest('[role=combobox]') ?? el.querySelector('[role=combobox]') ?? (el.matches('[role=listbox]') ? el : null) ?? (el instanceof HTMLInputElement && el.getAttribute('aria-autocomplete') ? el : null);
      if (!combo) return { ok: false, code: 'NOT_A_SELECT', message: `${msg.target.ref ?? I.describe(el)} is neither a <select> nor an ARIA combobox or listbox. Click it to open it, take a snapshot, then click the option.` };
      if (combo.matches('[role=listbox]')) {
        const opts = visibleOptions(combo);
        const pick = opts.find((o, i) => matches(msg.option, o.textContent ?? '', o.getAttribute('data-value') ?? '', i));
        if (!pick) return { ok: false, code: 'NO_SUCH_OPTION', message: `No option ${JSON.stringify(msg.option)} in the list. Options: ${opts.slice(0, 20).map((o) => JSON.stringify(I.clean(o.textContent))).join(', ')}.` };
        const b = pick.getBoundingClientRect();
        I.syntheticClick(pick, { x: b.left + b.width / 2, y: b.top + b.height / 2 }, {});
        return { ok: true, data: { selected: I.clean(pick.textContent) } };
      }
      return selectAria(combo, msg.option);
    },
    'content.checkState': async (/** @type {{ target: ActionTarget, checked: boolean }} */ msg) => setChecked(msg.target, msg.checked),
    'content.checked': (/** @type {{ target: ActionTarget }} */ msg) => checkedOf(msg.target),
    'content.scroll': (/** @type {Parameters<typeof scroll>[0]} */ msg) => scroll(msg),
    'content.dragPrepare': async (/** @type {{ from: ActionTarget, to: ActionTarget }} */ msg) => {
      const a = await I.prepare(msg.from);
      if (!('el' in a)) return a;
      const b = await I.prepare(msg.to, { allowDisabled: true });
      if (!('el' in b)) return b;
      // The source may have scrolled out of view when the target scrolled in; measure both again.
      const pa = await I.prepare(msg.from);
      if (!('el' in pa)) return pa;
      return { ok: true, data: { from: pa.point, to: b.point, html5: isDraggable(a.el) } };
    },
    'content.drag': async (/** @type {{ from: ActionTarget, to: ActionTarget }} */ msg) => {
      const a = await I.prepare(msg.from);
      if (!('el' in a)) return a;
      const b = await I.prepare(msg.to, { allowDisabled: true });
      if (!('el' in b)) return b;
      if (isDraggable(a.el)) html5Drag(a.el, b.el, a.point, b.point);
      else await pointerDrag(a.el, a.point, b.point);
      return { ok: true, data: { dragged: msg.from.ref ?? I.describe(a.el), to: msg.to.ref ?? I.describe(b.el), kind: isDraggable(a.el) ? 'html5' : 'pointer' } };
    },
    'content.html5Drag': async (/** @type {{ from: ActionTarget, to: ActionTarget }} */ msg) => {
      const a = I.find(msg.from), b = I.find(msg.to);
      if (!('el' in a)) return a;
      if (!('el' in b)) return b;
      const ra = a.el.getBoundingClientRect(), rb = b.el.getBoundingClientRect();
      html5Drag(a.el, b.el, { x: ra.x + ra.width / 2, y: ra.y + ra.height / 2 }, { x: rb.x + rb.width / 2, y: rb.y + rb.height / 2 });
      return { ok: true, data: null };
    },
    'content.setFiles': async (/** @type {{ target: ActionTarget, files: { name: string, content?: string, base64?: string, mimeType?: string }[] }} */ msg) => {
      // File inputs are usually hidden behind a styled button: no visibility or cover check.
      const f = I.find(msg.target);
      if (!('el' in f)) return f;
      return setFiles(f.el, msg.files);
    },
  });
})();
