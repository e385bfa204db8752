// What we know about well-known models: context window, maximum output, vision, native tools,
// and list price in US dollars per million tokens (input, output, cached input). Unknown models
// get conservative defaults and no price, so cost shows as unknown rather than wrong.
// Prices from the vendors' pricing pages as of 2026; a prefix match covers dated snapshots.
/** @import { Capabilities } from '../types/core' */

/** @type {[prefix: string, caps: Partial<Capabilities>][]} */
const KNOWN = [
  ['gpt-4.1-mini', { contextWindow: 1_047_576, maxOutput: 32_768, vision: true, price: { input: 0.4, output: 1.6, cachedInput: 0.1 } }],
  ['gpt-4.1', { contextWindow: 1_047_576, maxOutput: 32_768, vision: true, price: { input: 2, output: 8, cachedInput: 0.5 } }],
  ['gpt-4o-mini', { contextWindow: 128_000, maxOutput: 16_384, vision: true, price: { input: 0.15, output: 0.6, cachedInput: 0.075 } }],
  ['gpt-4o', { contextWindow: 128_000, maxOutput: 16_384, vision: true, price: { input: 2.5, output: 10, cachedInput: 1.25 } }],
  ['gpt-5-mini', { contextWindow: 400_000, maxOutput: 128_000, vision: true, price: { input: 0.25, output: 2, cachedInput: 0.025 } }],
  ['gpt-5', { contextWindow: 400_000, maxOutput: 128_000, vision: true, price: { input: 1.25, output: 10, cachedInput: 0.125 } }],
  ['claude-opus-4', { contextWindow: 200_000, maxOutput: 32_000, vision: true, price: { input: 15, output: 75, cachedInput: 1.5 } }],
  ['claude-sonnet-4', { contextWindow: 200_000, maxOutput: 64_000, vision: true, price: { input: 3, output: 15, cachedInput: 0.3 } }],
  ['claude-3-7-sonnet', { contextWindow: 200_000, maxOutput: 64_000, vision: true, price: { input: 3, output: 15, cachedInput: 0.3 } }],
  ['claude-haiku-4', { contextWindow: 200_000, maxOutput: 64_000, vision: true, price: { input: 1, output: 5, cachedInput: 0.1 } }],
  ['claude-3-5-haiku', { contextWindow: 200_000, maxOutput: 8_192, vision: true, price: { input: 0.8, output: 4, cachedInput: 0.08 } }],
  ['gemini-2.5-pro', { contextWindow: 1_048_576, maxOutput: 65_536, vision: true, price: { input: 1.25, output: 10, cachedInput: 0.31 } }],
  ['gemini-2.5-flash-lite', { contextWindow: 1_048_576, maxOutput: 65_536, vision: true, price: { input: 0.1, output: 0.4, cachedInput: 0.025 } }],
  ['gemini-2.5-flash', { contextWindow: 1_048_576, maxOutput: 65_536, vision: true, price: { input: 0.3, output: 2.5, cachedInput: 0.075 } }],
  ['gemini-2.0-flash', { contextWindow: 1_048_576, maxOutput: 8_192, vision: true, price: { input: 0.1, output: 0.4, cachedInput: 0.025 } }],
  ['deepseek-chat', { contextWindow: 128_000, maxOutput: 8_192, vision: false, price: { input: 0.27, output: 1.1, cachedInput: 0.07 } }],
  ['deepseek-reasoner', { contextWindow: 128_000, maxOutput: 64_000, vision: false, price: { input: 0.55, output: 2.19, cachedInput: 0.14 } }],
  ['grok-4', { contextWindow: 256_000, maxOutput: 64_000, vision: true, price: { input: 3, output: 15, cachedInput: 0.75 } }],
  ['mistral-large', { contextWindow: 128_000, maxOutput: 8_192, vision: false, price: { input: 2, output: 6 } }],
  ['llama3.1', { contextWindow: 128_000, maxOutput: 4_096, vision: false }],
  ['llama3.2-vision', { contextWindow: 128_000, maxOutput: 4_096, vision: true }],
  ['qwen2.5', { contextWindow: 32_768, maxOutput: 8_192, vision: false }],
  ['qwen3', { contextWindow: 40_960, maxOutput: 8_192, vision: false }],
];

/** @type {Capabilities} */
const DEFAULTS = { tools: true, vision: false, contextWindow: 32_768, maxOutput: 4_096 };

/**
 * @param {string} model
 * @param {Partial<Capabilities>} [overrides] what the provider itself knows (e.g. no native tools)
 * @returns {Capabilities}
 */
export function capabilitiesFor(model, overrides = {}) {
  const id = model.toLowerCase().replace(/^.*\//, '');
  const hit = KNOWN.find(([prefix]) => id.startsWith(prefix));
  return { ...DEFAULTS, ...(hit?.[1] ?? {}), ...overrides };
}

/**
 * What the table says about a model, or null when it does not know it.
 * @param {string} model @returns {Partial<Capabilities> | null}
 */
export function knownModel(model) {
  const id = model.toLowerCase().replace(/^.*\//, '');
  return KNOWN.find(([prefix]) => id.startsWith(prefix))?.[1] ?? null;
}

/**
 * Cost in US dollars of one call's usage, or undefined when the price is unknown.
 * @param {Capabilities} caps
 * @param {import('../types/core').Usage} usage
 */
export function costOf(caps, usage) {
  const p = caps.price;
  if (!p) return undefined;
  const cached = usage.cachedInputTokens ?? 0;
  const fresh = Math.max(0, usage.inputTokens - cached);
  return (fresh * p.input + cached * (p.cachedInput ?? p.input) + usage.outputTokens * p.output) / 1_000_000;
}
