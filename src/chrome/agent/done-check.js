// The final observation after done: look at the page once more and check what the summary
// claims. Models announce success they did not achieve (WebBrain captures a verification
// screenshot for the same reason); phrases the summary quotes must be on the page.
/** @import { DoneCheck, ToolContext } from '../types/core' */

/**
 * @param {string} summary the done summary
 * @param {ToolContext} ctx
 * @returns {Promise<DoneCheck>}
 */
export async function observeAfterDone(summary, ctx) {
  const tab = await ctx.browser.getTab(ctx.tabId).catch(() => null);
  const quoted = quotedPhrases(summary);
  /** @type {DoneCheck} */
  const check = { url: tab?.url ?? '', title: tab?.title ?? '', verified: null, missing: [] };
  if (!quoted.length) return check;
  const read = await ctx.browser.sendToContent(ctx.tabId, { type: 'content.read' }).catch(() => null);
  if (!read?.ok) return check;
  const data = /** @type {unknown} */ (read.data);
  const page = normalize(`${tab?.title ?? ''}\n${typeof data === 'string' ? data : JSON.stringify(data)}`);
  check.missing = quoted.filter((q) => !page.includes(normalize(q)));
  check.verified = check.missing.length === 0;
  return check;
}

/** Phrases in straight or curly double quotes, 3 to 120 characters. @param {string} s */
export function quotedPhrases(s) {
  return [...s.matchAll(/["“]([^"“”\n]{3,120})["”]/g)].map((m) => m[1].trim());
}

/** @param {string} s */
function normalize(s) {
  return s.toLowerCase().replace(/[\u2018\u2019]/g, "'").replace(/\s+/g, ' ');
}
