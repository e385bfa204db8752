// Runs in the page's own JavaScript world at document_start (a "world": "MAIN" content script in
// both manifests). It notes which elements get click-like
// listeners through addEventListener or an on* property, the handlers that no attribute shows:
// a <span> wired with addEventListener('click') is a button to the user but invisible to the DOM.
// The isolated world asks with a "tabwright:listeners?" event; each element noted since the last
// question then receives a "tabwright:listener" event, which content/listeners.js collects and
// remembers ("tabwright:listeners?all" tells every noted element again, for a new isolated world).
// No DOM is changed.
(function tabwrightListenerTracker() {
  const w = /** @type {any} */ (window);
  const mark = Symbol.for('tabwright.tracker');
  if (w[mark]) return;
  w[mark] = true;

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

  /**
   * Tells each connected element of `refs`; returns the ones to tell again later (alive, not connected).
   * @param {WeakRef<Element>[]} refs
   */
  function tell(refs) {
    const later = [];
    for (const ref of refs) {
      const el = ref.deref();
      if (!el) continue;
      if (el.isConnected) el.dispatchEvent(new CustomEvent('tabwright:listener', { bubbles: true, composed: true }));
      else later.push(ref);
    }
    return later;
  }

  add.call(document, 'tabwright:listeners?', () => { pending = tell(pending); });
  add.call(document, 'tabwright:listeners?all', () => {
    noted = noted.filter((r) => r.deref());
    swept = noted.length;
    pending = tell(noted);
  });
})();
