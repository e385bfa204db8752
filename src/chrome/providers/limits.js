// A model's real limits: its context window and the most it may write in one answer. In order of
// trust: what the user set on the provider (Settings → provider → Advanced), what the provider's own
// API says about the model (OpenAI-compatible model lists that carry a context length, Gemini's
// model resource, Ollama's /api/show), the table of known models (providers/models.js), and a
// conservative default by wire format and place. Looked up once per endpoint and model (cached for
// ten minutes); a provider that does not answer within 4 s costs nothing more, and is asked again next time.
/** @import { ModelLimits } from '../types/core' */
import { knownModel } from './models.js';

/** @typedef {'openai' | 'anthropic' | 'gemini' | 'ollama' | 'builtin'} WireFormat */

/**
 * When nothing else is known. Local servers run small contexts unless told otherwise (Ollama's own
 * default is 2–4k; Tabwright asks Ollama for the window it assumes, so the two agree).
 * @param {WireFormat} format @param {boolean} local
 * @returns {{ contextWindow: number, maxOutput: number }}
 */
export function defaultLimits(format, local) {
  switch (format) {
    case 'anthropic': return { contextWindow: 200_000, maxOutput: 8_192 };
    case 'gemini': return { contextWindow: 1_048_576, maxOutput: 8_192 };
    case 'builtin': return { contextWindow: 6_144, maxOutput: 1_024 };
    case 'ollama': return { contextWindow: 8_192, maxOutput: 2_048 };
    default: return local ? { contextWindow: 8_192, maxOutput: 2_048 } : { contextWindow: 32_768, maxOutput: 4_096 };
  }
}

/**
 * @param {object} o
 * @param {string} o.model
 * @param {WireFormat} o.format
 * @param {boolean} o.local
 * @param {{ contextWindow?: number, maxOutput?: number }} [o.override] the user's
 * @param {{ contextWindow?: number, maxOutput?: number } | null} [o.reported] the provider API's
 * @returns {ModelLimits}
 */
export function resolveLimits({ model, format, local, override = {}, reported = null }) {
  const table = knownModel(model);
  const fallback = defaultLimits(format, local);
  // A local server's window is what it runs with, not what the model was trained for.
  const tableWindow = format === 'ollama' || local ? undefined : table?.contextWindow;
  /** @type {[ModelLimits['source'], number | undefined][]} */
  const windows = [['settings', override.contextWindow], ['provider', reported?.contextWindow], ['table', tableWindow], ['default', fallback.contextWindow]];
  const [source, contextWindow] = /** @type {[ModelLimits['source'], number]} */ (windows.find(([, v]) => typeof v === 'number' && v > 0));
  const maxOutput = [override.maxOutput, reported?.maxOutput, table?.maxOutput, fallback.maxOutput].find((v) => typeof v === 'number' && v > 0) ?? fallback.maxOutput;
  // An answer never gets more than half the window.
  return { contextWindow, maxOutput: Math.min(maxOutput, Math.floor(contextWindow / 2)), source };
}

/** @type {Map<string, { at: number, value: Promise<{ contextWindow?: number, maxOutput?: number } | null> }>} */
const probed = new Map();
const TTL_MS = 10 * 60_000;
const PROBE_MS = 4_000;

/**
 * What the provider's API says about a model, once per key for ten minutes; null when it says
 * nothing. A question that failed or went unanswered is not remembered: the next run asks again
 * (a busy server must not shrink the window for ten minutes).
 * @param {string} key endpoint and model
 * @param {(signal: AbortSignal) => Promise<{ contextWindow?: number, maxOutput?: number } | null>} probe
 * @param {() => number} [now]
 */
export function probeOnce(key, probe, now = Date.now) {
  const hit = probed.get(key);
  if (hit && now() - hit.at < TTL_MS) return hit.value;
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), PROBE_MS);
  const value = probe(ctl.signal)
    .catch(() => { probed.delete(key); return null; })
    .finally(() => clearTimeout(timer));
  probed.set(key, { at: now(), value });
  return value;
}

/** Tests start from nothing. */
export function forgetProbes() {
  probed.clear();
}

/** A positive whole number from an API field, or undefined. @param {unknown} v */
export function count(v) {
  const n = typeof v === 'string' ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : undefined;
}
