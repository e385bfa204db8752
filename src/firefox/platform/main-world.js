// Firefox MV2 has no "world": "MAIN" content scripts: run content/listener-tracker.js in the page's
// world from an inline <script> at document_start instead. Pages whose CSP forbids inline scripts
// block it; the outline then falls back to onclick attributes, cursor:pointer and roles
// (docs/PERCEPTION.md, "Browser differences").
(() => {
  const tracker = /** @type {any} */ (globalThis).TabwrightListenerTracker;
  if (typeof tracker !== 'function') return;
  const script = document.createElement('script');
  script.textContent = `(${tracker})();`;
  (document.head ?? document.documentElement).append(script);
  script.remove();
})();
