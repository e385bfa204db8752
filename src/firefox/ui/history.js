// The panel's History view: past runs (kept by the router in IndexedDB), searchable by their words,
// title and address, filtered by site and by how they ended; a run opens read-only, and each can be
// deleted or exported as JSON (secrets were masked before it was stored).
import { hideRepeatedNotices } from './cards/notice-card.js';
/** @import { RunRecord, RunSummary, RouterRequest, RouterReply, TranscriptItem } from '../types/messages' */
/** @import { Outcome } from '../types/core' */
import { t } from './i18n.js';
import { saveJson } from './save-file.js';
import { shownVerdict } from './cards/receipt.js';

/**
 * How a run ended, as the column and the filter show it: the run's verdict (the same as the panel's
 * note under its answer); a run that failed or stopped is never verified; a run kept from before
 * verdicts says only that it ended, unchecked.
 * @param {RunSummary & { outcome?: Outcome }} run
 * @returns {'verified' | 'not_verified' | 'failed' | 'done' | 'stopped' | 'unchecked' | 'unknown'}
 */
function outcomeOf(run) {
  switch (run.status) {
    case 'aborted': return 'stopped';
    case 'error': case 'step_limit': case 'loop': case 'rejected': return 'failed';
    case 'done': case 'answered': {
      // 'done': an answer with nothing to check (before verdicts, an answer without a done call).
      if (!run.outcome) return run.status === 'answered' ? 'done' : 'unchecked';
      const v = shownVerdict(run.outcome);
      return v === 'nothing' ? 'done' : v;
    }
    default: return 'unknown';
  }
}

/** @param {string} url */
function hostOf(url) {
  try { return new URL(url).host; } catch { return ''; }
}

/** Literal keys, so the i18n test sees each. @param {ReturnType<typeof outcomeOf>} o */
function outcomeText(o) {
  switch (o) {
    case 'verified': return t('verdictVerified');
    case 'not_verified': return t('verdictNotVerified');
    case 'done': return t('historyDone');
    case 'unchecked': return t('historyVerdictFilterUnchecked');
    case 'failed': return t('verdictFailed');
    case 'stopped': return t('historyStopped');
    default: return '';
  }
}


/**
 * @param {{ view: HTMLElement, request: (r: RouterRequest) => Promise<RouterReply<any>>, render: (item: TranscriptItem) => HTMLElement }} deps
 */
