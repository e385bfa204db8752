// The jobs page: every scheduled job with its next run, last result and run history; pause, resume,
// run now, edit, delete; and a form that creates or edits a job. Opened from the panel (with the
// panel's tab, message and mode in the query) and from the settings page.
/** @import { Job, JobRun, JobTarget, Schedule, ScheduleInput } from '../types/jobs' */
/** @import { RouterReply, RouterRequest } from '../types/messages' */
/** @import { Outcome } from '../types/core' */
import { pauseText } from './spend-format.js';
import { t, localize } from './i18n.js';
import { receiptLine, reasonText, shownVerdict, verdictName } from './cards/receipt.js';
import { needText } from './handoff-need.js';

const $ = (/** @type {string} */ id) => /** @type {any} */ (document.getElementById(id));
const list = /** @type {HTMLUListElement} */ ($('jobs'));
const form = /** @type {HTMLFormElement} */ ($('job-form'));
const formStatus = $('form-status');
const params = new URLSearchParams(location.search);
/** The tab the panel was showing when it opened this page: "this tab" in the form. */
const panelTab = Number(params.get('tabId')) || null;
/** @type {Job | null} */
let editing = null;
/** The edited job's schedule as the form first showed it: only a changed schedule is sent (and reschedules). */
let editingScheduleForm = '';
/** @type {Job[]} */
let jobs = [];

