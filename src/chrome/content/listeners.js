// The isolated-world side of content/listener-tracker.js: asks the page world which elements have
// click-like listeners and collects them, synchronously, for one outline pass.
(() => {
  const tw = globalThis.Tabwright = globalThis.Tabwright ?? /** @type {any} */ ({ handlers: {} });
  if (tw.listeners) return;

  /**
   * @param {Document} [doc] the document to ask; same-origin frames inside it are asked too
   * @param {WeakSet<Element>} [found]
   * @returns {WeakSet<Element>}
   */
  function collect(doc = document, found = new WeakSet()) {
    const win = doc.defaultView;
    if (!win) return found;
    /** @param {Event} e */
    const onNote = (e) => {
      const el = /** @type {Element} */ (e.composedPath()[0]);
      if (el && el.nodeType === 1) found.add(el);
      e.stopImmediatePropagation();
    };
    win.addEventListener('tabwright:listener', onNote, true);
    try { doc.dispatchEvent(new win.CustomEvent('tabwright:listeners?')); } finally {
      win.removeEventListener('tabwright:listener', onNote, true);
    }
    for (const frame of doc.querySelectorAll('iframe')) {
      const inner = tw.dom.sameOriginDocument(frame);
      if (inner) collect(inner, found);
    }
    return found;
  }

  tw.listeners = { collect };
})();
