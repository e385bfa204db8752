// Messages from the background to a tab's content scripts, one frame at a time, and the tab's
// frames as the tools see them. Every message has a deadline: a frame that never answers (a page
// frozen in a script, a frame the browser never lets a script into) ends in FRAME_UNRESPONSIVE
// naming the frame, never in a tool call that waits forever. Frames that cannot host a content
// script (about:blank, javascript: URLs, error pages) are known from their URL and never messaged.
/** @import { ContentRequest, FrameInfo, ToolResult } from '../types/core' */
/** @import { Platform } from '../types/platform' */
import { parseRef } from '../agent/refs.js';
import { fail } from '../agent/error-codes.js';

/** How long a frame may take to answer beyond the wait the message itself asks for (timeoutMs). */
export const CONTENT_DEADLINE_MS = 10_000;

/**
 * Whether a frame at this URL can host the extension's content scripts: the manifests match
 * http(s) pages only. Error pages (chrome-error://, about:neterror), about:blank and javascript:
 * frames cannot (a same-origin about:blank frame is read through its parent instead).
 * @param {string} url
 */
export function scriptableUrl(url) {
  return /^https?:/i.test(url);
}

/**
 * @param {Platform} platform
 * @param {{ tabGone(tabId: number): Promise<boolean>, settle(tabId: number): Promise<void>, noDocumentYet(tabId: number, frameId: number): boolean, failed(tabId: number, frameId: number): boolean, generation(tabId: number, frameId: number): number }} tabs
 */
export function createContentChannel(platform, tabs) {
  /**
   * Frames whose document refused the content scripts (Firefox's document.write()n frames carry
   * their parent's http URL), by "tabId:frameId", with the document generation that refused:
   * not tried again until the frame navigates. Bounded: old entries fall out.
   * @type {Map<string, number>}
   */
  const refused = new Map();
  /** @param {number} tabId @param {number} frameId */
  const refusedNow = (tabId, frameId) => refused.get(`${tabId}:${frameId}`) === tabs.generation(tabId, frameId);
  /**
   * @param {number} tabId @param {ContentRequest} message @param {{ deadlineMs?: number }} [opts]
   * @returns {Promise<ToolResult>}
   */
  async function sendToContent(tabId, message, opts = {}) {
    const frameId = frameOf(message);
    const asked = /** @type {{ timeoutMs?: unknown }} */ (message).timeoutMs;
    const deadlineMs = opts.deadlineMs ?? CONTENT_DEADLINE_MS + (typeof asked === 'number' && asked > 0 ? asked : 0);
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    const late = new Promise((resolve) => { timer = setTimeout(() => resolve(null), deadlineMs); });
    try {
      const r = await Promise.race([deliver(tabId, frameId, message), late]);
      return r ?? await unresponsive(tabId, frameId, deadlineMs);
    } finally { clearTimeout(timer); }
  }

  /** @param {number} tabId @param {number} frameId @param {ContentRequest} message @returns {Promise<ToolResult>} */
  async function deliver(tabId, frameId, message) {
    try {
      return await send(tabId, frameId, message);
    } catch (err) {
      const why = errText(err);
      if (await tabs.tabGone(tabId)) return fail('TAB_GONE');
      if (!/receiving end does not exist|could not establish connection/i.test(why)) return channelError(err, message);
      // No content script in that frame: the page loaded before the extension, or is still loading.
      const frame = await frameInfo(tabId, frameId);
      if (frame && (!frame.scriptable || refusedNow(tabId, frameId))) return notScriptable(frameId, frame.url);
      try { await tabs.settle(tabId); await platform.injectContent(tabId, frameId); } catch (e) {
        if (frameId) {
          refused.set(`${tabId}:${frameId}`, tabs.generation(tabId, frameId));
          if (refused.size > 500) refused.delete(/** @type {string} */ (refused.keys().next().value));
          return notScriptable(frameId, frame?.url ?? '');
        }
        return fail('PAGE_NOT_SCRIPTABLE', errText(e));
      }
      try { return await send(tabId, frameId, message); } catch (e) { return channelError(e, message); }
    }
  }

  /** @param {number} tabId @param {number} frameId @param {number} ms @returns {Promise<ToolResult>} */
  async function unresponsive(tabId, frameId, ms) {
    if (await tabs.tabGone(tabId)) return fail('TAB_GONE');
    const secs = Math.round(ms / 100) / 10;
    if (!frameId) return fail('FRAME_UNRESPONSIVE', `the page, within ${secs} s`, { retryable: true });
    const frame = await frameInfo(tabId, frameId);
    return fail('FRAME_UNRESPONSIVE', `frame ${frameId}${frame ? ` (${shortUrl(frame.url)})` : ''}, within ${secs} s; its address can also be opened in its own tab with navigate`, { retryable: true });
  }

  /**
   * The tab's frames with what the tools need to know before messaging them.
   * @param {number} tabId @returns {Promise<FrameInfo[]>}
   */
  async function listFrames(tabId) {
    try {
      const frames = await browser.webNavigation.getAllFrames({ tabId });
      return (frames ?? []).map((f) => {
        // Firefox lists a frame that failed with the address it tried, not an error page: the
        // navigation events know.
        const info = describeFrame({ ...f, errorOccurred: f.errorOccurred || (f.frameId > 0 && tabs.failed(tabId, f.frameId)) });
        if (f.frameId && refusedNow(tabId, f.frameId)) info.scriptable = false;
        return f.frameId && tabs.noDocumentYet(tabId, f.frameId) ? { ...info, loading: true } : info;
      });
    } catch { return []; }
  }

  /** @param {number} tabId @param {number} frameId @returns {Promise<FrameInfo | null>} */
  async function frameInfo(tabId, frameId) {
    try {
      const f = await browser.webNavigation.getFrame({ tabId, frameId });
      return f ? describeFrame({ ...f, frameId }) : null;
    } catch { return null; }
  }

  return { sendToContent, listFrames };
}

