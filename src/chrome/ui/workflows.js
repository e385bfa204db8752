// The workflows page: saved workflows with their parameters and steps; edit, delete,
// export and import; schedule one as a job (the scheduler's "workflow" kind, no model calls); a
// step a replay repaired, saved back or dismissed. Opened with ?fromRun=<run id> it compiles that
// run into a draft for review (ui/workflow-editor.js); with ?id=<id> it opens that one for editing.
/** @import { CompileNote, Workflow } from '../types/workflows' */
/** @import { RouterReply, RouterRequest } from '../types/messages' */
/** @import { TraceSummary } from '../types/traces' */
import { t, localize } from './i18n.js';
import { shownVerdict, verdictName } from './cards/receipt.js';
import { createWorkflowEditor } from './workflow-editor.js';
import { describeStep } from '../agent/workflows/fingerprint.js';
import { saveJson } from './save-file.js';

const $ = (/** @type {string} */ id) => /** @type {any} */ (document.getElementById(id));
const params = new URLSearchParams(location.search);

/** @template T @param {RouterRequest} req @returns {Promise<RouterReply<T>>} */
async function request(req) {
  try { return await browser.runtime.sendMessage(req); } catch (err) {
    return { ok: false, code: 'NO_BACKGROUND', message: `${t('errNoBackground')} (${err instanceof Error ? err.message : err})` };
  }
}
/** @param {string} text */
const status = (text) => { $('page-status').textContent = text; };

const editor = createWorkflowEditor({
  form: $('editor'), t,
  async save(wf) {
    const r = await request({ type: 'workflows.save', workflow: wf });
    return r.ok ? null : r.message;
  },
  close() { $('list-view').hidden = false; history.replaceState(null, '', location.pathname); void loadList(); },
});

/** @param {Workflow} wf @param {CompileNote[]} [notes] */
function edit(wf, notes) {
  $('list-view').hidden = true;
  editor.open(wf, notes);
}

async function loadList() {
  const [r, traces] = await Promise.all([request({ type: 'workflows.list' }), request({ type: 'traces.list' })]);
  /** @type {Workflow[]} */
  const all = r.ok ? /** @type {Workflow[]} */ (r.data) : [];
  if (!r.ok) status(r.message);
  $('empty').hidden = all.length > 0;
  const runs = traces.ok ? /** @type {TraceSummary[]} */ (traces.data) : [];
  /** @type {HTMLUListElement} */ ($('workflows')).replaceChildren(...all.map((wf) => item(wf, lastRunOf(wf, runs))));
  document.body.dataset.ready = 'true';
}

/**
 * The newest replay of a workflow, from the trace list (kept only while traces are kept).
 * @param {Workflow} wf @param {TraceSummary[]} runs
 */
function lastRunOf(wf, runs) {
  return runs.filter((x) => x.kind === 'replay' && x.workflowId === wf.id).sort((a, b) => b.startedAt - a.startedAt)[0] ?? null;
}

/**
 * How the last replay ended: its verdict, and for a failed one the error (a refused write in the
 * server's own words), so a replay that did nothing never reads as done.
 * @param {TraceSummary} run
 */
function lastRunLine(run) {
  const o = /** @type {{ outcome?: import('../types/core').Outcome }} */ (/** @type {unknown} */ (run)).outcome;
  const v = run.status === 'done' || run.status === 'answered' ? (o ? shownVerdict(o) : 'not_verified') : 'failed';
  const name = v === 'nothing' ? t('historyDone') : verdictName(v, t);
  const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(run.startedAt);
  const p = Object.assign(document.createElement('span'), { className: `meta last-run ${v.replace('_', '-')}`, textContent: t('workflowLastRun', [`${name} · ${when}${run.error ? ` — ${run.error.message}` : ''}`]) });
  p.dataset.verdict = v;
  return p;
}

/** @param {Workflow} wf @param {TraceSummary | null} [last] */
function item(wf, last = null) {
  const li = document.createElement('li');
  li.dataset.workflow = wf.id;
  li.append(
    Object.assign(document.createElement('span'), { className: 'title', textContent: wf.name }),
    Object.assign(document.createElement('span'), { className: 'meta', textContent: t('workflowMeta', [String(wf.steps.length), wf.params.map((p) => p.name).join(', ') || '—', wf.start.url]) }),
  );
  if (wf.description) li.append(Object.assign(document.createElement('span'), { className: 'meta', textContent: wf.description }));
  if (last) li.append(lastRunLine(last));
  const buttons = document.createElement('div');
  buttons.className = 'buttons';
  buttons.append(
    button(t('workflowEdit'), 'edit', () => edit(wf)),
    button(t('workflowExportOne'), 'export', async () => { const r = await request({ type: 'workflows.export', id: wf.id }); if (r.ok) download(r.data, wf.name); }),
    button(t('workflowSchedule'), 'schedule', () => schedule(wf, li)),
    button(t('tracesDelete'), 'delete', async () => { await request({ type: 'workflows.delete', id: wf.id }); await loadList(); }),
  );
  li.append(buttons);
  for (const p of wf.pendingRepairs ?? []) li.append(repairBox(wf, p));
  return li;
}