/** @template T @param {RouterRequest} req @returns {Promise<RouterReply<T>>} */
async function request(req) {
  try {
    return await browser.runtime.sendMessage(req);
  } catch (err) {
    return { ok: false, code: 'NO_BACKGROUND', message: t('errNoBackground') + ` (${err instanceof Error ? err.message : err})` };
  }
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
/** @param {number | null | undefined} ms */
const fmt = (ms) => (ms === null || ms === undefined ? '—' : dateTime.format(new Date(ms)));

/** @param {number} d 0 = Sunday */
function weekdayName(d) {
  // 4 January 1970 was a Sunday.
  return new Intl.DateTimeFormat(undefined, { weekday: 'short', timeZone: 'UTC' }).format(new Date(Date.UTC(1970, 0, 4 + d)));
}

/** @param {Schedule} s */
export function describeSchedule(s) {
  switch (s.kind) {
    case 'once': return t('jobDescOnce', [fmt(s.runAt)]);
    case 'interval': {
      const m = s.minutes;
      if (m % 1440 === 0) return t('jobDescEveryDays', [String(m / 1440)]);
      if (m % 60 === 0) return t('jobDescEveryHours', [String(m / 60)]);
      return t('jobDescEveryMinutes', [String(m)]);
    }
    case 'calendar': {
      const zone = ` (${s.timeZone})`;
      switch (s.repeat) {
        case 'daily': return t('jobDescDaily', [s.time ?? '']) + zone;
        case 'weekdays': return t('jobDescWeekdays', [s.time ?? '']) + zone;
        case 'weekly': return t('jobDescWeekly', [(s.days ?? []).map(weekdayName).join(', '), s.time ?? '']) + zone;
        case 'monthly': return t('jobDescMonthly', [String(s.dayOfMonth), s.time ?? '']) + zone;
        case 'cron': return t('jobDescCron', [s.cron ?? '']) + zone;
      }
    }
  }
  return '';
}

/** @param {JobTarget} target */
function describeTarget(target) {
  if (target.type === 'url') return t('jobDescTargetUrl', [target.url]);
  return t('jobDescTargetTab', [target.title || target.url || `#${target.tabId}`]);
}

/**
 * A run as one line: how it ended and its verdict (a completed run whose write the server refused
 * reads Failed, with what the server said; one with nothing proven reads Not verified, with why).
 * @param {JobRun & { outcome?: Outcome }} run
 */
function runText(run) {
  const v = runVerdict(run);
  const failedWrites = run.outcome?.receipt.filter((r) => r.verdict === 'failed').map((r) => receiptLine(r, t)) ?? [];
  const why = v === 'not_verified' ? run.outcome?.reasons.map((r) => reasonText(r, t)) ?? [] : [];
  const what = run.status === 'completed' && v !== 'failed' ? (run.text ?? '') : `${run.error ? `${run.error.code}: ${run.error.message}` : failedWrites.join('; ')}${run.text ? ` ${run.text}` : ''}`;
  // A completed run says its verdict too; a failed one already says Failed.
  const head = run.status === 'completed' && v && v !== 'nothing' ? `${runStatusText(run.status)} · ${verdictName(v, t)}` : runStatusText(run.status);
  return `${head} · ${fmt(run.finishedAt)}${what ? ` — ${what}` : ''}${why.length ? ` (${why.join(' ')})` : ''}`;
}

/** @param {JobRun & { outcome?: Outcome }} run @returns {ReturnType<typeof shownVerdict> | ''} */
function runVerdict(run) {
  if (run.outcome) return run.status === 'completed' ? shownVerdict(run.outcome) : 'failed';
  return run.status === 'failed' ? 'failed' : '';
}

/** @param {string} tag @param {string} [cls] @param {string} [text] */
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** @param {Job} job */
function renderJob(job) {
  const li = el('li', 'job');
  li.id = job.id;
  li.dataset.id = job.id;
  li.dataset.state = job.state;
  const head = el('div', 'head');
  head.append(el('span', 'title', job.title), el('span', 'state', stateText(job.state)));
  li.append(head);
  li.append(el('div', 'meta schedule', `${describeSchedule(job.schedule)} · ${describeTarget(job.target)} · ${(job.mode === 'ask' ? t('modeAsk') : t('modeAct'))}`));
  // What the run waits for at a site (a sign-in, a code, a challenge): the person acts in the job's tab.
  const wait = job.state === 'needs_user_input' ? job.waitingFor : undefined;
  if (wait?.kind && wait.site) li.append(el('div', 'meta waiting-for', t('jobWaitingFor', [needText(/** @type {import('../types/jobs').JobWaitingFor} */ (wait), t)])));
  li.append(el('div', 'meta next', t('jobNextRun', [job.state === 'running' ? t('jobState_running') : fmt(job.nextRunAt)])));
  // What the run waits for the person about, when it says: a budget reached, with the figures.
  if (wait && !wait.kind && (wait.budget || wait.message)) {
    const why = el('div', 'meta waiting', wait.budget ? t('jobWaitingBudget', [pauseText(wait.budget, t)]) : wait.message);
    if (wait.code) why.dataset.code = wait.code;
    li.append(why);
  }
  const last = el('div', `result ${job.lastResult?.status ?? 'none'}`, job.lastResult ? t('jobLastResult', [runText(job.lastResult)]) : t('jobNoRunsYet'));
  if (job.lastResult) last.dataset.verdict = runVerdict(job.lastResult) || 'none';
  li.append(last);
  if (job.history.length) {
    const details = el('details', 'history');
    details.append(el('summary', '', t('jobHistory', [String(job.history.length)])));
    const ol = el('ol');
    for (const run of [...job.history].reverse()) {
      const line = el('li', `run ${run.status}`, runText(run));
      line.dataset.verdict = runVerdict(run) || 'none';
      ol.append(line);
    }
    details.append(ol);
    li.append(details);
  }
  const buttons = el('div', 'buttons');
  /** @param {string} action @param {string} label already translated @param {string} [cls] */
  const button = (action, label, cls = 'ghost') => {
    const b = /** @type {HTMLButtonElement} */ (el('button', cls, label));
    b.type = 'button';
    b.dataset.action = action;
    buttons.append(b);
    return b;
  };
  if (job.state === 'paused' || job.pauseAfterRun) button('resume', t('jobResume'));
  else if (!['completed', 'cancelled'].includes(job.state)) button('pause', t('jobPause'));
  button('runNow', t('jobRunNow')).disabled = job.state === 'running' || (job.state === 'needs_user_input' && job.runStartedAt !== undefined);
  button('edit', t('jobEdit')).disabled = job.state === 'running';
  button('delete', t('jobDelete'), 'danger');
  li.append(buttons);
  return li;
}

async function refresh() {
  const reply = await request({ type: 'jobs.list' });
  if (!reply.ok) { formStatus.textContent = reply.message; return; }
  const data = /** @type {{ jobs: Job[], timeZone: string }} */ (reply.data);
  jobs = data.jobs;
  $('tz').textContent = t('jobsTimeZone', [data.timeZone]);
  $('empty').hidden = jobs.length > 0;
  list.replaceChildren(...jobs.map(renderJob));
  document.body.dataset.jobs = String(jobs.length);
}

list.addEventListener('click', async (e) => {
  const b = /** @type {HTMLElement} */ (e.target).closest('button[data-action]');
  const id = b?.closest('li.job')?.getAttribute('data-id');
  if (!b || !id) return;
  const action = /** @type {HTMLElement} */ (b).dataset.action;
  if (action === 'edit') { startEdit(/** @type {Job} */ (jobs.find((j) => j.id === id))); return; }
  if (action === 'delete' && !confirm(t('jobDeleteConfirm'))) return;
  const type = /** @type {'jobs.pause' | 'jobs.resume' | 'jobs.runNow' | 'jobs.delete'} */ (`jobs.${action}`);
  const reply = await request({ type, id });
  formStatus.textContent = reply.ok ? '' : reply.message;
  await refresh();
});

// ---- the form ----

const WEEKDAY_ORDER = [1, 2, 3, 4, 5, 6, 0];
for (const d of WEEKDAY_ORDER) {
  const label = el('label');
  const box = /** @type {HTMLInputElement} */ (el('input'));
  box.type = 'checkbox';
  box.name = 'day';
  box.value = String(d);
  label.append(box, document.createTextNode(` ${weekdayName(d)}`));
  $('days').append(label);
}

function syncForm() {
  const kind = $('kind').value;
  const repeat = $('repeat').value;
  const targetType = $('targetType').value;
  for (const e of form.querySelectorAll('[data-for]')) /** @type {HTMLElement} */ (e).hidden = ![kind, targetType].includes(/** @type {string} */ (e.getAttribute('data-for')));
  for (const e of form.querySelectorAll('[data-for-repeat]')) /** @type {HTMLElement} */ (e).hidden = !(e.getAttribute('data-for-repeat') ?? '').split(' ').includes(repeat);
  $('url').required = targetType === 'url';
  const tabHint = $('tab-hint');
  const tab = editing?.target.type === 'tab' ? editing.target : null;
  tabHint.hidden = targetType !== 'tab';
  tabHint.textContent = tab ? describeTarget(tab) : panelTab ? t('jobTabFromPanel', [`#${panelTab}`]) : t('jobNoTab');
}
for (const id of ['kind', 'repeat', 'targetType']) $(id).addEventListener('change', syncForm);

/** @returns {ScheduleInput} */
function scheduleFromForm() {
  const kind = $('kind').value;
  if (kind === 'once') {
    const after = $('afterSeconds').value;
    if (after !== '') return { kind: 'once', afterSeconds: Number(after) };
    return { kind: 'once', runAt: $('runAt').value ? new Date($('runAt').value).getTime() : '' };
  }
  if (kind === 'interval') return { kind: 'interval', minutes: Number($('minutes').value) };
  const repeat = $('repeat').value;
  const days = [...form.querySelectorAll('input[name=day]:checked')].map((b) => Number(/** @type {HTMLInputElement} */ (b).value));
  return {
    kind: 'calendar', repeat, timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    ...(repeat === 'cron' ? { cron: $('cron').value } : { time: $('time').value }),
    ...(repeat === 'weekly' ? { days } : {}),
    ...(repeat === 'monthly' ? { dayOfMonth: Number($('dayOfMonth').value) } : {}),
  };
}

/** @returns {JobTarget | null} */
function targetFromForm() {
  if ($('targetType').value === 'url') return { type: 'url', url: $('url').value.trim() };
  if (editing?.target.type === 'tab') return editing.target;
  return panelTab ? { type: 'tab', tabId: panelTab } : null;
}

/** datetime-local wants local wall time without a zone. @param {number} ms */
function localInput(ms) {
  const d = new Date(ms);
  const p = (/** @type {number} */ n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** @param {Job} job */
function startEdit(job) {
  editing = job;
  $('form-heading').textContent = t('jobsEditHeading', [job.title]);
  $('save').textContent = t('jobSave');
  $('cancel-edit').hidden = false;
  $('title').value = job.title;
  $('prompt').value = job.prompt;
  $('mode').value = job.mode;
  $('targetType').value = job.target.type;
  $('url').value = job.target.type === 'url' ? job.target.url : '';
  const s = job.schedule;
  $('kind').value = s.kind;
  $('afterSeconds').value = '';
  if (s.kind === 'once') $('runAt').value = localInput(s.runAt);
  if (s.kind === 'interval') $('minutes').value = String(s.minutes);
  if (s.kind === 'calendar') {
    $('repeat').value = s.repeat;
    if (s.time) $('time').value = s.time;
    if (s.cron) $('cron').value = s.cron;
    if (s.dayOfMonth) $('dayOfMonth').value = String(s.dayOfMonth);
    for (const b of form.querySelectorAll('input[name=day]')) /** @type {HTMLInputElement} */ (b).checked = (s.days ?? []).includes(Number(/** @type {HTMLInputElement} */ (b).value));
  }
  editingScheduleForm = JSON.stringify(scheduleFromForm());
  syncForm();
  form.scrollIntoView();
}

function endEdit() {
  editing = null;
  form.reset();
  $('form-heading').textContent = t('jobsNewHeading');
  $('save').textContent = t('jobCreate');
  $('cancel-edit').hidden = true;
  prefillFromPanel();
  syncForm();
}
$('cancel-edit').addEventListener('click', endEdit);

form.addEventListener('submit', async (e) => {
  e.preventDefault();
  const target = targetFromForm();
  if (!target) { formStatus.textContent = t('jobNoTab'); return; }
  const schedule = scheduleFromForm();
  const fields = { title: $('title').value, prompt: $('prompt').value, mode: $('mode').value === 'ask' ? /** @type {const} */ ('ask') : /** @type {const} */ ('act'), target };
  const reply = editing
    ? await request({ type: 'jobs.update', id: editing.id, patch: { ...fields, ...(JSON.stringify(schedule) !== editingScheduleForm ? { schedule } : {}) } })
    : await request({ type: 'jobs.create', job: { ...fields, schedule } });
  if (!reply.ok) { formStatus.textContent = reply.message; return; }
  const deduped = !editing && /** @type {{ deduped: boolean }} */ (reply.data).deduped;
  formStatus.textContent = (editing ? t('jobSaved') : deduped ? t('jobDeduped') : t('jobCreated'));
  endEdit();
  await refresh();
});

function prefillFromPanel() {
  $('prompt').value = params.get('prompt') ?? '';
  if (params.get('mode') === 'ask') $('mode').value = 'ask';
  $('targetType').value = panelTab ? 'tab' : 'url';
}

async function init() {
  localize();
  prefillFromPanel();
  syncForm();
  // Jobs change in the background (a run starts or ends): storage tells every open jobs page.
  browser.storage.onChanged.addListener((/** @type {Record<string, unknown>} */ changes, /** @type {string} */ area) => {
    if (area === 'local' && changes.jobs) void refresh();
  });
  await refresh();
  document.body.dataset.ready = 'true';
  if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
}

init();

/**
 * Literal keys, so the i18n test can check every one exists in every locale.
 * @param {string} state
 */
function stateText(state) {
  switch (state) {
    case 'pending': return t('jobState_pending');
    case 'queued': return t('jobState_queued');
    case 'running': return t('jobState_running');
    case 'completed': return t('jobState_completed');
    case 'failed': return t('jobState_failed');
    case 'needs_user_input': return t('jobState_needs_user_input');
    case 'paused': return t('jobState_paused');
    case 'cancelled': return t('jobState_cancelled');
    default: return state;
  }
}

/** @param {string} status */
function runStatusText(status) {
  switch (status) {
    case 'completed': return t('jobRun_completed');
    case 'failed': return t('jobRun_failed');
    case 'needs_user_input': return t('jobRun_needs_user_input');
    case 'cancelled': return t('jobRun_cancelled');
    case 'interrupted': return t('jobRun_interrupted');
    default: return status;
  }
}