/**
 * @param {{ frameId: number, parentFrameId: number, url: string, errorOccurred?: boolean }} f
 * @returns {FrameInfo}
 */
function describeFrame(f) {
  const failed = !!f.errorOccurred || /^(chrome-error|about:neterror|about:certerror)/i.test(f.url);
  return { frameId: f.frameId, parentFrameId: f.parentFrameId, url: f.url, scriptable: !failed && scriptableUrl(f.url), failed };
}

/** @param {number} frameId @param {string} url @returns {ToolResult} */
function notScriptable(frameId, url) {
  if (!frameId) return fail('PAGE_NOT_SCRIPTABLE', shortUrl(url));
  return fail('FRAME_NOT_SCRIPTABLE', `frame ${frameId}, ${shortUrl(url)}`);
}

/** @param {string} url */
function shortUrl(url) {
  return url.length > 120 ? `${url.slice(0, 117)}…` : url;
}

/**
 * The frame a request goes to: the one its ref names ("f7:e3" → frame 7), else its frameId, else the top frame.
 * @param {ContentRequest} message
 */
export function frameOf(message) {
  // Acting requests name their element as target (drag_drop: from); perception's as ref.
  const m = /** @type {{ ref?: unknown, target?: { ref?: unknown, frameId?: unknown }, from?: { ref?: unknown, frameId?: unknown }, frameId?: unknown }} */ (message);
  const ref = m.target?.ref ?? m.from?.ref ?? m.ref;
  if (typeof ref === 'string') {
    const parsed = parseRef(ref);
    if (parsed) return parsed.frameId;
  }
  // A text or selector target scoped with frame_id (ActionTarget.frameId).
  const scoped = m.target?.frameId ?? m.from?.frameId;
  if (typeof scoped === 'number') return scoped;
  return typeof m.frameId === 'number' ? m.frameId : 0;
}

/** @param {number} tabId @param {number} frameId @param {ContentRequest} message @returns {Promise<ToolResult>} */
async function send(tabId, frameId, message) {
  const reply = await browser.tabs.sendMessage(tabId, message, { frameId });
  // No answer at all: the frame has content scripts that listen for other messages (the channel
  // hold's, at document_start) but not yet the one that answers these; it is treated like a frame
  // with none, so the content scripts are injected and the message sent again.
  if (reply === undefined) throw new Error('No content script answered: receiving end does not exist.');
  if (!reply || typeof reply !== 'object' || !('ok' in reply)) {
    return fail('NO_CONTENT_REPLY', undefined, { retryable: true });
  }
  return /** @type {ToolResult} */ (reply);
}

/**
 * The message channel closed before the reply: the page navigated or was unloaded mid-action.
 * @param {unknown} err @param {ContentRequest} message @returns {ToolResult}
 */
function channelError(err, message) {
  const why = errText(err);
  if (/message channel closed|message manager disconnected|back\/forward cache|page unloaded|receiving end/i.test(why)) {
    if (message.type === 'content.click' || message.type === 'content.type') {
      return { ok: true, data: { note: 'The page navigated during the action. Take a snapshot to see the new page.' } };
    }
    return fail('PAGE_CHANGED', undefined, { retryable: true });
  }
  return fail('CONTENT_ERROR', why);
}

/** @param {unknown} err */
function errText(err) {
  return err instanceof Error ? err.message : String(err);
}
