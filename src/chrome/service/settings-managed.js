import { fail } from '../agent/error-codes.js';
// What an administrator set (storage.managed: Chrome's policy for the extension, Firefox's
// policies.json "3rdparty" section) laid over the person's own settings. A managed value wins and is
// locked: the settings page shows it as set by the organization, and a save that tries to change it is
// refused. The keys an administrator may set are in the Chrome tree's managed-schema.json and
// docs/STORE.md; anything else in the area is ignored.
/** @import { Settings, ProviderSettings, ManagedState } from '../types/messages' */

/** Features an administrator may switch off. */
export const MANAGED_FEATURES = Object.freeze(['scheduler', 'devTools', 'mcp', 'recorder', 'webmcp']);

/**
 * @typedef {object} ManagedPolicy what the managed area holds, after checking (a bad value is left out)
 * @property {string[]} [allowedProviderKinds]
 * @property {string[]} [allowedBaseUrls] address prefixes a provider's base URL must start with
 * @property {boolean} [askOnly]
 * @property {'ask' | 'act' | 'plan'} [defaultMode]
 * @property {string[]} [disabledFeatures]
 * @property {string[]} [blockedSites]
 * @property {string[]} [confirmSites]
 * @property {boolean} [strictSecrets]
 * @property {{ record?: boolean, keepRuns?: number, keepDays?: number }} [traceRetention]
 * @property {boolean} [pauseAllJobs]
 * @property {boolean} [askBeforeScheduledRuns]
 */

/** @param {unknown} v @returns {v is string[]} */
const strings = (v) => Array.isArray(v) && v.every((x) => typeof x === 'string');
/** @param {unknown} v @param {number} min @param {number} max */
const whole = (v, min, max) => (typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? v : undefined);

/**
 * The managed area's content as a policy. Values of the wrong type are dropped rather than trusted:
 * an administrator's typo must not lock a setting to garbage.
 * @param {Record<string, unknown> | null | undefined} raw @returns {ManagedPolicy}
 */
export function readPolicy(raw) {
  /** @type {ManagedPolicy} */
  const p = {};
  if (!raw || typeof raw !== 'object') return p;
  for (const key of /** @type {const} */ (['allowedProviderKinds', 'allowedBaseUrls', 'blockedSites', 'confirmSites'])) {
    if (strings(raw[key])) p[key] = raw[key].map((s) => s.trim()).filter(Boolean);
  }
  if (strings(raw.disabledFeatures)) p.disabledFeatures = raw.disabledFeatures.filter((f) => MANAGED_FEATURES.includes(f));
  for (const key of /** @type {const} */ (['askOnly', 'strictSecrets', 'pauseAllJobs', 'askBeforeScheduledRuns'])) {
    if (typeof raw[key] === 'boolean') p[key] = raw[key];
  }
  if (raw.defaultMode === 'ask' || raw.defaultMode === 'act' || raw.defaultMode === 'plan') p.defaultMode = raw.defaultMode;
  const tr = /** @type {Record<string, unknown> | undefined} */ (raw.traceRetention);
  if (tr && typeof tr === 'object') {
    /** @type {NonNullable<ManagedPolicy['traceRetention']>} */
    const t = {};
    if (typeof tr.record === 'boolean') t.record = tr.record;
    const runs = whole(tr.keepRuns, 1, 1_000);
    const days = whole(tr.keepDays, 1, 365);
    if (runs !== undefined) t.keepRuns = runs;
    if (days !== undefined) t.keepDays = days;
    if (Object.keys(t).length) p.traceRetention = t;
  }
  return p;
}

/** Whether the policy sets anything at all. @param {ManagedPolicy} p */
export const hasPolicy = (p) => Object.keys(p).length > 0;

/**
 * The person's settings with the policy laid over them, and what it locked.
 * @param {Settings} personal @param {ManagedPolicy} p @returns {Settings}
 */
