// The model a run may use, from the environment: only a step that needs one calls it (a task, or a
// workflow step repaired). Keys come from the environment, never from the command line (which other
// users of the machine can read in the process list).

/**
 * TABWRIGHT_PROVIDER (a kind of providers/presets.js: openai, anthropic, gemini, ollama, …),
 * TABWRIGHT_BASE_URL, TABWRIGHT_MODEL, TABWRIGHT_API_KEY. Null when TABWRIGHT_PROVIDER is unset.
 * @param {Record<string, string | undefined>} env @returns {Record<string, string> | null}
 */
export function providerFromEnv(env) {
  const kind = env.TABWRIGHT_PROVIDER?.trim();
  if (!kind) return null;
  /** @type {Record<string, string>} */
  const p = { kind };
  if (env.TABWRIGHT_BASE_URL) p.baseUrl = env.TABWRIGHT_BASE_URL;
  if (env.TABWRIGHT_MODEL) p.model = env.TABWRIGHT_MODEL;
  if (env.TABWRIGHT_API_KEY) p.apiKey = env.TABWRIGHT_API_KEY;
  return p;
}

/**
 * The settings a runner's browser starts with: the provider (if any), the sites where a write
 * goes without asking, and the settle period when given (how long the hold stays past a run's last
 * acting step: Settings' settleMs, 1–60 s). Everything else stays at the defaults a person's browser has.
 * @param {{ provider: Record<string, string> | null, allowSites: string[], settleMs?: number }} o
 */
export function runnerSettings(o) {
  return {
    ...(o.provider ? { provider: o.provider } : {}),
    ...(o.settleMs ? { settleMs: o.settleMs } : {}),
    sites: { allow: o.allowSites, confirm: [] },
  };
}
