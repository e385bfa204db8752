// The scheduler's browser glue: one browser.alarms alarm wakes the core (agent/scheduler/), jobs live
// in storage.local, a job's prompt runs in its tab through the router's beginRun, and finished runs
// raise a notification. browser.alarms is the same API in Chrome and Firefox, so this is shared code.
/** @import { BrowserOps, Mode, RunOutcome } from '../types/core' */
/** @import { Job, JobRun, JobRunResult, JobTarget, JobsAccess, JobsRequest } from '../types/jobs' */
/** @import { RouterReply } from '../types/messages' */
/** @import { RunHooks } from '../agent/scheduler/scheduler.js' */
import { createScheduler } from '../agent/scheduler/scheduler.js';
import { resultFromOutcome } from '../agent/scheduler/outcome.js';
import { needKey } from '../agent/handoff/need.js';

export const JOBS_ALARM = 'tabwright-jobs';
const STORAGE_KEY = 'jobs';
const LOAD_TIMEOUT_MS = 30_000;

/**
 * @typedef {(tabId: number, text: string, mode: Mode, opts?: { fresh?: boolean, origin?: import('../types/messages').RunOrigin }) =>
 *   Promise<{ ok: true, outcome: Promise<RunOutcome>, stop: () => void } | { ok: false, code: string, message: string }>} BeginRun
 */

/**
 * @param {{ beginRun: BeginRun, ops: BrowserOps, isBusy: (tabId: number) => boolean, closeTabs?: () => Promise<boolean>, beginWorkflow?: (tabId: number, job: Job) => ReturnType<BeginRun>, controls?: () => Promise<import('../agent/scheduler/scheduler.js').JobControls>, places?: import('./mcp/calls.js').RunPlaces }} deps
 *   closeTabs: whether a run closes the tab it opened for a URL when it ends (settings: closeJobTabs);
 *   beginWorkflow: replays a "workflow" job's workflow in its tab (service/workflows.js);
 *   controls: pause all, ask before every run, the scheduler switched off (settings and the organization's policy);
 *   places: the slots a due job waits for (Settings → runs at once) and the tab group its tabs go in
 */
