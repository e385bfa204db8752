// Tabwright's helpers in the page's own JavaScript world ("world": "MAIN", document_start, every
// frame): the listener tracker (which elements get click-like listeners through addEventListener or
// an on* property: a <span> wired that way is a button to the user but invisible to the DOM), the
// dialog and console hooks (alert, confirm and prompt answered as the agent was told instead of
// blocking the page; the recent console messages kept), and the input hooks, idle until the
// isolated world arms them for one synthetic action (pointer capture for a drag, a file chooser
// held back for an upload).
// The page must neither see nor steer any of it: no global is left, every wrapped method looks
// native (a Proxy keeps name and length, and Function.prototype.toString shows the original's
// source), and the isolated world is reached only through DOM events whose names carry the key it
// hands over before any page script runs (content/page-channel.js). A page cannot name those events,
// so it can neither listen in nor fake a dialog into the agent's results.
(function tabwrightPageWorld() {
  const proto = EventTarget.prototype;
  const add = proto.addEventListener;
  const remove = proto.removeEventListener;
  const dispatch = proto.dispatchEvent;
  const Custom = CustomEvent;
  const stringify = JSON.stringify;
  const parse = JSON.parse;

  // ---- wrappers that look native ----

  /** wrapper → the function it stands for, for Function.prototype.toString. @type {WeakMap<Function, Function>} */
  const masks = new WeakMap();
  const toString = Function.prototype.toString;
  const maskedToString = new Proxy(toString, { apply: (target, self, args) => Reflect.apply(target, masks.get(self) ?? self, args) });
  masks.set(maskedToString, toString);
  Function.prototype.toString = maskedToString;

  /**
   * @template {Function} F
   * @param {F} original @param {(target: F, self: any, args: any[]) => any} apply
   * @returns {F}
   */
  function wrap(original, apply) {
    if (typeof original !== 'function') return original;
    const p = new Proxy(original, { apply });
    masks.set(p, original);
    return p;
  }

  // ---- the page channel ----

  /** The channel's event prefix, once the isolated world has handed its key over. */
  let channel = '';
  /** What to do once the channel is open. @type {(() => void)[]} */
  const onOpen = [];
  /** @param {Event} e */
  function onKey(e) {
    const key = /** @type {CustomEvent} */ (e).detail;
    if (channel || typeof key !== 'string' || !/^[0-9a-f]{24}$/.test(key)) return;
    channel = `tabwright-${key}`;
    remove.call(document, 'tabwright:key', onKey);
    for (const fn of onOpen) fn();
  }
  add.call(document, 'tabwright:key', onKey);
  /** @param {string} kind @param {(e: Event) => void} fn */
  const listen = (kind, fn) => onOpen.push(() => add.call(document, `${channel}:${kind}`, fn));
  /** @param {string} kind @param {unknown} detail */
  const tell = (kind, detail) => { if (channel) dispatch.call(document, new Custom(`${channel}:${kind}`, { detail: stringify(detail) })); };

  // ---- the listener tracker ----

  const CLICKY = new Set(['click', 'mousedown', 'mouseup', 'pointerdown', 'pointerup', 'touchstart', 'touchend', 'dblclick']);
  /** @type {WeakSet<Element>} */
  const seen = new WeakSet();
  /** Every noted element (for "?all"). @type {WeakRef<Element>[]} */
  let noted = [];
  /** Noted and not yet told: new since the last question, or not in the document when it came. @type {WeakRef<Element>[]} */
  let pending = [];
  /** noted's length after its last sweep of collected elements. */
  let swept = 0;

  /** @param {unknown} target */
  function note(target) {
    if (!(target instanceof Element) || seen.has(target)) return;
    if (target === document.documentElement || target === document.body) return;
    seen.add(target);
    const ref = new WeakRef(target);
    noted.push(ref);
    pending.push(ref);
    if (noted.length > 2 * swept + 1000) { noted = noted.filter((r) => r.deref()); swept = noted.length; }
  }

  proto.addEventListener = wrap(add, (target, self, args) => {
    if (CLICKY.has(args[0])) note(self);
    return Reflect.apply(target, self, args);
  });
  for (const prop of ['onclick', 'onmousedown', 'onpointerdown']) {
    const desc = Object.getOwnPropertyDescriptor(HTMLElement.prototype, prop);
    if (!desc || !desc.set) continue;
    const set = wrap(desc.set, (target, self, args) => { if (args[0]) note(self); return Reflect.apply(target, self, args); });
    Object.defineProperty(HTMLElement.prototype, prop, { ...desc, set });
  }

  /**
   * Tells each connected element of `refs`; returns the ones to tell again later (alive, not connected).
   * @param {WeakRef<Element>[]} refs
   */
  function told(refs) {
    const later = [];
    for (const ref of refs) {
      const el = ref.deref();
      if (!el) continue;
      if (el.isConnected) dispatch.call(el, new Custom(`${channel}:listener`, { bubbles: true, composed: true }));
      else later.push(ref);
    }
    return later;
  }
  listen('listeners?', () => { pending = told(pending); });
  listen('listeners?all', () => {
    noted = noted.filter((r) => r.deref());
    swept = noted.length;
    pending = told(noted);
  });

  // ---- dialogs ----

  /** What the next dialogs answer; the isolated script sets it (default: alert OK, confirm and prompt cancel, the safe choice). */
  let policy = { accept: false, promptText: /** @type {string | null} */ (null), once: true };
  listen('dialog-policy', (e) => {
    try { policy = parse(String(/** @type {CustomEvent} */ (e).detail)); } catch { /* ignore malformed */ }
  });

  /** @param {'alert' | 'confirm' | 'prompt'} kind @param {unknown} message @param {unknown} [def] */
  function answer(kind, message, def) {
    const accepted = kind === 'alert' ? true : policy.accept;
    const text = kind === 'prompt' && accepted ? (policy.promptText ?? String(def ?? '')) : null;
    tell('dialog', { kind, message: String(message ?? '').slice(0, 500), accepted, text, at: Date.now() });
    if (kind !== 'alert' && policy.once) policy = { accept: false, promptText: null, once: true };
    return { accepted, text };
  }
  const w = /** @type {any} */ (window);
  w.alert = wrap(w.alert, (_t, _self, args) => { answer('alert', args[0]); });
  w.confirm = wrap(w.confirm, (_t, _self, args) => answer('confirm', args[0]).accepted);
  w.prompt = wrap(w.prompt, (_t, _self, args) => { const a = answer('prompt', args[0], args[1]); return a.accepted ? a.text : null; });

  // ---- console ----

  /** @type {{ level: string, text: string, at: number, stack?: string }[]} */
  const logged = [];
  /** @param {string} level @param {string} text @param {unknown} [error] an Error whose stack is kept */
  function keep(level, text, error) {
    const stack = error instanceof Error && typeof error.stack === 'string' ? error.stack.slice(0, 2000) : undefined;
    logged.push({ level, text: text.slice(0, 1000), at: Date.now(), ...(stack ? { stack } : {}) });
    if (logged.length > 500) logged.shift();
  }
  listen('console-request', () => tell('console-dump', logged));
  listen('console-clear', () => { logged.length = 0; });

  const c = /** @type {any} */ (console);
  for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
    c[level] = wrap(c[level], (target, self, args) => {
      try {
        keep(level, args.map((a) => (typeof a === 'string' ? a : safe(a))).join(' '), args.find((a) => a instanceof Error));
      } catch { /* never break the page's logging */ }
      return Reflect.apply(target, self, args);
    });
  }
  // Uncaught errors and rejections are their own level, with the stack of what was thrown.
  add.call(window, 'error', (e) => { const x = /** @type {ErrorEvent} */ (e); if (x.message || x.error) keep('exception', `Uncaught ${x.error instanceof Error ? safe(x.error) : x.message} (${x.filename}:${x.lineno}:${x.colno})`, x.error); });
  add.call(window, 'unhandledrejection', (e) => { const r = /** @type {PromiseRejectionEvent} */ (e).reason; keep('exception', `Unhandled rejection: ${safe(r)}`, r); });

  // ---- input hooks (armed for one synthetic action) ----

  /** The synthetic pointer's id while a drag is armed; null otherwise. @type {number | null} */
  let pointerId = null;
  /** @type {Element | null} */
  let captured = null;
  let files = false;
  /** An event on an element, seen by the isolated world's listeners around it. @param {EventTarget} el @param {string} kind */
  const tellOn = (el, kind) => dispatch.call(el, new Custom(`${channel}:${kind}`, { bubbles: true, composed: true }));
  listen('input-hooks?', () => tellOn(document, 'input-hooks!'));
  listen('capture-arm', (e) => { pointerId = Number(/** @type {CustomEvent} */ (e).detail); captured = null; });
  listen('capture-disarm', () => { pointerId = null; captured = null; });
  listen('files-arm', () => { files = true; });
  listen('files-disarm', () => { files = false; });

  // Pointer capture: while a synthetic drag is armed, setPointerCapture(id) for its pointer records the
  // capturing element and tells the isolated world (which sends the moves there, as real capture
  // would) instead of asking the browser, which knows no such active pointer and would throw.
  const el = Element.prototype;
  /** @param {unknown} id */
  const ours = (id) => pointerId !== null && Number(id) === pointerId;
  el.setPointerCapture = wrap(el.setPointerCapture, (target, self, args) => {
    if (!ours(args[0])) return Reflect.apply(target, self, args);
    captured = self;
    tellOn(self, 'pointer-capture');
  });
  el.releasePointerCapture = wrap(el.releasePointerCapture, (target, self, args) => {
    if (!ours(args[0])) return Reflect.apply(target, self, args);
    if (captured === self) { captured = null; tellOn(self, 'pointer-release'); }
  });
  el.hasPointerCapture = wrap(el.hasPointerCapture, (target, self, args) => (ours(args[0]) ? captured === self : Reflect.apply(target, self, args)));

  // File choosers: while armed, a file input's click() or showPicker() opens no picker; the input is
  // told, so upload_file can fill the input a styled button opens.
  /** @param {unknown} x */
  const chooser = (x) => files && x instanceof HTMLInputElement && x.type === 'file';
  HTMLElement.prototype.click = wrap(HTMLElement.prototype.click, (target, self, args) => {
    if (!chooser(self)) return Reflect.apply(target, self, args);
    tellOn(self, 'file-chooser');
  });
  const input = HTMLInputElement.prototype;
  if (input.showPicker) {
    input.showPicker = wrap(input.showPicker, (target, self, args) => {
      if (!chooser(self)) return Reflect.apply(target, self, args);
      tellOn(self, 'file-chooser');
    });
  }

  /** @param {unknown} v */
  function safe(v) {
    if (v instanceof Error) return `${v.name}: ${v.message}`;
    try { return stringify(v) ?? String(v); } catch { return String(v); }
  }
})();
