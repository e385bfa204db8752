// Runs in the page's own world (manifest "world": "MAIN", document_start): answers alert, confirm
// and prompt as the agent was told instead of blocking the page, and keeps the console's recent
// messages. Talks to the isolated content script (content/page-events.js) through DOM events only,
// so no extension API is exposed to the page.
(() => {
  const KEY = Symbol.for('tabwright.hooks');
  const g = /** @type {any} */ (globalThis);
  if (g[KEY]) return;
  g[KEY] = true;
  /** What the next dialogs answer; the isolated script sets it (default: alert OK, confirm and prompt cancel, the safe choice). */
  let policy = { accept: false, promptText: /** @type {string | null} */ (null), once: true };
  /** @param {string} type @param {unknown} detail */
  const tell = (type, detail) => document.dispatchEvent(new CustomEvent(type, { detail: JSON.stringify(detail) }));
  document.addEventListener('tabwright:dialog-policy', (e) => {
    try { policy = JSON.parse(String(/** @type {CustomEvent} */ (e).detail)); } catch { /* ignore malformed */ }
  });

  /** @param {'alert' | 'confirm' | 'prompt'} kind @param {unknown} message @param {unknown} [def] */
  function answer(kind, message, def) {
    const accepted = kind === 'alert' ? true : policy.accept;
    const text = kind === 'prompt' && accepted ? (policy.promptText ?? String(def ?? '')) : null;
    tell('tabwright:dialog', { kind, message: String(message ?? '').slice(0, 500), accepted, text, at: Date.now() });
    if (kind !== 'alert' && policy.once) policy = { accept: false, promptText: null, once: true };
    return { accepted, text };
  }
  const w = /** @type {any} */ (window);
  w.alert = function alert(/** @type {unknown} */ message) { answer('alert', message); };
  w.confirm = function confirm(/** @type {unknown} */ message) { return answer('confirm', message).accepted; };
  w.prompt = function prompt(/** @type {unknown} */ message, /** @type {unknown} */ def) { const a = answer('prompt', message, def); return a.accepted ? a.text : null; };

  /** @type {{ level: string, text: string, at: number }[]} */
  const logged = [];
  /** @param {string} level @param {string} text */
  function keep(level, text) {
    logged.push({ level, text: text.slice(0, 1000), at: Date.now() });
    if (logged.length > 500) logged.shift();
  }
  document.addEventListener('tabwright:console-request', () => tell('tabwright:console-dump', logged));
  document.addEventListener('tabwright:console-clear', () => { logged.length = 0; });

  for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
    const c = /** @type {any} */ (console);
    const orig = c[level];
    c[level] = function (/** @type {unknown[]} */ ...args) {
      try {
        keep(level, args.map((a) => (typeof a === 'string' ? a : safe(a))).join(' '));
      } catch { /* never break the page's logging */ }
      return orig.apply(this, args);
    };
  }
  addEventListener('error', (e) => keep('error', `Uncaught ${e.message} (${e.filename}:${e.lineno})`));
  addEventListener('unhandledrejection', (e) => keep('error', `Unhandled rejection: ${safe(e.reason)}`));

  /** @param {unknown} v */
  function safe(v) {
    if (v instanceof Error) return `${v.name}: ${v.message}`;
    try { return JSON.stringify(v) ?? String(v); } catch { return String(v); }
  }
})();
