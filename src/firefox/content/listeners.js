// The isolated-world side of content/listener-tracker.js: asks the page world which elements have
// click-like listeners and collects them, synchronously, for one outline pass.
(() => {
  const tw = globalThis.Tabwright = globalThis.Tabwright ?? /** @type {any} */ ({ handlers: {} });
  if (tw.listeners) return;

  /** @returns {WeakSet<Element>} */
  function collect() {
    /** @type {WeakSet<Element>} */
    const found = new WeakSet();
    /** @param {Event} e */
    const onNote = (e) => {
      const el = e.composedPath()[0];
      if (el instanceof Element) found.add(el);
      e.stopImmediatePropagation();
    };
    window.addEventListener('tabwright:listener', onNote, true);
    try { document.dispatchEvent(new CustomEvent('tabwright:listeners?')); } finally {
      window.removeEventListener('tabwright:listener', onNote, true);
    }
    return found;
  }

  tw.listeners = { collect };
})();
