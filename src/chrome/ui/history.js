// The panel's history of past runs (kept by the router in IndexedDB): a list, and one run read-only.
/** @import { RunRecord, RouterRequest, RouterReply, TranscriptItem } from '../types/messages' */
import { t } from './i18n.js';

/**
 * @param {{ view: HTMLElement, request: (r: RouterRequest) => Promise<RouterReply<any>>, render: (item: TranscriptItem) => HTMLElement }} deps
 */
export function createHistoryView({ view, request, render }) {
  const list = /** @type {HTMLElement} */ (view.querySelector('.runs'));
  const detail = /** @type {HTMLElement} */ (view.querySelector('.run'));
  const clear = /** @type {HTMLButtonElement} */ (view.querySelector('#history-clear'));
  clear.addEventListener('click', async () => {
    await request({ type: 'history.clear' });
    await showList();
  });

  async function showList() {
    detail.hidden = true;
    list.hidden = false;
    clear.hidden = false;
    const reply = await request({ type: 'history.list' });
    /** @type {Omit<RunRecord, 'items'>[]} */
    const runs = reply.ok ? reply.data : [];
    clear.hidden = runs.length === 0;
    if (!runs.length) {
      const p = document.createElement('li');
      p.className = 'empty';
      p.textContent = reply.ok ? t('historyEmpty') : reply.message;
      list.replaceChildren(p);
      return;
    }
    const fmt = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
    list.replaceChildren(...runs.map((run) => {
      const li = document.createElement('li');
      const open = document.createElement('button');
      open.type = 'button';
      open.className = 'ghost run-link';
      open.dataset.run = run.id;
      const title = document.createElement('span');
      title.className = 'title';
      title.textContent = run.title || run.url || t('historyUntitled');
      const meta = document.createElement('span');
      meta.className = 'meta';
      meta.textContent = `${fmt.format(run.endedAt)} · ${run.mode === 'ask' ? t('modeAsk') : t('modeAct')}`;
      open.append(title, meta);
      open.addEventListener('click', () => showRun(run.id));
      li.append(open);
      return li;
    }));
  }

  /** @param {string} id */
  async function showRun(id) {
    const reply = await request({ type: 'history.get', id });
    if (!reply.ok) return;
    /** @type {RunRecord} */
    const run = reply.data;
    list.hidden = true;
    clear.hidden = true;
    detail.hidden = false;
    const back = document.createElement('button');
    back.type = 'button';
    back.className = 'ghost';
    back.textContent = t('historyBack');
    back.addEventListener('click', showList);
    const items = document.createElement('div');
    items.className = 'items';
    items.append(...run.items.map(render));
    // Issue 18: the run's trace, and the run compiled into a workflow for review.
    const open = (/** @type {string} */ path) => () => browser.tabs.create({ url: browser.runtime.getURL(path) });
    const actions = document.createElement('div');
    actions.className = 'run-actions';
    actions.append(
      Object.assign(document.createElement('button'), { type: 'button', className: 'ghost save-workflow', textContent: t('historySaveWorkflow'), onclick: open(`ui/workflows.html?fromRun=${encodeURIComponent(run.id)}`) }),
      Object.assign(document.createElement('button'), { type: 'button', className: 'ghost open-trace', textContent: t('historyOpenTrace'), onclick: open(`ui/traces.html#${encodeURIComponent(run.id)}`) }),
      // Deleting a run deletes its trace too.
      Object.assign(document.createElement('button'), { type: 'button', className: 'ghost delete-run', textContent: t('tracesDelete'), onclick: async () => { await request({ type: 'history.delete', id: run.id }); await showList(); } }),
    );
    detail.replaceChildren(back, actions, items);
    back.focus();
  }

  return { showList };
}