export function applyPolicy(personal, p) {
  if (!hasPolicy(p)) return personal;
  /** @type {string[]} */
  const locked = [];
  const off = new Set(p.disabledFeatures ?? []);
  const s = /** @type {Settings} */ ({ ...personal });
  if (p.askOnly) { s.defaultMode = 'ask'; locked.push('defaultMode'); } else if (p.defaultMode) { s.defaultMode = p.defaultMode; locked.push('defaultMode'); }
  if (off.has('devTools')) { s.devTools = false; locked.push('devTools'); }
  if (off.has('webmcp')) { s.webmcp = false; locked.push('webmcp'); }
  if (off.has('mcp')) { s.mcp = { enabled: false, port: personal.mcp?.port ?? 8765 }; locked.push('mcp'); }
  if (off.has('recorder')) locked.push('recorder');
  if (off.has('scheduler')) locked.push('scheduler');
  if (p.strictSecrets !== undefined) { s.strictSecrets = p.strictSecrets; locked.push('strictSecrets'); }
  if (p.traceRetention) {
    s.traces = { record: true, keepRuns: 100, keepDays: 30, ...personal.traces, ...p.traceRetention };
    locked.push('traces');
  }
  const jobs = { ...personal.jobs };
  if (p.pauseAllJobs !== undefined) { jobs.pauseAll = p.pauseAllJobs; locked.push('jobs.pauseAll'); }
  if (p.askBeforeScheduledRuns !== undefined) { jobs.askBeforeRun = p.askBeforeScheduledRuns; locked.push('jobs.askBeforeRun'); }
  if (Object.keys(jobs).length) s.jobs = jobs;
  const confirmSites = p.confirmSites ?? [];
  if (confirmSites.length) {
    const mine = personal.sites ?? { allow: [], confirm: [] };
    s.sites = { allow: mine.allow, confirm: [...new Set([...mine.confirm, ...confirmSites.map((x) => x.toLowerCase())])] };
  }
  /** @type {ManagedState} */
  const managed = {
    locked,
    askOnly: p.askOnly === true,
    off: [...off],
    blockSites: (p.blockedSites ?? []).map((x) => x.toLowerCase()),
    confirmSites: confirmSites.map((x) => x.toLowerCase()),
    ...(p.allowedProviderKinds ? { providerKinds: p.allowedProviderKinds } : {}),
    ...(p.allowedBaseUrls ? { baseUrls: p.allowedBaseUrls } : {}),
  };
  s.managed = managed;
  return s;
}

/** A setting path is locked when it, or a path above it, is. @param {Settings} s @param {string} path */
export function isLocked(s, path) {
  return (s.managed?.locked ?? []).some((l) => l === path || path.startsWith(`${l}.`) || l.startsWith(`${path}.`));
}

/**
 * Why a provider may not be used under the policy, or null when it may.
 * @param {Pick<ProviderSettings, 'kind' | 'baseUrl'> & { name?: string }} provider @param {ManagedState | undefined} m
 * @returns {string | null}
 */
export function providerRefusal(provider, m) {
  if (!m) return null;
  const label = provider.name || provider.baseUrl || provider.kind;
  if (m.providerKinds && !m.providerKinds.includes(provider.kind)) {
    return `Your organization allows only these kinds of model provider: ${m.providerKinds.join(', ')}; ${label} is ${provider.kind}.`;
  }
  if (m.baseUrls && provider.baseUrl && !m.baseUrls.some((prefix) => urlUnder(provider.baseUrl, prefix))) {
    return `Your organization allows model providers only at ${m.baseUrls.join(', ')}; ${provider.baseUrl} is not one of them.`;
  }
  return null;
}

/**
 * Same scheme, host and port, and the path starts with the prefix's (at a "/" boundary): a prefix
 * https://llm.corp.example/v1 does not admit https://llm.corp.example.evil.test/v1.
 * @param {string} url @param {string} prefix
 */
