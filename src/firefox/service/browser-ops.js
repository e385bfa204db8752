// The BrowserOps the tools use, built on the WebExtension tabs API (the same in both browsers
// through webextension-polyfill); what differs (script injection) comes from the platform.
/** @import { BrowserOps, ToolResult } from '../types/core' */
/** @import { Platform } from '../types/platform' */
import { createContentChannel } from './content-channel.js';
import { createNavWatch } from './nav-watch.js';
import { createDownloadHold } from './download-hold.js';
import { createChannelHold } from './channel-hold.js';
import { createDevtools } from './devtools.js';
import { createRecording } from './recording.js';
import { fetchSameOrigin } from '../agent/safety/redirects.js';
import { createPersonControl } from './person-control.js';
import { fail } from '../agent/error-codes.js';

const NAV_TIMEOUT_MS = 30_000;

/**
 * @param {Platform} platform
 * @param {{ onOpened?: (openerTabId: number, tabId: number) => void }} [hooks] onOpened: a tab the tools opened from a tab (it joins that run's tab group)
 * @returns {BrowserOps & { devtools: ReturnType<typeof createDevtools>, recorder: ReturnType<typeof createRecording> | null, channels: import('./channel-hold.js').ChannelHold }}
 */
export function createBrowserOps(platform, hooks = {}) {
  const downloads = createDownloadHold(platform.downloadBytes ? (url) => /** @type {NonNullable<Platform['downloadBytes']>} */ (platform.downloadBytes)(url) : undefined);
  // Every frame of the tab hears when its hold begins and ends (frames loaded later ask: content/channel-hold.js).
  const channels = createChannelHold((tabId, msg) => browser.tabs.sendMessage(tabId, msg));
  const devtools = createDevtools(platform);
  const loads = createNavWatch();
  const content = createContentChannel(platform, { tabGone, settle: loads.untilLoaded, noDocumentYet: loads.noDocumentYet, failed: loads.failed, generation: loads.generation });
  const person = createPersonControl();
  /**
   * Waits briefly for a navigation an action may have started, then for its document.
   * @param {number} tabId @param {AbortSignal} [signal]
   */
  async function settleTab(tabId, signal) {
    await sleep(120);
    await loads.untilLoaded(tabId, signal);
  }
  return {
    sendToContent: async (tabId, msg, opts) => person.refusal(tabId, msg.type) ?? content.sendToContent(tabId, msg, opts),
    listFrames: content.listFrames,
    personControl: person,

    async navigate(tabId, url, signal) {
      try {
        const loaded = waitForLoad(tabId, signal);
        await browser.tabs.update(tabId, { url });
        await loaded;
        const tab = await browser.tabs.get(tabId);
        return { ok: true, data: { url: tab.url ?? url, title: tab.title ?? '' } };
      } catch (err) {
        if (await tabGone(tabId)) return fail('TAB_GONE', 'during navigation');
        const timeout = /timeout/i.test(errText(err));
        return { ok: false, code: timeout ? 'NAVIGATION_TIMEOUT' : 'NAVIGATION_FAILED', message: timeout ? `${url} did not finish loading within ${NAV_TIMEOUT_MS / 1000} s. Take a snapshot to see what loaded.` : `Could not open ${url}: ${errText(err)}`, retryable: true };
      }
    },

    async getTab(tabId) {
      try {
        const t = await browser.tabs.get(tabId);
        return { url: t.url ?? '', title: t.title ?? '', status: t.status };
      } catch { return null; }
    },

    settle: settleTab,

    // Actions: trusted input, screenshots, files, history, tabs, fetch, downloads.
    trusted: platform.trusted ?? null,
    screenshot: async (tabId, opts) => {
      const no = person.refusal(tabId, 'screenshot');
      if (no) throw new Error(no.message);
      return platform.screenshot(tabId, opts);
    },
    setFilePaths: platform.setFilePaths ? (tabId, selector, paths) => /** @type {NonNullable<Platform['setFilePaths']>} */ (platform.setFilePaths)(tabId, selector, paths) : null,
    history: (tabId, which, signal) => historyStep(tabId, which, signal),
    ...tabOps(hooks.onOpened),
    watchNewTabs,
    fetchUrl,
    listDownloads,
    readPdf: (url, opts) => platform.readPdf(url, opts),

    async injectScripts(tabId, files, frameId = 0) {
      try { await platform.injectFiles(tabId, files, frameId); return { ok: true, data: null }; } catch (e) {
        return fail('PAGE_NOT_SCRIPTABLE', `its reader: ${errText(e)}`);
      }
    },

    // The hold on an acting step's requests, downloads and channel writes (WebSocket, data
    // channels: docs/SECURITY.md); null where the platform cannot hold requests (then the guard
    // asks before each acting step instead).
    async holdEffects(tabId, handlers) {
      const requests = platform.holdRequests ? await platform.holdRequests(tabId, handlers) : null;
      if (!requests) return null;
      const releaseDownloads = downloads.arm(tabId, handlers);
      const releaseChannels = await channels.arm(tabId, handlers);
      return { ...(requests.unheld?.length ? { unheld: requests.unheld } : {}), async release() { releaseDownloads(); releaseChannels(); await requests.release(); } };
    },
    channels,

    devtools,
    recorder: platform.recorder ? createRecording(platform.recorder, {
      badge: (tabId, show, startedAt) => { content.sendToContent(tabId, { type: 'content.recordingBadge', show, startedAt }).catch(() => {}); },
    }) : null,
  };
}

