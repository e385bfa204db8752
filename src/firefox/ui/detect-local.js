// First run: which local models can Tabwright use without sending anything off this machine?
// Probes only localhost (Ollama, LM Studio) and the browser's own built-in model; nothing else.

/**
 * @typedef {{ id: 'ollama' | 'lmstudio', found: boolean, baseUrl: string, models: string[], note?: string }} LocalServer
 * @typedef {{ id: 'builtin', found: boolean, status: string }} BuiltinModel
 * @typedef {LocalServer | BuiltinModel} Candidate
 */

export const LOCAL_SERVERS = /** @type {const} */ ([
  { id: 'ollama', probe: 'http://localhost:11434/api/tags', baseUrl: 'http://localhost:11434/v1' },
  { id: 'lmstudio', probe: 'http://localhost:1234/v1/models', baseUrl: 'http://localhost:1234/v1' },
]);

/**
 * @param {{ fetch: typeof globalThis.fetch, builtin?: any, timeoutMs?: number }} deps
 *   builtin: the browser's Prompt API object (Chrome's global LanguageModel), if any
 * @returns {Promise<Candidate[]>}
 */
export async function detectLocalModels({ fetch, builtin, timeoutMs = 1500 }) {
  const servers = await Promise.all(LOCAL_SERVERS.map(async (s) => {
    /** @type {LocalServer} */
    const out = { id: s.id, found: false, baseUrl: s.baseUrl, models: [] };
    try {
      const res = await fetch(s.probe, { signal: AbortSignal.timeout(timeoutMs), credentials: 'omit' });
      out.found = true;
      if (res.ok) {
        const body = await res.json();
        // Ollama lists { models: [{ name }] }; LM Studio speaks OpenAI's { data: [{ id }] }.
        const list = Array.isArray(body?.models) ? body.models.map((/** @type {any} */ m) => m?.name) : Array.isArray(body?.data) ? body.data.map((/** @type {any} */ m) => m?.id) : [];
        out.models = list.filter((/** @type {unknown} */ m) => typeof m === 'string');
      } else if (res.status === 403) {
        // Ollama answers 403 to origins it does not allow: it runs, but needs OLLAMA_ORIGINS.
        out.note = 'origin';
      }
    } catch { /* nothing listening */ }
    return out;
  }));
  /** @type {BuiltinModel} */
  let local = { id: 'builtin', found: false, status: 'unavailable' };
  try {
    if (builtin && typeof builtin.availability === 'function') {
      const status = String(await builtin.availability());
      // 'downloadable' would start a download: only a model already on this machine counts.
      local = { id: 'builtin', found: status === 'available', status };
    }
  } catch { /* the API exists but refuses: treat as absent */ }
  return [...servers, local];
}
