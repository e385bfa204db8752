// The content script's message entry: dispatches background requests to the outline and actions.
(() => {
  if (globalThis.Tabwright?.listening) return;
  Object.assign(globalThis.Tabwright, { listening: true });

  /** @param {import('../types/core').ContentRequest} msg @returns {import('../types/core').ToolResult | null} */
  function handle(msg) {
    const tw = globalThis.Tabwright;
    switch (msg.type) {
      case 'content.ping': return { ok: true, data: 'pong' };
      case 'content.snapshot': return { ok: true, data: tw.outline.build({ maxChars: msg.maxChars }) };
      case 'content.click': return tw.actions.click(msg.ref);
      case 'content.type': return tw.actions.type(msg.ref, msg.text, { clear: msg.clear, submit: msg.submit });
      case 'content.read': return tw.actions.readText(msg.maxChars);
      default: return null;
    }
  }

  browser.runtime.onMessage.addListener((/** @type {any} */ msg, /** @type {any} */ _sender, /** @type {(r: unknown) => void} */ sendResponse) => {
    if (!msg || typeof msg.type !== 'string' || !msg.type.startsWith('content.')) return false;
    let result;
    try {
      result = handle(msg) ?? { ok: false, code: 'UNKNOWN_REQUEST', message: `The page script does not know "${msg.type}".` };
    } catch (err) {
      result = { ok: false, code: 'CONTENT_ERROR', message: err instanceof Error ? err.message : String(err) };
    }
    sendResponse(result);
    return false;
  });
})();
