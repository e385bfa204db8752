// The panel's History view: past runs (kept by the router in IndexedDB), searchable by their words,
// title and address, filtered by site and by how they ended; a run opens read-only, and each can be
// deleted or exported as JSON (secrets were masked before it was stored).
/** @import { RunRecord, RunSummary, RouterRequest, RouterReply, TranscriptItem } from '../types/messages' */
import { t } from './i18n.js';
import { saveJson } from './save-file.js';
import { historyRow, hostOf, outcomeOf } from './history-row.js';
import { historyRun } from './history-run.js';

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
    list.replaceChildren(...shown.map((run) => historyRow(run, fmt, { open: showRun, remove })));
  }

  /** @param {string} id */
  async function showRun(id) {
    const reply = await request({ type: 'history.get', id });
    if (!reply.ok) return;
    list.hidden = true;
    tools.hidden = true;
    clear.hidden = true;
    detail.hidden = false;
    const shown = historyRun(/** @type {RunRecord} */ (reply.data), render, showList);
    detail.replaceChildren(...shown.nodes);
    shown.back.focus();
  }

  /** @param {string} id */
  async function remove(id) {
    await request({ type: 'history.delete', id });
    runs = runs.filter((r) => r.id !== id);
    draw();
    /** @type {HTMLElement | null} */ (list.querySelector('.run-link'))?.focus();
  }

  /** Every run, whole, as one JSON file. */
  async function exportAll() {
    const all = await Promise.all(runs.map((r) => request({ type: 'history.get', id: r.id })));
    saveJson('tabwright-history.json', all.filter((r) => r.ok).map((r) => r.data));
  }
  /** @type {HTMLButtonElement} */ (view.querySelector('#history-export')).addEventListener('click', exportAll);

  return { showList };
}
