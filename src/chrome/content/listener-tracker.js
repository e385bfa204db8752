// Runs in the page's own JavaScript world at document_start (a "world": "MAIN" content script in
// both manifests). It notes which elements get click-like
// listeners through addEventListener or an on* property, the handlers that no attribute shows:
// a <span> wired with addEventListener('click') is a button to the user but invisible to the DOM.
// The isolated world asks for them with a "tabwright:listeners?" event; each noted element then
// receives a "tabwright:listener" event, which content/listeners.js collects. No DOM is changed.
(function tabwrightListenerTracker() {
  const w = /** @type {any} */ (window);
  const mark = Symbol.for('tabwright.tracker');
  if (w[mark]) return;
  w[mark] = true;

  const CLICKY = new Set(['click', 'mousedown', 'mouseup', 'pointerdown', 'pointerup', 'touchstart', 'touchend', 'dblclick']);
  /** @type {WeakSet<Element>} */
  const seen = new WeakSet();
  /** @type {WeakRef<Element>[]} */
  let noted = [];

  /** @param {unknown} target */
  function note(target) {
    if (!(target instanceof Element) || seen.has(target)) return;
    if (target === document.documentElement || target === document.body) return;
    seen.add(target);
    noted.push(new WeakRef(target));
  }

  const proto = EventTarget.prototype;
  const add = proto.addEventListener;
  proto.addEventListener = function addEventListener(type, listener, options) {
    if (CLICKY.has(type)) note(this);
    return add.call(this, type, listener, options);
  };
  for (const prop of ['onclick', 'onmousedown', 'onpointerdown']) {
    const desc = Object.getOwnPropertyDescriptor(HTMLElement.prototype, prop);
    if (!desc || !desc.set) continue;
    const set = desc.set;
    Object.defineProperty(HTMLElement.prototype, prop, { ...desc, set(v) { if (v) note(this); set.call(this, v); } });
  }

  add.call(document, 'tabwright:listeners?', () => {
    const live = [];
    for (const ref of noted) {
      const el = ref.deref();
      if (!el) continue;
      live.push(ref);
      if (el.isConnected) el.dispatchEvent(new CustomEvent('tabwright:listener', { bubbles: true, composed: true }));
    }
    noted = live;
  });
})();
