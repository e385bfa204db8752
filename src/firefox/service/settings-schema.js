// The one schema of Tabwright's settings: every field with its type, range, allowed values or
// shape. Saving (settings.set) and importing (a settings file) both go through validateSettings:
// nothing invalid is stored, and each bad field is named with what it should be.
/** @import { Settings } from '../types/messages' */
import { PROVIDER_KINDS } from '../providers/presets.js';

/** An import file larger than this is refused before it is read (an export is a few kilobytes). */
export const MAX_IMPORT_BYTES = 1_000_000;

/**
 * @typedef {{ path: string, message: string }} FieldError
 * @typedef {{ errors: FieldError[], dropped: string[] }} Report what a validation found: bad fields, and fields it does not know (left out)
 * @typedef {(value: unknown, path: string, r: Report) => unknown} Check
 *   returns the value to keep (a site pattern normalised); reports the field when it is bad
 * @typedef {{ check: Check, optional?: boolean }} Field
 */

/** @param {Check} check @returns {Field} */
const required = (check) => ({ check });
/** @param {Check} check @returns {Field} */
const optional = (check) => ({ check, optional: true });

/** @param {unknown} v */
const describe = (v) => (v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'string' ? `"${v.length > 40 ? `${v.slice(0, 40)}…` : v}"` : typeof v === 'object' ? 'an object' : String(v));

/** @param {{ max: number, min?: number }} o @returns {Check} */
const text = ({ max, min = 0 }) => (v, path, r) => {
  if (typeof v !== 'string') { r.errors.push({ path, message: `must be text, not ${describe(v)}` }); return v; }
  if (v.length < min || v.length > max) r.errors.push({ path, message: min ? `must be ${min} to ${max} characters long` : `must be at most ${max} characters long` });
  return v;
};

/** @param {{ min: number, max: number, whole?: boolean, unit?: string }} o @returns {Check} */
const number = ({ min, max, whole = false, unit = '' }) => (v, path, r) => {
  if (typeof v !== 'number' || !Number.isFinite(v) || (whole && !Number.isInteger(v)) || v < min || v > max) {
    r.errors.push({ path, message: `must be a ${whole ? 'whole number' : 'number'} from ${min} to ${max}${unit}, not ${describe(v)}` });
  }
  return v;
};

/** @param {readonly string[]} values @returns {Check} */
const oneOf = (values) => (v, path, r) => {
  if (typeof v !== 'string' || !values.includes(v)) r.errors.push({ path, message: `must be one of ${values.join(', ')}, not ${describe(v)}` });
  return v;
};

/** @type {Check} */
const boolean = (v, path, r) => {
  if (typeof v !== 'boolean') r.errors.push({ path, message: `must be true or false, not ${describe(v)}` });
  return v;
};

/** An http(s) address, or empty where the kind has its own (the built-in model has none). @type {Check} */
const endpoint = (v, path, r) => {
  if (typeof v !== 'string') { r.errors.push({ path, message: `must be an http(s) address, not ${describe(v)}` }); return v; }
  if (v === '') return v;
  let ok = false;
  try { const u = new URL(v); ok = (u.protocol === 'http:' || u.protocol === 'https:') && !u.username && !u.password; } catch { ok = false; }
  if (!ok || v.length > 2_000) r.errors.push({ path, message: `must be an http(s) address such as https://api.example.com/v1 (no user name or password in it), not ${describe(v)}` });
  return v;
};

/**
 * A site pattern of the allow and confirm lists: a host, "*." before it for its subdomains. An
 * address pasted whole (https://example.com/account) is taken as its host.
 * @type {Check}
 */