export function createHistoryView({ view, request, render }) {
  const list = /** @type {HTMLElement} */ (view.querySelector('.runs'));
  const detail = /** @type {HTMLElement} */ (view.querySelector('.run'));
  const clear = /** @type {HTMLButtonElement} */ (view.querySelector('#history-clear'));
  const tools = /** @type {HTMLElement} */ (view.querySelector('.history-tools'));
  const search = /** @type {HTMLInputElement} */ (view.querySelector('#history-search'));
  const site = /** @type {HTMLSelectElement} */ (view.querySelector('#history-site'));
  const status = /** @type {HTMLSelectElement} */ (view.querySelector('#history-status'));
  /** @type {RunSummary[]} */
  let runs = [];
  let failure = '';

  // Clearing everything takes a second click within a few seconds (the button says so meanwhile).
  /** @type {ReturnType<typeof setTimeout> | null} */
  let armed = null;
  clear.addEventListener('click', async () => {
    if (!armed) {
      clear.textContent = t('historyClearConfirm');
      clear.classList.add('danger');
      armed = setTimeout(disarm, 4000);
      return;
    }
    disarm();
    await request({ type: 'history.clear' });
    await showList();
  });
  function disarm() {
    if (armed) clearTimeout(armed);
    armed = null;
    clear.textContent = t('historyClear');
    clear.classList.remove('danger');
  }
  search.addEventListener('input', draw);
  site.addEventListener('change', draw);
  status.addEventListener('change', draw);

  async function showList() {
    detail.hidden = true;
    list.hidden = false;
    tools.hidden = false;
    const reply = await request({ type: 'history.list' });
    runs = reply.ok ? reply.data : [];
    failure = reply.ok ? '' : reply.message;
    const hosts = [...new Set(runs.map((r) => hostOf(r.url)).filter(Boolean))].sort();
    const chosen = site.value;
    site.replaceChildren(new Option(t('historyAllSites'), ''), ...hosts.map((h) => new Option(h, h)));
    site.value = hosts.includes(chosen) ? chosen : '';
    draw();
  }

  /** The list under the search and filters. */
  function draw() {
    clear.hidden = runs.length === 0;
    const words = search.value.trim().toLowerCase().split(/\s+/).filter(Boolean);
    const shown = runs.filter((r) => (!site.value || hostOf(r.url) === site.value)
      && (!status.value || outcomeOf(r) === status.value || (status.value === 'not_verified' && outcomeOf(r) === 'unchecked'))
      && words.every((w) => `${r.task} ${r.title} ${r.url}`.toLowerCase().includes(w)));
    if (!shown.length) {
      const p = document.createElement('li');
      p.className = 'empty';
      p.textContent = failure || (runs.length ? t('historyNoMatch') : t('historyEmpty'));
      list.replaceChildren(p);
      return;
    }
    const fmt = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
    list.replaceChildren(...shown.map((run) => row(run, fmt)));
  }

  /** @param {RunSummary} run @param {Intl.DateTimeFormat} fmt */
  function row(run, fmt) {
    const li = document.createElement('li');
    li.dataset.run = run.id;
    li.dataset.outcome = outcomeOf(run);
    const open = document.createElement('button');
    open.type = 'button';
    open.className = 'ghost run-link';
    open.dataset.run = run.id;
    const title = document.createElement('span');
    title.className = 'title';
    title.textContent = run.title || run.url || t('historyUntitled');
    const task = document.createElement('span');
    task.className = 'task';
    task.textContent = run.task;
    const meta = document.createElement('span');
    meta.className = 'meta';
    const ended = document.createElement('span');
    ended.className = `verdict ${li.dataset.outcome.replace('_', '-')}`;
    ended.textContent = outcomeText(outcomeOf(run));
    meta.textContent = [fmt.format(run.endedAt), run.mode === 'ask' ? t('modeAsk') : run.mode === 'plan' ? t('modePlan') : t('modeAct'), hostOf(run.url)].filter(Boolean).join(' · ');
    if (ended.textContent) meta.append(' · ', ended);
    open.append(title, ...(run.task ? [task] : []), meta);
    open.addEventListener('click', () => showRun(run.id));
    const del = document.createElement('button');
    del.type = 'button';
    del.className = 'ghost icon run-delete';
    del.title = t('historyDelete');
    del.setAttribute('aria-label', `${t('historyDelete')}: ${title.textContent}`);
    del.textContent = '×';
    del.addEventListener('click', async () => {
      await request({ type: 'history.delete', id: run.id });
      runs = runs.filter((r) => r.id !== run.id);
      draw();
      /** @type {HTMLElement | null} */ (list.querySelector('.run-link'))?.focus();
    });
    li.append(open, del);
    return li;
  }

  /** @param {string} id */
  async function showRun(id) {
    const reply = await request({ type: 'history.get', id });
    if (!reply.ok) return;
    /** @type {RunRecord} */
    const run = reply.data;
    list.hidden = true;
    tools.hidden = true;
    clear.hidden = true;
    detail.hidden = false;
    const back = document.createElement('button');
    back.type = 'button';
    back.className = 'ghost';
    back.textContent = t('historyBack');
    back.addEventListener('click', showList);
    const exportRun = document.createElement('button');
    exportRun.type = 'button';
    exportRun.className = 'ghost run-export';
    exportRun.textContent = t('historyExport');
    exportRun.addEventListener('click', () => saveJson(`tabwright-run-${run.id}.json`, run));
    const bar = document.createElement('div');
    bar.className = 'run-bar';
    bar.append(back, exportRun);
    const items = document.createElement('div');
    items.className = 'items';
    items.append(...run.items.map(render));
    hideRepeatedNotices(items);
    // Issue 18: the run's trace, and the run compiled into a workflow for review.
    const open = (/** @type {string} */ path) => () => browser.tabs.create({ url: browser.runtime.getURL(path) });
    const actions = document.createElement('div');
    actions.className = 'run-actions';
    actions.append(
      Object.assign(document.createElement('button'), { type: 'button', className: 'ghost save-workflow', textContent: t('historySaveWorkflow'), onclick: open(`ui/workflows.html?fromRun=${encodeURIComponent(run.id)}`) }),
      Object.assign(document.createElement('button'), { type: 'button', className: 'ghost open-trace', textContent: t('historyOpenTrace'), onclick: open(`ui/traces.html#${encodeURIComponent(run.id)}`) }),
    );
    detail.replaceChildren(bar, actions, items);
    back.focus();
  }

  /** Every run, whole, as one JSON file. */
  async function exportAll() {
    const all = await Promise.all(runs.map((r) => request({ type: 'history.get', id: r.id })));
    saveJson('tabwright-history.json', all.filter((r) => r.ok).map((r) => r.data));
  }
  /** @type {HTMLButtonElement} */ (view.querySelector('#history-export')).addEventListener('click', exportAll);

  return { showList };
}
