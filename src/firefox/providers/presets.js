// Every provider kind the settings page offers, with the defaults a user would otherwise look up:
// the wire format it speaks, base URL, a sensible model, whether it needs a key, whether it runs
// locally. OpenAI-compatible services are presets over providers/openai.js.
/** @import { ProviderKind } from '../types/messages' */

/**
 * @typedef {object} KindInfo
 * @property {string} label
 * @property {'openai' | 'anthropic' | 'gemini' | 'ollama' | 'builtin'} format
 * @property {string} baseUrl
 * @property {string} model
 * @property {boolean} needsKey
 * @property {boolean} [local] runs on the user's machine (no key, Origin header rewritten)
 * @property {'bearer' | 'api-key'} [auth]
 * @property {string} [query]
 * @property {boolean} [streamUsage]
 * @property {Record<string, string>} [extraHeaders]
 * @property {string[]} [models] the service has no model list endpoint: these are offered instead
 * @property {boolean} [noTools] the service's models take no native tools: the prompt protocol is the default
 */

/** @type {Record<ProviderKind, KindInfo>} */
export const PROVIDER_KINDS = {
  openai: { label: 'OpenAI', format: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4.1-mini', needsKey: true },
  anthropic: { label: 'Anthropic (Claude)', format: 'anthropic', baseUrl: 'https://api.anthropic.com/v1', model: 'claude-sonnet-4-5', needsKey: true },
  gemini: { label: 'Google Gemini', format: 'gemini', baseUrl: 'https://generativelanguage.googleapis.com/v1beta', model: 'gemini-2.5-flash', needsKey: true },
  ollama: { label: 'Ollama (local)', format: 'ollama', baseUrl: 'http://localhost:11434', model: 'llama3.1', needsKey: false, local: true },
  builtin: { label: "Chrome's built-in model (on-device)", format: 'builtin', baseUrl: '', model: 'gemini-nano', needsKey: false },
  openrouter: { label: 'OpenRouter', format: 'openai', baseUrl: 'https://openrouter.ai/api/v1', model: 'openai/gpt-4.1-mini', needsKey: true, extraHeaders: { 'HTTP-Referer': 'https://tabwright.dev', 'X-Title': 'Tabwright' } },
  groq: { label: 'Groq', format: 'openai', baseUrl: 'https://api.groq.com/openai/v1', model: 'llama-3.3-70b-versatile', needsKey: true },
  // Mistral rejects unknown body fields (422), stream_options among them; it sends usage anyway.
  mistral: { label: 'Mistral', format: 'openai', baseUrl: 'https://api.mistral.ai/v1', model: 'mistral-large-latest', needsKey: true, streamUsage: false },
  deepseek: { label: 'DeepSeek', format: 'openai', baseUrl: 'https://api.deepseek.com/v1', model: 'deepseek-chat', needsKey: true },
  xai: { label: 'xAI (Grok)', format: 'openai', baseUrl: 'https://api.x.ai/v1', model: 'grok-4', needsKey: true },
  together: { label: 'Together AI', format: 'openai', baseUrl: 'https://api.together.xyz/v1', model: 'meta-llama/Llama-3.3-70B-Instruct-Turbo', needsKey: true },
  fireworks: { label: 'Fireworks AI', format: 'openai', baseUrl: 'https://api.fireworks.ai/inference/v1', model: 'accounts/fireworks/models/llama-v3p3-70b-instruct', needsKey: true },
  // https://learn.microsoft.com/azure/ai-services/openai/reference : the deployment is in the URL,
  // the key in an `api-key` header, and every call carries api-version.
  azure: { label: 'Azure OpenAI', format: 'openai', baseUrl: 'https://YOUR-RESOURCE.openai.azure.com/openai/deployments/YOUR-DEPLOYMENT', model: 'YOUR-DEPLOYMENT', needsKey: true, auth: 'api-key', query: 'api-version=2024-10-21' },
  lmstudio: { label: 'LM Studio (local)', format: 'openai', baseUrl: 'http://localhost:1234/v1', model: 'local-model', needsKey: false, local: true },
  llamacpp: { label: 'llama.cpp server (local)', format: 'openai', baseUrl: 'http://localhost:8080/v1', model: 'local-model', needsKey: false, local: true },
  vllm: { label: 'vLLM (local)', format: 'openai', baseUrl: 'http://localhost:8000/v1', model: 'local-model', needsKey: false, local: true },
  jan: { label: 'Jan (local)', format: 'openai', baseUrl: 'http://localhost:1337/v1', model: 'local-model', needsKey: false, local: true },
  localai: { label: 'LocalAI (local)', format: 'openai', baseUrl: 'http://localhost:8080/v1', model: 'local-model', needsKey: false, local: true },
  sglang: { label: 'SGLang (local)', format: 'openai', baseUrl: 'http://localhost:30000/v1', model: 'default', needsKey: false, local: true },
  cerebras: { label: 'Cerebras', format: 'openai', baseUrl: 'https://api.cerebras.ai/v1', model: 'llama-3.3-70b', needsKey: true },
  // https://docs.perplexity.ai: chat completions at the root (no /v1), no model list, Sonar models search the web and take no tools.
  perplexity: { label: 'Perplexity', format: 'openai', baseUrl: 'https://api.perplexity.ai', model: 'sonar', needsKey: true, models: ['sonar', 'sonar-pro', 'sonar-reasoning', 'sonar-reasoning-pro', 'sonar-deep-research'], noTools: true },
  moonshot: { label: 'Moonshot AI (Kimi)', format: 'openai', baseUrl: 'https://api.moonshot.ai/v1', model: 'kimi-k2-0905-preview', needsKey: true },
  // Alibaba Cloud Model Studio's OpenAI-compatible mode (international endpoint).
  qwen: { label: 'Qwen (DashScope)', format: 'openai', baseUrl: 'https://dashscope-intl.aliyuncs.com/compatible-mode/v1', model: 'qwen-plus', needsKey: true },
  nvidia: { label: 'NVIDIA NIM', format: 'openai', baseUrl: 'https://integrate.api.nvidia.com/v1', model: 'meta/llama-3.3-70b-instruct', needsKey: true },
  huggingface: { label: 'Hugging Face (router)', format: 'openai', baseUrl: 'https://router.huggingface.co/v1', model: 'meta-llama/Llama-3.3-70B-Instruct', needsKey: true },
  // Workers AI's OpenAI-compatible endpoint lives under the account; it has no model list.
  cloudflare: { label: 'Cloudflare Workers AI', format: 'openai', baseUrl: 'https://api.cloudflare.com/client/v4/accounts/YOUR-ACCOUNT-ID/ai/v1', model: '@cf/meta/llama-3.3-70b-instruct-fp8-fast', needsKey: true, models: ['@cf/meta/llama-3.3-70b-instruct-fp8-fast', '@cf/meta/llama-3.1-8b-instruct', '@cf/mistralai/mistral-small-3.1-24b-instruct', '@cf/qwen/qwen2.5-coder-32b-instruct'] },
  minimax: { label: 'MiniMax', format: 'openai', baseUrl: 'https://api.minimax.io/v1', model: 'MiniMax-M2', needsKey: true },
};

/** @param {string} kind @returns {KindInfo | undefined} */
export function kindInfo(kind) {
  return Object.hasOwn(PROVIDER_KINDS, kind) ? PROVIDER_KINDS[/** @type {ProviderKind} */ (kind)] : undefined;
}

/**
 * The origin whose requests get their extension Origin header removed: only a configured endpoint
 * on this machine or the local network, where servers like Ollama refuse extension origins by
 * default (https://github.com/ollama/ollama/blob/main/docs/faq.md#how-can-i-allow-additional-web-origins-to-access-ollama).
 * @param {{ baseUrl: string }} settings
 * @returns {string[]}
 */
export function localOrigins(settings) {
  let url;
  try { url = new URL(settings.baseUrl); } catch { return []; }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return [];
  const h = url.hostname.replace(/^\[|\]$/g, '');
  const local = h === 'localhost' || h.endsWith('.localhost') || h.endsWith('.local') || h === '::1' || h === '0.0.0.0'
    || /^127\./.test(h) || /^10\./.test(h) || /^192\.168\./.test(h) || /^172\.(1[6-9]|2\d|3[01])\./.test(h) || /^f[cd][0-9a-f]{2}:/i.test(h);
  return local ? [url.origin] : [];
}
