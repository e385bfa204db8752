// The download part of the hold (docs/SECURITY.md): while a tab is held, a download that starts is
// paused as soon as the browser reports it and goes on only if the policy allows it; declined, it is
// cancelled and its file removed. Downloads carry no tab id, so one is matched to the held tab whose
// page it came from (its referrer), else to the most recently held tab. The request that fetches a
// download from another site is held earlier still, as a navigation (the request hold).
/** @import { HeldRequest, HoldHandlers } from '../types/safety' */

/**
 * @param {(url: string) => Promise<string | undefined>} [firstBytes] the file's first bytes (base64), when
 *   the request hold read them: a program under a document's name and type is told by them
 */
export function createDownloadHold(firstBytes) {
  /** @type {Map<number, { handlers: HoldHandlers, pageOrigin: () => Promise<string> }>} */
  const armed = new Map();
  let listening = false;

  /** @param {{ id: number, url: string, finalUrl?: string, referrer?: string, filename?: string, mime?: string, byExtensionId?: string }} item */
  async function onCreated(item) {
    const held = [...armed.values()];
    if (!held.length) return;
    // Tabwright's own files (a tab recording, an export) are the person's doing, not the page's.
    if (ownDownload(item)) return;
    let entry = held[held.length - 1];
    const from = originOf(item.referrer ?? '');
    for (const e of held) if (from && from === await e.pageOrigin()) entry = e;
    const url = item.finalUrl || item.url;
    /** @type {HeldRequest} */
    const req = { kind: 'download', method: 'GET', url, type: 'download', topLevel: false, filename: (item.filename || '').split(/[\\/]/).pop() || undefined,
      // The type the server declared (both browsers know it once the response began): an executable's shows here.
      ...(item.mime ? { mime: item.mime } : {}) };
    // Its first bytes, when the platform could read them: a program under a document's name and type
    // is told by them.
    const sniff = await firstBytes?.(url).catch(() => undefined);
    if (sniff) req.mime = `${item.mime ?? ''};base64,${sniff}`;
    if (!entry.handlers.wants(req)) return;
    await browser.downloads.pause(item.id).catch(() => {});
    const allowed = await entry.handlers.decide(req).catch(() => false);
    if (allowed) { await browser.downloads.resume(item.id).catch(() => {}); return; }
    await browser.downloads.cancel(item.id).catch(() => {});
    // A small file may have finished before it could be paused: remove what was written.
    await browser.downloads.removeFile(item.id).catch(() => {});
    await browser.downloads.erase({ id: item.id }).catch(() => {});
  }

  return {
    /**
     * @param {number} tabId @param {HoldHandlers} handlers
     * @returns {() => void} release
     */
    arm(tabId, handlers) {
      if (!listening && browser.downloads?.onCreated) { browser.downloads.onCreated.addListener(onCreated); listening = true; }
      const pageOrigin = () => browser.tabs.get(tabId).then((t) => originOf(t.url ?? ''), () => '');
      armed.set(tabId, { handlers, pageOrigin });
      return () => { if (armed.get(tabId)?.handlers === handlers) armed.delete(tabId); };
    },
  };
}

/** @param {string} url */
function originOf(url) { try { return new URL(url).origin; } catch { return ''; } }

/** A download this extension started itself. @param {{ url: string, byExtensionId?: string }} item */
function ownDownload(item) {
  const id = browser.runtime?.id;
  if (!id) return false;
  if (item.byExtensionId === id) return true;
  const base = browser.runtime.getURL('');
  return item.url.startsWith(base) || item.url.startsWith(`blob:${base.replace(/\/$/, '')}`);
}