const sitePattern = (v, path, r) => {
  let site = typeof v === 'string' ? v.trim().toLowerCase() : '';
  if (/^https?:\/\//.test(site)) { try { site = new URL(site).host; } catch { site = ''; } }
  if (!/^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/.test(site) || site.length > 253) {
    r.errors.push({ path, message: `must be a site such as example.com or *.example.com, not ${describe(v)}` });
    return v;
  }
  return site;
};

/** @param {Check} item @param {number} max @returns {Check} */
const list = (item, max) => (v, path, r) => {
  if (!Array.isArray(v)) { r.errors.push({ path, message: `must be a list, not ${describe(v)}` }); return v; }
  if (v.length > max) r.errors.push({ path, message: `must hold at most ${max} entries, not ${v.length}` });
  return v.map((x, i) => item(x, `${path}[${i}]`, r));
};

/**
 * An object with these fields. Fields it does not know are left out and listed in `dropped`.
 * @param {Record<string, Field>} fields @returns {Check & { fields: Record<string, Field> }}
 */
function shape(fields) {
  /** @type {Check} */
  const check = (v, path, r) => {
    if (!v || typeof v !== 'object' || Array.isArray(v)) { r.errors.push({ path, message: `must be an object with ${Object.keys(fields).join(', ')}, not ${describe(v)}` }); return v; }
    const src = /** @type {Record<string, unknown>} */ (v);
    /** @type {Record<string, unknown>} */
    const out = {};
    for (const [key, field] of Object.entries(fields)) {
      const at = path ? `${path}.${key}` : key;
      if (src[key] === undefined) {
        if (!field.optional) r.errors.push({ path: at, message: 'is missing' });
        continue;
      }
      out[key] = field.check(src[key], at, r);
    }
    for (const key of Object.keys(src)) if (!Object.hasOwn(fields, key)) r.dropped.push(path ? `${path}.${key}` : key);
    return out;
  };
  return Object.assign(check, { fields });
}

const PROVIDER = shape({
  kind: required(oneOf(Object.keys(PROVIDER_KINDS))),
  baseUrl: required(endpoint),
  model: required(text({ max: 300 })),
  apiKey: required(text({ max: 10_000 })),
  timeoutMs: optional(number({ min: 1_000, max: 600_000, whole: true, unit: ' milliseconds' })),
  maxRetries: optional(number({ min: 0, max: 10, whole: true })),
  toolMode: optional(oneOf(['native', 'prompt'])),
  // The model's limits when the user knows better than the provider (providers/limits.js), and the tools it is offered (agent/tool-tiers.js).
  contextWindow: optional(number({ min: 1_024, max: 10_000_000, whole: true, unit: ' tokens' })),
  maxOutput: optional(number({ min: 64, max: 1_000_000, whole: true, unit: ' tokens' })),
  toolTier: optional(oneOf(['auto', 'full', 'compact'])),
  api: optional(oneOf(['chat', 'responses'])),
  id: optional(text({ max: 100 })),
  name: optional(text({ max: 100 })),
  pricing: optional(shape({
    input: required(number({ min: 0, max: 10_000, unit: ' USD per million tokens' })),
    output: required(number({ min: 0, max: 10_000, unit: ' USD per million tokens' })),
  })),
});

/** A budget: tokens (input and output together) or US dollars (service/spend.js). */
const CAP = shape({
  unit: required(oneOf(['tokens', 'usd'])),
  amount: required(number({ min: 0, max: 1_000_000_000_000 })),
});

const ROLE = shape({ providerId: required(text({ max: 100 })), model: required(text({ max: 300 })) });

/** Every setting, as stored. */
export const SETTINGS_SCHEMA = shape({
  provider: required(PROVIDER),
  defaultMode: required(oneOf(['ask', 'act', 'plan'])),
  maxSteps: required(number({ min: 1, max: 1_000, whole: true })),
  providers: optional(list(PROVIDER, 50)),
  roles: optional(shape({ planner: optional(ROLE), executor: optional(ROLE), vision: optional(ROLE) })),
  screenshotPolicy: optional(oneOf(['auto', 'always', 'never'])),
  sites: optional(shape({ allow: required(list(sitePattern, 500)), confirm: required(list(sitePattern, 500)) })),
  strictSecrets: optional(boolean),
  // How long the hold stays past the last acting step once the agent said done (agent/safety/guard.js,
  // 5 s by default): a site whose autosave waits longer needs more. At least 1 s, so it is never off.
  settleMs: optional(number({ min: 1_000, max: 60_000, whole: true, unit: ' milliseconds' })),
  closeJobTabs: optional(boolean),
  // How many runs go at once: due jobs and MCP clients' runs beyond it wait (service/run-slots.js).
  maxRunsAtOnce: optional(number({ min: 1, max: 20, whole: true })),
  onboarded: optional(boolean),
  mcp: optional(shape({ enabled: required(boolean), port: required(number({ min: 1_024, max: 65_530, whole: true })) })),
  webmcp: optional(boolean),
  // Settings → Developer tools: execute_js, network_requests, inspect_styles, inject_css in Act mode.
  devTools: optional(boolean),
  // The tab recorder's caps (Chrome): it stops by itself at either.
  recorder: optional(shape({
    maxSeconds: required(number({ min: 5, max: 7_200, whole: true, unit: ' seconds' })),
    maxMB: required(number({ min: 1, max: 4_000, whole: true, unit: ' MB' })),
    audio: required(boolean),
  })),
  // Scheduled jobs: all held at once; each due run waits for the person's Run now.
  jobs: optional(shape({ pauseAll: optional(boolean), askBeforeRun: optional(boolean) })),
  // Budgets: a run pauses before a model call that would pass its own or the day's (local time).
  budget: optional(shape({ run: optional(CAP), day: optional(CAP) })),
  // Traces: record them, keep this many, none older than this.
  traces: optional(shape({
    record: required(boolean),
    keepRuns: required(number({ min: 1, max: 1_000, whole: true })),
    keepDays: required(number({ min: 1, max: 365, whole: true, unit: ' days' })),
  })),
});

/**
 * Validates whole settings (a save merges its patch into what is stored first).
 * @param {unknown} value
 * @returns {{ ok: true, settings: Settings, dropped: string[] } | { ok: false, errors: FieldError[], dropped: string[] }}
 */
export function validateSettings(value) {
  /** @type {Report} */
  const r = { errors: [], dropped: [] };
  const settings = SETTINGS_SCHEMA(value, '', r);
  return r.errors.length ? { ok: false, errors: r.errors, dropped: r.dropped } : { ok: true, settings: /** @type {Settings} */ (settings), dropped: r.dropped };
}

/**
 * The sentence for a refused save or import: each bad field with what it should be.
 * @param {FieldError[]} errors @param {string} what "were not saved" / "were not imported"
 */
export function settingsErrorMessage(errors, what) {
  const shown = errors.slice(0, 8).map((e) => `${e.path} ${e.message}`);
  const more = errors.length > shown.length ? ` (and ${errors.length - shown.length} more)` : '';
  return `The settings ${what}, and nothing was changed: ${shown.join('; ')}${more}.`;
}