function urlUnder(url, prefix) {
  try {
    const u = new URL(url);
    const p = new URL(prefix);
    if (u.origin !== p.origin) return false;
    const base = p.pathname.replace(/\/+$/, '');
    return base === '' || u.pathname === base || u.pathname.startsWith(`${base}/`);
  } catch { return false; }
}

/**
 * The providers a run would use (the active one and each role's), each checked; throws the first
 * refusal so the run ends "could not start" with the organization's reason.
 * @param {Settings} s
 */
export function assertProvidersAllowed(s) {
  const used = [s.provider, ...Object.values(s.roles ?? {}).map((r) => (s.providers ?? []).find((p) => p.id === r?.providerId)).filter((p) => p !== undefined)];
  for (const p of used) {
    const why = providerRefusal(p, s.managed);
    if (why) throw new Error(why);
  }
}

/**
 * Under Ask only, a run that would act does not start: the person sees why rather than an Act run
 * whose every step is refused.
 * @param {Settings} s @param {string} mode
 */
export function assertModeAllowed(s, mode) {
  if (s.managed?.askOnly && mode !== 'ask') throw new Error('Your organization allows Ask mode only: switch the panel to Ask to read and answer about this page.');
}

/**
 * A save's patch against the policy: locked fields that keep their value are dropped (the settings page
 * sends every field), one that would change is refused, and so is an active provider the policy does
 * not allow.
 * @param {Partial<Settings>} patch @param {Settings} effective
 * @returns {{ ok: true, patch: Partial<Settings> } | { ok: false, code: 'SET_BY_ORGANIZATION' | 'PROVIDER_NOT_ALLOWED', message: string }}
 */
export function checkPatch(patch, effective) {
  const m = effective.managed;
  const { managed: _ignored, ...rest } = /** @type {Partial<Settings>} */ (patch);
  if (!m) return { ok: true, patch: rest };
  /** @type {Record<string, unknown>} */
  const out = { ...rest };
  /** @type {string[]} */
  const changed = [];
  const eff = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (effective));
  for (const key of Object.keys(out)) {
    if (key === 'jobs') continue;
    if (!m.locked.includes(key)) continue;
    if (key !== 'recorder' && key !== 'scheduler' && JSON.stringify(out[key]) !== JSON.stringify(eff[key])) changed.push(key);
    delete out[key];
  }
  if (out.jobs && typeof out.jobs === 'object') {
    const jobs = /** @type {Record<string, unknown>} */ ({ ...out.jobs });
    for (const k of Object.keys(jobs)) {
      if (!m.locked.includes(`jobs.${k}`)) continue;
      if (jobs[k] !== /** @type {Record<string, unknown>} */ (effective.jobs ?? {})[k]) changed.push(`jobs.${k}`);
      delete jobs[k];
    }
    out.jobs = jobs;
  }
  if (out.sites && m.confirmSites.length) {
    // The organization's sites are added on every read; they are not stored as the person's own.
    const sites = /** @type {NonNullable<Settings['sites']>} */ (out.sites);
    out.sites = { allow: sites.allow, confirm: sites.confirm.filter((x) => !m.confirmSites.includes(x.toLowerCase())) };
  }
  if (changed.length) {
    return fail('SET_BY_ORGANIZATION', `${changed.join(', ')}; nothing was saved`);
  }
  const provider = /** @type {ProviderSettings | undefined} */ (out.provider);
  const why = provider ? providerRefusal(provider, m) : null;
  if (why) return fail('PROVIDER_NOT_ALLOWED', `${why} Nothing was saved`);
  return { ok: true, patch: /** @type {Partial<Settings>} */ (out) };
}

/**
 * What the scheduler reads before it starts a due job: every job held (the person's pause-all, or the
 * scheduler switched off by the organization), or each run waiting for the person's Run now.
 * @param {Settings} s @returns {{ paused: boolean, askFirst: boolean, off: boolean }}
 */
export function jobControls(s) {
  const off = s.managed?.off.includes('scheduler') === true;
  return { paused: off || s.jobs?.pauseAll === true, askFirst: s.jobs?.askBeforeRun === true, off };
}