/** @param {string} label @param {string} cls @param {() => void} onClick */
function button(label, cls, onClick) {
  const b = Object.assign(document.createElement('button'), { type: 'button', className: `ghost ${cls}`, textContent: label });
  b.addEventListener('click', onClick);
  return b;
}

/** A repaired step waiting to be saved back. @param {Workflow} wf @param {NonNullable<Workflow['pendingRepairs']>[number]} p */
function repairBox(wf, p) {
  const box = document.createElement('div');
  box.className = 'repairs';
  box.dataset.step = String(p.step);
  box.append(Object.assign(document.createElement('p'), { textContent: t('workflowRepairPending', [String(p.step + 1), describeStep(wf.steps[p.step]), describeStep(p.replacement)]) }));
  const answer = (/** @type {boolean} */ accept) => async () => {
    const r = await request({ type: 'workflows.applyRepair', id: wf.id, step: p.step, accept });
    if (!r.ok) status(r.message);
    await loadList();
  };
  box.append(button(t('workflowRepairSave'), 'repair-save', answer(true)), button(t('workflowRepairDismiss'), 'repair-dismiss', answer(false)));
  return box;
}

/**
 * Schedules the workflow as a job: once after some seconds, or every few minutes. It opens the
 * workflow's start page in a background tab and replays with the parameters' defaults.
 * @param {Workflow} wf @param {HTMLElement} li
 */
function schedule(wf, li) {
  if (li.querySelector('form.schedule')) return;
  if (wf.params.some((p) => p.secret)) { status(t('workflowScheduleSecret')); return; }
  const form = Object.assign(document.createElement('form'), { className: 'schedule toolbar' });
  const kind = Object.assign(document.createElement('select'), { name: 'kind' });
  kind.append(new Option(t('workflowScheduleOnce'), 'once'), new Option(t('workflowScheduleEvery'), 'interval'));
  const amount = Object.assign(document.createElement('input'), { type: 'number', name: 'amount', min: '1', value: '60', required: true });
  amount.setAttribute('aria-label', t('workflowScheduleAmount'));
  form.append(kind, amount, Object.assign(document.createElement('button'), { type: 'submit', textContent: t('workflowScheduleSave') }));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const n = Number(amount.value);
    const r = await request({ type: 'jobs.create', job: {
      kind: 'workflow', title: wf.name, prompt: `Run workflow "${wf.name}"`, mode: 'act', target: { type: 'url', url: wf.start.url },
      schedule: kind.value === 'once' ? { kind: 'once', afterSeconds: n } : { kind: 'interval', minutes: n }, workflow: { id: wf.id, values: {} },
    } });
    status(r.ok ? t('workflowScheduled') : r.message);
    if (r.ok) form.remove();
  });
  li.append(form);
  amount.focus();
}

/** @param {unknown} data @param {string} name */
function download(data, name) {
  saveJson(`tabwright-workflows-${name.replace(/[^a-z0-9-]+/gi, '_').slice(0, 40) || 'all'}.json`, data);
}

$('export-all').addEventListener('click', async () => { const r = await request({ type: 'workflows.export' }); if (r.ok) download(r.data, 'all'); });
$('open-traces').addEventListener('click', () => browser.tabs.create({ url: browser.runtime.getURL('ui/traces.html') }));
$('import').addEventListener('change', async (/** @type {Event} */ e) => {
  const input = /** @type {HTMLInputElement} */ (e.target);
  const file = input.files?.[0];
  input.value = '';
  if (!file) return;
  /** @type {unknown} */
  let data = null;
  try { data = file.size < 5_000_000 ? JSON.parse(await file.text()) : null; } catch { data = null; }
  const r = await request({ type: 'workflows.import', data: data ?? {} });
  status(r.ok ? t('workflowImported', [String(/** @type {{ imported: number }} */ (r.data).imported)]) : r.message);
  await loadList();
});

async function start() {
  localize();
  const fromRun = params.get('fromRun');
  const id = params.get('id');
  if (fromRun) {
    const r = await request({ type: 'workflows.draft', runId: fromRun });
    if (r.ok) { const d = /** @type {{ workflow: Workflow, notes: CompileNote[] }} */ (r.data); edit(d.workflow, d.notes); document.body.dataset.ready = 'true'; return; }
    status(r.message);
  } else if (id) {
    const r = await request({ type: 'workflows.get', id });
    if (r.ok) { edit(/** @type {Workflow} */ (r.data)); document.body.dataset.ready = 'true'; return; }
    status(r.message);
  }
  await loadList();
}
void start();