/**
 * Back, forward or reload, waiting for the page that results.
 * @param {number} tabId @param {'back' | 'forward' | 'reload'} which @param {AbortSignal} [signal]
 * @returns {Promise<ToolResult<{ url: string, title: string }>>}
 */
async function historyStep(tabId, which, signal) {
  try {
    const before = await browser.tabs.get(tabId);
    const loaded = waitForLoad(tabId, signal, 15_000);
    loaded.catch(() => {});
    if (which === 'reload') await browser.tabs.reload(tabId);
    else if (which === 'back') await browser.tabs.goBack(tabId);
    else await browser.tabs.goForward(tabId);
    // Same-document history steps (pushState) never reach "loading": a URL change is enough.
    await Promise.race([loaded, urlChanged(tabId, before.url ?? '', 15_000)]);
    const tab = await browser.tabs.get(tabId);
    return { ok: true, data: { url: tab.url ?? '', title: tab.title ?? '' } };
  } catch (err) {
    if (await tabGone(tabId)) return fail('TAB_GONE');
    const why = errText(err);
    if (/cannot go|no (back|forward)|history/i.test(why)) return fail('NO_HISTORY', which);
    return { ok: false, code: /timeout/i.test(why) ? 'NAVIGATION_TIMEOUT' : 'NAVIGATION_FAILED', message: `Going ${which} did not finish: ${why}. Take a snapshot to see where the tab is.`, retryable: true };
  }
}

/** @param {number} tabId @param {string} from @param {number} timeoutMs @returns {Promise<void>} */
async function urlChanged(tabId, from, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    await sleep(100);
    const t = await browser.tabs.get(tabId);
    if (t.url !== from && t.status === 'complete') return;
  }
  throw new Error('timeout');
}

/** @param {(openerTabId: number, tabId: number) => void} [onOpened] @returns {Pick<BrowserOps, 'listTabs' | 'openTab' | 'activateTab' | 'closeTab'>} */
function tabOps(onOpened) {
  /** @param {any} t */
  const info = (t) => ({ tabId: /** @type {number} */ (t.id), url: t.url ?? '', title: t.title ?? '', active: Boolean(t.active) });
  return {
    async listTabs(tabId) {
      const me = await browser.tabs.get(tabId).catch(() => null);
      const tabs = await browser.tabs.query(me ? { windowId: me.windowId } : {});
      return tabs.filter((t) => /^https?:|^about:blank/.test(t.url ?? '')).map(info);
    },
    async openTab(url, opts) {
      const t = await browser.tabs.create({ url, active: opts.active ?? true, openerTabId: opts.openerTabId });
      const id = /** @type {number} */ (t.id);
      if (opts.openerTabId !== undefined) onOpened?.(opts.openerTabId, id);
      await pageLoaded(id, opts.signal);
      return info(await browser.tabs.get(id));
    },
    async activateTab(tabId) {
      const t = await browser.tabs.update(tabId, { active: true });
      if (t?.windowId !== undefined) await browser.windows.update(t.windowId, { focused: true }).catch(() => {});
      return info(await browser.tabs.get(tabId));
    },
    async closeTab(tabId) { await browser.tabs.remove(tabId); },
  };
}

/**
 * Starts recording tabs the page opens (target=_blank links, window.open); stop() lists them once loaded.
 * @param {number} openerTabId
 */
function watchNewTabs(openerTabId) {
  /** @type {Set<number>} */
  const ids = new Set();
  const onCreated = (/** @type {any} */ t) => { if (t.openerTabId === openerTabId || t.openerTabId === undefined) ids.add(t.id); };
  browser.tabs.onCreated.addListener(onCreated);
  return {
    async stop() {
      browser.tabs.onCreated.removeListener(onCreated);
      const out = [];
      for (const id of ids) {
        // Poll rather than wait for an event: the tab may have finished loading already.
        for (let i = 0; i < 100; i++) {
          const t = await browser.tabs.get(id).catch(() => null);
          if (!t || (t.status === 'complete' && t.url && t.url !== 'about:blank')) break;
          await sleep(100);
        }
        const t = await browser.tabs.get(id).catch(() => null);
        if (t && t.openerTabId === openerTabId) out.push({ tabId: id, url: t.url ?? '', title: t.title ?? '' });
      }
      return out;
    },
  };
}

