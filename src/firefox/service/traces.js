// Traces of runs, the browser glue: service/runs.js asks for a trace when a run starts
// (unless Settings → Traces says not to record), the trace recorder (agent/traces/recorder.js)
// watches the run's providers and events, and the finished trace is saved with the run's history
// record id, within the retention the user set.
/** @import { RunOptions } from '../agent/loop.js' */
/** @import { Mode, Provider, RunOutcome } from '../types/core' */
/** @import { SecretVault } from '../types/safety' */
/** @import { TraceSettings } from '../types/traces' */
import { createTraceRecorder } from '../agent/traces/recorder.js';
import { TRACE_DEFAULTS } from './trace-store.js';

/** A trace that cannot be saved in this long is given up: the run's end never waits longer. */
const SAVE_WAIT_MS = 4_000;

/**
 * @param {object} deps
 * @param {import('./trace-store.js').TraceStore} deps.store
 * @param {{ get(): Promise<import('../types/messages').Settings> }} deps.settings
 * @param {(tabId: number) => Promise<{ url: string, title: string } | null>} deps.getTab
 * @param {(dataUrl: string) => Promise<string | null>} [deps.thumbnail]
 */
export function createTraces({ store, settings, getTab, thumbnail }) {
  /**
   * A run's trace, or null when traces are off.
   * @param {{ id: string, tabId: number, kind: 'agent' | 'replay', mode: Mode, task: string, tab: { url?: string, title?: string } | null, secrets?: SecretVault, workflowId?: string }} run
   */
  async function begin(run) {
    const conf = await settings.get();
    const keep = traceSettings(conf);
    if (!keep.record) return null;
    const pricing = conf.provider.pricing;
    const recorder = createTraceRecorder({
      id: run.id, tabId: run.tabId, kind: run.kind, mode: run.mode, task: run.task, url: run.tab?.url ?? '', title: run.tab?.title ?? '',
      workflowId: run.workflowId, getTab, secrets: run.secrets, thumbnail, origin: originOf(conf.provider.baseUrl),
      price: (/** @type {Provider} */ p) => p.capabilities?.().price ?? (p.model === conf.provider.model ? pricing : undefined),
    });
    return {
      recorder,
      /**
       * The run's providers recorded and its events read, in place.
       * @param {RunOptions & { onReplayStep?: typeof recorder.noteReplay }} options
       */
      wrap(options) {
        options.provider = recorder.wrapProvider(options.provider, true);
        if (options.executorProvider) options.executorProvider = recorder.wrapProvider(options.executorProvider);
        if (options.plannerProvider) options.plannerProvider = recorder.wrapProvider(options.plannerProvider);
        if (options.visionProvider) options.visionProvider = recorder.wrapProvider(options.visionProvider);
        const emit = options.emit;
        options.emit = (e) => { try { recorder.onEvent(e); } catch { /* a trace never breaks a run */ } emit(e); };
        options.onReplayStep = recorder.noteReplay;
      },
      /** Saves the trace; never throws, never waits long. @param {RunOutcome} outcome */
      async finish(outcome) {
        const save = recorder.finish(outcome).then((t) => store.save(t, keep));
        await Promise.race([save.catch((err) => console.warn('Tabwright: the trace was not saved', err)), new Promise((r) => setTimeout(r, SAVE_WAIT_MS))]);
      },
    };
  }

  return { begin, store };
}
/** @typedef {ReturnType<typeof createTraces>} Traces */
/** @typedef {NonNullable<Awaited<ReturnType<Traces['begin']>>>} TraceHandle */

/** The user's trace settings over the defaults. @param {import('../types/messages').Settings} conf @returns {TraceSettings} */
export function traceSettings(conf) {
  return { ...TRACE_DEFAULTS, ...(conf.traces ?? {}) };
}

/** @param {string} url */
function originOf(url) {
  try { return new URL(url).origin; } catch { return ''; }
}
