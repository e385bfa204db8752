// The panel's workflows: a button for each saved workflow that starts on the tab's site,
// a form for its parameters (a secret asked for as a password, never stored; repair on or off),
// and Run, which replays it in this tab with no model calls (workflows.run). "All workflows"
// opens the workflows page.
/** @import { Workflow } from '../types/workflows' */
/** @import { RouterReply, RouterRequest } from '../types/messages' */

/**
 * @param {object} deps
 * @param {HTMLElement} deps.bar
 * @param {HTMLFormElement} deps.form
 * @param {(req: RouterRequest) => Promise<RouterReply>} deps.request
 * @param {(key: string, subs?: string | string[]) => string} deps.t
 * @param {() => number | null} deps.tabId
 * @param {(message: string) => void} deps.showStatus
 * @param {() => boolean} deps.busy
 */
export function createWorkflowsBar({ bar, form, request, t, tabId, showStatus, busy }) {
  async function refresh() {
    const id = tabId();
    if (id === null) return;
    const [list, tab] = await Promise.all([request({ type: 'workflows.list' }), browser.tabs.get(id).catch(() => null)]);
    const all = list.ok ? /** @type {Workflow[]} */ (list.data) : [];
    const here = originOf(tab?.url ?? '');
    const mine = all.filter((w) => originOf(w.start.url) === here);
    const chips = mine.slice(0, 4).map((w) => {
      const b = Object.assign(document.createElement('button'), { type: 'button', className: 'chip workflow', textContent: w.name, title: w.description || w.start.url });
      b.dataset.workflow = w.id;
      b.addEventListener('click', () => showForm(w));
      return b;
    });
    const more = Object.assign(document.createElement('button'), { type: 'button', className: 'chip more-workflows', textContent: t('workflowsAll') });
    more.addEventListener('click', () => browser.tabs.create({ url: browser.runtime.getURL('ui/workflows.html') }));
    bar.replaceChildren(...chips, ...(all.length ? [more] : []));
    bar.hidden = all.length === 0;
  }

  /** @param {Workflow} w */
  function showForm(w) {
    if (busy()) return;
    const title = Object.assign(document.createElement('p'), { className: 'skill-params-title', textContent: t('workflowRunTitle', [w.name]) });
    const fields = w.params.map((p) => {
      const label = document.createElement('label');
      const caption = Object.assign(document.createElement('span'), { textContent: p.label + (p.default === undefined ? ' *' : '') });
      const input = Object.assign(document.createElement('input'), { name: p.name, type: p.secret ? 'password' : 'text', value: p.default ?? '', required: p.default === undefined, autocomplete: 'off' });
      label.append(caption, input);
      return label;
    });
    const repair = document.createElement('label');
    const box = Object.assign(document.createElement('input'), { type: 'checkbox', name: 'repair', checked: w.repair === true });
    repair.append(box, document.createTextNode(` ${t('workflowRepairShort')}`));
    const run = Object.assign(document.createElement('button'), { type: 'submit', textContent: t('skillRun') });
    const cancel = Object.assign(document.createElement('button'), { type: 'button', className: 'ghost', textContent: t('skillCancel') });
    cancel.addEventListener('click', hide);
    const actions = Object.assign(document.createElement('div'), { className: 'actions' });
    actions.append(cancel, run);
    form.replaceChildren(title, ...fields, repair, actions);
    form.dataset.workflow = w.id;
    form.hidden = false;
    form.onsubmit = async (e) => {
      e.preventDefault();
      const id = tabId();
      if (id === null) return;
      /** @type {Record<string, string>} */
      const values = {};
      for (const input of form.querySelectorAll('input:not([type=checkbox])')) values[/** @type {HTMLInputElement} */ (input).name] = /** @type {HTMLInputElement} */ (input).value;
      showStatus('');
      const r = await request({ type: 'workflows.run', tabId: id, id: w.id, values, repair: box.checked });
      if (r.ok) hide(); else showStatus(r.message);
    };
    /** @type {HTMLInputElement | null} */ (form.querySelector('input'))?.focus();
  }

  function hide() {
    form.hidden = true;
    form.replaceChildren();
    delete form.dataset.workflow;
  }

  return { refresh };
}

/** @param {string} url */
function originOf(url) {
  try { return new URL(url).origin; } catch { return ''; }
}
