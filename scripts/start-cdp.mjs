// Opens a tab in a Chromium started by `npm start`, once Tabwright has loaded, over the DevTools pipe
// (--remote-debugging-pipe: fds 3 and 4, no port open to the machine).
// Why: a chrome-extension:// URL given on the command line is navigated before the unpacked extension
// is registered, so Chromium answers ERR_BLOCKED_BY_CLIENT for an extension it does not know yet; the
// same URL opened after the extension's service worker is up loads. The demo page is opened the same
// way: given on the command line it now and then stayed blank or was dropped while the extension loaded.

/**
 * A CDP client over the two pipe ends Chromium reads (fd 3) and writes (fd 4); messages end in NUL.
 * @param {import('node:stream').Writable} toBrowser
 * @param {import('node:stream').Readable} fromBrowser
 */
export function pipeClient(toBrowser, fromBrowser) {
  let nextId = 1;
  let buffer = '';
  /** @type {Map<number, (msg: any) => void>} */
  const waiting = new Map();
  fromBrowser.on('data', (chunk) => {
    buffer += String(chunk);
    let end;
    while ((end = buffer.indexOf('\0')) >= 0) {
      const msg = JSON.parse(buffer.slice(0, end));
      buffer = buffer.slice(end + 1);
      if (msg.id && waiting.has(msg.id)) { waiting.get(msg.id)?.(msg); waiting.delete(msg.id); }
    }
  });
  return {
    /** @param {string} method @param {object} [params] @returns {Promise<any>} */
    send(method, params = {}) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        waiting.set(id, (msg) => (msg.error ? reject(new Error(msg.error.message)) : resolve(msg.result)));
        toBrowser.write(`${JSON.stringify({ id, method, params })}\0`);
      });
    },
  };
}

/**
 * Waits until the extension with this id has a running background target, then opens each URL in a
 * tab (the last one ends in front) and closes the blank tab Chromium started with. Polls
 * Target.getTargets: a count of tries bounds it (a hang guard), not a clock.
 * @param {{ send: (method: string, params?: object) => Promise<any> }} cdp
 * @param {string} extensionId
 * @param {string[]} urls
 * @param {(ms: number) => Promise<void>} pause
 */
export async function openWhenLoaded(cdp, extensionId, urls, pause) {
  const origin = `chrome-extension://${extensionId}/`;
  for (let tries = 0; tries < 600; tries++) {
    /** @type {{ targetInfos: { targetId: string, type: string, url: string }[] }} */
    const { targetInfos } = await cdp.send('Target.getTargets');
    if (targetInfos.some((t) => t.type === 'service_worker' && t.url.startsWith(origin))) {
      const blank = targetInfos.filter((t) => t.type === 'page' && /^(about:blank|chrome:\/\/newtab\/?|chrome:\/\/new-tab-page\/?)$/.test(t.url));
      for (const url of urls) await cdp.send('Target.createTarget', { url });
      for (const t of blank) await cdp.send('Target.closeTarget', { targetId: t.targetId }).catch(() => {});
      return true;
    }
    await pause(100);
  }
  return false;
}