export function startJobs({ beginRun, ops, isBusy, closeTabs = async () => true, beginWorkflow, controls, places }) {
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  /** Tabs opened for URL targets, reused by the job's next run while they stay open. @type {Map<string, number>} */
  const openedTabs = new Map();
  /** The job running in each tab, for the confirmation-gate hook. @type {Map<number, { id: string, hooks: RunHooks }>} */
  const runningInTab = new Map();

  const scheduler = createScheduler({
    clock: { now: () => Date.now() },
    store: {
      async load() {
        const { [STORAGE_KEY]: jobs } = await browser.storage.local.get(STORAGE_KEY);
        return Array.isArray(jobs) ? jobs : [];
      },
      async save(jobs) { await browser.storage.local.set({ [STORAGE_KEY]: jobs }); },
    },
    runJob,
    wake,
    notify,
    timeZone,
    controls,
  });

  // Pause all lifted, asking first turned off, a policy changed: due jobs are looked at again now.
  browser.storage.onChanged.addListener((/** @type {Record<string, unknown>} */ changes, /** @type {string} */ area) => {
    if (area === 'managed' || (area === 'local' && changes.settings)) void scheduler.tick();
  });

  // Registered synchronously at start-up: an MV3 worker woken by the alarm must have its listener in place.
  browser.alarms.onAlarm.addListener((/** @type {{ name: string }} */ alarm) => {
    if (alarm.name === JOBS_ALARM) void scheduler.tick();
  });
  // A listener here makes Chrome start the worker when the browser starts, so runs missed while it was
  // closed run then (Chrome may drop alarms across a browser restart).
  browser.runtime.onStartup.addListener(() => { void scheduler.tick(); });
  browser.notifications?.onClicked.addListener((/** @type {string} */ id) => {
    // "Your turn" (a sign-in, a challenge): the tab that waits comes forward.
    const turn = /^tabwright-turn:(\d+):/.exec(id);
    if (turn) { void focusTab(Number(turn[1])); void browser.notifications.clear(id); return; }
    if (!id.startsWith('tabwright-job:')) return;
    void browser.tabs.create({ url: browser.runtime.getURL(`ui/jobs.html#${id.split(':')[1]}`) });
    void browser.notifications.clear(id);
  });
  // Firefox's background page unloads on quit (and on reload); its runs are cut before it goes.
  // beforeunload comes first, before the page's fetches are aborted. Chrome's worker has no such event: it just stops.
  globalThis.addEventListener?.('beforeunload', () => scheduler.freeze());
  globalThis.addEventListener?.('pagehide', () => scheduler.freeze());
  // Recover runs a restart cut short and run what came due while the browser was closed.
  void scheduler.start();

  /** @param {number | null} at */
  function wake(at) {
    if (at === null) { void browser.alarms.clear(JOBS_ALARM); return; }
    // A time already passed fires as soon as the browser allows (Chrome: 30 s for packed extensions).
    void browser.alarms.create(JOBS_ALARM, { when: Math.max(at, Date.now() + 200) });
  }

  /**
   * Runs a job's prompt in its tab and waits for the run to end.
   * @param {Job} job @param {RunHooks} hooks
   * @returns {Promise<JobRunResult>}
   */
  async function runJob(job, hooks) {
    // At the limit of runs at once, a due job waits here (the runs overview lists it as queued).
    const release = places ? await places.slots.acquire({ id: job.id, kind: 'job', title: job.title }, hooks.signal) : () => {};
    if (!release) return { status: 'cancelled' };
    /** @type {Awaited<ReturnType<BeginRun>>} */
    let run;
    /** @type {number} */
    let tabId;
    try {
      const tab = await targetTab(job);
      if (!tab.ok) return tab.result;
      tabId = tab.tabId;
      if (isBusy(tabId)) return { status: 'busy', tabId };
      const origin = { kind: /** @type {const} */ ('job'), label: job.title, jobId: job.id };
      run = job.kind === 'workflow' && beginWorkflow ? await beginWorkflow(tabId, job) : await beginRun(tabId, job.prompt, job.mode, { fresh: job.kind === 'task', origin });
    } finally { release(); }
    if (!run.ok) {
      if (run.code === 'BUSY') return { status: 'busy', tabId };
      return { status: 'failed', error: { code: run.code, message: run.message }, tabId };
    }
    runningInTab.set(tabId, { id: job.id, hooks });
    const onAbort = () => run.stop();
    hooks.signal.addEventListener('abort', onAbort);
    /** @type {JobRunResult | undefined} */
    let result;
    try {
      result = { ...withVerdict(await run.outcome), tabId };
      return result;
    } finally {
      hooks.signal.removeEventListener('abort', onAbort);
      if (runningInTab.get(tabId)?.id === job.id) runningInTab.delete(tabId);
      await closeOpenedTab(job, tabId, result);
    }
  }

  /**
   * A tab the job opened for its URL is closed when the run ends (fifty due jobs leave no fifty
   * tabs), unless the user turned that off or the run waits for them there.
   * @param {Job} job @param {number} tabId @param {JobRunResult | undefined} result
   */
  async function closeOpenedTab(job, tabId, result) {
    if (openedTabs.get(job.id) !== tabId || result?.status === 'needs_user_input') return;
    if (!(await closeTabs().catch(() => true))) return;
    openedTabs.delete(job.id);
    await browser.tabs.remove(tabId).catch(() => { /* closed by the user already */ });
  }

  /**
   * The tab a run uses: the job's own tab, or (URL target) a background tab opened now and reused next time.
   * @param {Job} job
   * @returns {Promise<{ ok: true, tabId: number } | { ok: false, result: JobRunResult }>}
   */
  async function targetTab(job) {
    if (job.target.type === 'tab') {
      if (await ops.getTab(job.target.tabId)) return { ok: true, tabId: job.target.tabId };
      return { ok: false, result: { status: 'failed', permanent: true, error: { code: 'TAB_GONE', message: 'The tab this job was made for has been closed. Edit the job to open a URL instead.' } } };
    }
    const reused = openedTabs.get(job.id);
    if (reused !== undefined && (await ops.getTab(reused)) && !isBusy(reused)) {
      const nav = await ops.navigate(reused, job.target.url);
      if (!nav.ok) return { ok: false, result: { status: 'failed', error: { code: nav.code, message: nav.message }, tabId: reused } };
      return { ok: true, tabId: reused };
    }
    // Opened straight at the URL: Firefox reports the blank page's own load of a new tab first, so
    // a tab opened blank and then navigated could look loaded before the URL had started.
    const created = await browser.tabs.create({ url: job.target.url, active: false });
    const tabId = /** @type {number} */ (created.id);
    openedTabs.set(job.id, tabId);
    // The job's tabs are a group of their own, named for the job, beside whatever the person does.
    void places?.groups.join(`job:${job.id}`, job.title, [tabId]);
    if (!(await loaded(tabId))) {
      return { ok: false, result: { status: 'failed', error: { code: 'NAVIGATION_TIMEOUT', message: `${job.target.url} did not finish loading within ${LOAD_TIMEOUT_MS / 1000} s. Check that the page opens, then use Run now.` }, tabId } };
    }
    return { ok: true, tabId };
  }

  /** Waits until a new tab has loaded its page (not the initial about:blank). @param {number} tabId */
  async function loaded(tabId) {
    const deadline = Date.now() + LOAD_TIMEOUT_MS;
    while (Date.now() < deadline) {
      const tab = await browser.tabs.get(tabId).catch(() => null);
      if (!tab) return false;
      if (tab.status === 'complete' && tab.url && tab.url !== 'about:blank') return true;
      await new Promise((r) => setTimeout(r, 100));
    }
    return false;
  }

  /** @param {number} tabId */
  async function focusTab(tabId) {
    const tab = await browser.tabs.update(tabId, { active: true }).catch(() => null);
    if (tab?.windowId !== undefined) await browser.windows.update(tab.windowId, { focused: true }).catch(() => {});
  }

  /** @param {Job} job @param {JobRun} run */
  function notify(job, run) {
    if (!browser.notifications) return;
    // The run waits for the person in its tab (a sign-in, a code, a challenge): say what, and bring that tab forward on click.
    const tabId = [...runningInTab.entries()].find(([, r]) => r.id === job.id)?.[0];
    if (run.status === 'needs_user_input' && job.waitingFor?.kind && job.waitingFor.site && tabId !== undefined) {
      const m = /** @type {import('../types/jobs').JobWaitingFor} */ (job.waitingFor);
      void browser.notifications.create(`tabwright-turn:${tabId}:${run.finishedAt}`, {
        type: 'basic',
        iconUrl: browser.runtime.getURL('icons/tabwright-128.png'),
        title: browser.i18n.getMessage('jobNotifyNeedsUser', [job.title]) || job.title,
        message: browser.i18n.getMessage(needKey(m), [m.site]) || m.site,
      }).catch(() => {});
      return;
    }
    const key = run.status === 'completed' ? 'jobNotifyCompleted' : run.status === 'needs_user_input' ? 'jobNotifyNeedsUser' : 'jobNotifyFailed';
    const detail = run.status === 'completed' ? (run.text ?? '') : (run.text ?? run.error?.message ?? '');
    void browser.notifications.create(`tabwright-job:${job.id}:${run.finishedAt}`, {
      type: 'basic',
      iconUrl: browser.runtime.getURL('icons/tabwright-128.png'),
      title: browser.i18n.getMessage(key, [job.title]) || job.title,
      message: detail.slice(0, 300),
    }).catch(() => { /* notifications blocked by the user or the system: the jobs page still shows the result */ });
  }

  /** What the schedule tools may do. @type {JobsAccess} */
  const access = {
    timeZone,
    async create(input) {
      const r = await scheduler.create({ ...input, target: await withTabDetails(input.target) });
      return r.ok ? r : { ok: false, code: r.code, message: r.message };
    },
  };

  /** A tab target remembers the tab's page, so the jobs page can say which tab. @param {JobTarget} target */
  async function withTabDetails(target) {
    if (target?.type !== 'tab' || target.url) return target;
    const tab = await ops.getTab(target.tabId);
    return tab ? { ...target, url: tab.url, title: tab.title } : target;
  }

  /** @param {JobsRequest} msg @returns {Promise<RouterReply>} */
  async function handle(msg) {
    switch (msg.type) {
      case 'jobs.list': return { ok: true, data: { jobs: await scheduler.list(), timeZone, now: Date.now() } };
      case 'jobs.create': return scheduler.create({ ...msg.job, target: await withTabDetails(msg.job?.target) });
      case 'jobs.update': {
        const patch = msg.patch ?? {};
        return scheduler.update(msg.id, patch.target ? { ...patch, target: await withTabDetails(patch.target) } : patch);
      }
      case 'jobs.pause': return scheduler.pause(msg.id);
      case 'jobs.resume': return scheduler.resume(msg.id);
      case 'jobs.runNow': return scheduler.runNow(msg.id);
      case 'jobs.delete': return scheduler.remove(msg.id);
    }
  }

  return {
    scheduler,
    handle,
    access,
    /**
     * The confirmation-gate hook: call with true when the run in this tab stops to wait for
     * the user, and with false when it goes on. A scheduled run then shows as needs_user_input and
     * the user gets a notification. Runs not started by a job are ignored.
     * @param {number} tabId @param {boolean} waiting @param {import('../types/jobs').JobWaitReason} [why] what it waits for, when it says (a budget reached, what a site needs of the person)
     */
    setWaitingForUser(tabId, waiting, why) {
      runningInTab.get(tabId)?.hooks.setWaiting(waiting, why);
    },
    /** The job whose run is in this tab, if any. @param {number} tabId */
    jobIn(tabId) { return runningInTab.get(tabId)?.id ?? null; },
  };
}

/**
 * A job run's result with the run's verdict stored beside it (the jobs page shows it): a run that
 * answered but whose write the server refused is a failed run, never a completed one.
 * @param {RunOutcome} o @returns {JobRunResult}
 */
export function withVerdict(o) {
  const base = resultFromOutcome(o);
  if (!o.outcome) return base;
  const refused = o.outcome.verdict === 'failed' && base.status === 'completed';
  const why = o.outcome.reasons[0];
  return { ...base, ...(refused ? { status: 'failed', error: { code: why?.code ?? 'WRITE_REFUSED', message: why?.message ?? 'The server refused a change the run sent.' } } : {}), outcome: o.outcome };
}