const FETCH_TIMEOUT_MS = 20_000;

/**
 * Fetches a URL from the background (no page cookies are added beyond the browser's own), capped.
 * @param {string} url @param {{ method?: string, headers?: Record<string, string>, body?: string, maxChars?: number, signal?: AbortSignal }} opts
 * @returns {Promise<ToolResult<{ url: string, status: number, contentType: string, text: string, truncated: boolean }>>}
 */
async function fetchUrl(url, opts) {
  const timeout = AbortSignal.timeout(FETCH_TIMEOUT_MS);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  try {
    // No redirect to another origin is followed (agent/safety/redirects.js).
    const got = await fetchSameOrigin((u, init) => fetch(u, init), url, { method: opts.method ?? 'GET', headers: opts.headers, body: opts.body, signal });
    if (!got.ok) return fail('REDIRECT_REFUSED', got.message);
    const res = got.res;
    const contentType = res.headers.get('content-type') ?? '';
    const max = opts.maxChars ?? 20_000;
    let text = /^(text\/|application\/(json|xml|xhtml|javascript|ld\+json))/.test(contentType) || !contentType ? await res.text() : `(binary ${contentType}, ${res.headers.get('content-length') ?? '?'} bytes)`;
    const truncated = text.length > max;
    if (truncated) text = text.slice(0, max);
    return { ok: true, data: { url: res.url, status: res.status, contentType, text, truncated } };
  } catch (err) {
    const why = errText(err);
    return { ok: false, code: /timeout|abort/i.test(why) ? 'FETCH_TIMEOUT' : 'FETCH_FAILED', message: `Could not fetch ${url}: ${why}`, retryable: true };
  }
}

/** @param {{ limit?: number, query?: string }} opts */
async function listDownloads(opts) {
  const items = await browser.downloads.search({ orderBy: ['-startTime'], limit: opts.limit ?? 20, query: opts.query ? [opts.query] : undefined });
  return items.map((d) => ({ id: d.id, url: d.url, filename: d.filename, state: d.state, bytes: d.bytesReceived, totalBytes: d.totalBytes, startTime: d.startTime, mime: d.mime ?? '' }));
}

/** @param {number} tabId */
async function tabGone(tabId) {
  try { await browser.tabs.get(tabId); return false; } catch { return true; }
}

/** @param {unknown} err */
function errText(err) {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Resolves when the tab reports status "complete".
 * @param {number} tabId @param {AbortSignal} [signal] @param {number} [timeoutMs]
 * @returns {Promise<void>}
 */
function waitForLoad(tabId, signal, timeoutMs = NAV_TIMEOUT_MS) {
  return new Promise((resolve, reject) => {
    let sawLoading = false;
    const timer = setTimeout(() => finish(new Error('timeout')), timeoutMs);
    /** @param {number} id @param {{status?: string}} change */
    const onUpdated = (id, change) => {
      if (id !== tabId) return;
      if (change.status === 'loading') sawLoading = true;
      if (change.status === 'complete' && sawLoading) finish();
    };
    const onRemoved = (/** @type {number} */ id) => { if (id === tabId) finish(new Error('tab closed')); };
    const onAbort = () => finish(new Error('aborted'));
    /** @param {Error} [err] */
    function finish(err) {
      clearTimeout(timer);
      browser.tabs.onUpdated.removeListener(onUpdated);
      browser.tabs.onRemoved.removeListener(onRemoved);
      signal?.removeEventListener('abort', onAbort);
      if (err) reject(err); else resolve();
    }
    browser.tabs.onUpdated.addListener(onUpdated);
    browser.tabs.onRemoved.addListener(onRemoved);
    signal?.addEventListener('abort', onAbort);
    // Already loading when we started listening: a later "complete" is enough.
    browser.tabs.get(tabId).then((t) => { if (t.status === 'loading') sawLoading = true; }, () => {});
  });
}

/**
 * Waits until a new tab has loaded its page, not the blank page it starts with: Firefox reports a
 * background tab's about:blank as complete before the URL has begun to load.
 * @param {number} tabId @param {AbortSignal} [signal]
 */
async function pageLoaded(tabId, signal) {
  const deadline = Date.now() + NAV_TIMEOUT_MS;
  while (Date.now() < deadline && !signal?.aborted) {
    const t = await browser.tabs.get(tabId).catch(() => null);
    if (!t || (t.status === 'complete' && t.url && t.url !== 'about:blank')) return;
    await sleep(100);
  }
}

/** @param {number} ms */
function sleep(ms) { return new Promise((r) => setTimeout(r, ms)); }
