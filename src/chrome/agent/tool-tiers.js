// Which tools a model is offered, by what fits its context window: the full set; the compact tier
// (the tools that declare `compact` on themselves: a dozen, with short descriptions and fewer
// parameters) for small windows; and, when not even that leaves room for a page outline, a
// read-only tier (the outline and the page's text). The user can force full or compact per provider.
/** @import { Tool, ToolSchema } from '../types/core' */
import { toolPrompt } from '../providers/tool-protocol.js';

/** @typedef {'full' | 'compact' | 'read'} ToolTier */

/** Room kept for one page outline in the request (tokens). */
export const OUTLINE_ROOM_TOKENS = 2_000;
/** Characters per token of tool definitions (measured 4.2–4.6 with o200k_base: bench/tool-tiers.mjs); a little under, so estimates err large. */
const SCHEMA_CHARS_PER_TOKEN = 4;

/**
 * The tools of a tier, and their definitions as the model receives them.
 * @param {readonly Tool[]} tools the mode's tools @param {ToolTier} tier
 * @returns {{ tools: Tool[], schemas: ToolSchema[] }}
 */
export function toolsOfTier(tools, tier) {
  const kept = tier === 'full' ? [...tools] : tools.filter((t) => t.compact && (tier === 'compact' || t.looksAtPage));
  const schemas = kept.map((t) => (tier !== 'full' && t.compact
    ? { name: t.name, description: t.compact.description, parameters: t.compact.parameters ?? t.parameters }
    : { name: t.name, description: t.description, parameters: t.parameters }));
  return { tools: kept, schemas };
}

/**
 * Tokens the tool definitions take in a request, estimated from their text (native tool calling:
 * the JSON; the prompt protocol: the prompt that describes them).
 * @param {readonly ToolSchema[]} schemas @param {boolean} promptProtocol
 */
export function toolTokens(schemas, promptProtocol) {
  const text = promptProtocol ? toolPrompt([...schemas]) : JSON.stringify(schemas);
  return Math.ceil(text.length / SCHEMA_CHARS_PER_TOKEN);
}

/**
 * The tier for a model: the largest whose request (system prompt, tool definitions, a page
 * outline, the answer) fits the window; or the user's choice.
 * @param {object} o
 * @param {readonly Tool[]} o.tools the mode's tools
 * @param {number} o.contextWindow @param {number} o.maxOutput
 * @param {number} o.systemTokens
 * @param {boolean} o.promptProtocol the model gets its tools in the prompt
 * @param {'auto' | 'full' | 'compact'} [o.override]
 * @returns {{ tier: ToolTier, toolTokens: number, fits: boolean }}
 */
export function chooseTier({ tools, contextWindow, maxOutput, systemTokens, promptProtocol, override = 'auto' }) {
  const answer = Math.min(maxOutput, 1_024);
  const need = (/** @type {ToolTier} */ tier) => {
    const t = toolTokens(toolsOfTier(tools, tier).schemas, promptProtocol);
    return { tier, toolTokens: t, fits: systemTokens + t + OUTLINE_ROOM_TOKENS + answer <= contextWindow };
  };
  if (override === 'full' || override === 'compact') return need(override);
  for (const tier of /** @type {ToolTier[]} */ (['full', 'compact'])) {
    const n = need(tier);
    if (n.fits) return n;
  }
  return need('read');
}
