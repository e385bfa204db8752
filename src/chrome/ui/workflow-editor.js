// The review form of a workflow: its name and description, repair on or off, the
// parameters (untick one to keep its value fixed, rename it, change its default), the steps
// (remove one, edit a fixed value), and what the compiler left out of the run. Returns the edited
// workflow on save; the page (ui/workflows.js) sends it to the background, which checks it again.
/** @import { CompileNote, Workflow, WorkflowStep } from '../types/workflows' */
import { fillDeep, fixParam, describePage, placeholdersIn } from '../agent/workflows/params.js';
import { describeTarget } from '../agent/workflows/fingerprint.js';

/** Arguments a person may edit on a step (a fixed value; a parameter reads {{name}}). */
const EDITABLE = ['text', 'value', 'label', 'url', 'keys'];

/**
 * @param {object} deps
 * @param {HTMLFormElement} deps.form
 * @param {(key: string, subs?: string | string[]) => string} deps.t
 * @param {(wf: Workflow) => Promise<string | null>} deps.save returns an error message, or null when saved
 * @param {() => void} deps.close
 */
export function createWorkflowEditor({ form, t, save, close }) {
  const q = (/** @type {string} */ sel) => /** @type {any} */ (form.querySelector(sel));
  /** @type {Workflow | null} */
  let wf = null;

  /** @param {Workflow} workflow @param {CompileNote[]} [notes] */
  function open(workflow, notes = []) {
    wf = structuredClone(workflow);
    q('#wf-name').value = wf.name;
    q('#wf-description').value = wf.description ?? '';
    q('#wf-repair').checked = wf.repair === true;
    q('#wf-start').textContent = t('workflowStartsAt', [wf.start.url]);
    q('#wf-notes').replaceChildren(...notes.map((n) => Object.assign(document.createElement('li'), { textContent: t('workflowLeftOut', [String(n.call + 1), n.tool, n.reason]) })));
    render();
    form.hidden = false;
    q('#editor-status').textContent = '';
    q('#wf-name').focus();
  }

  function render() {
    if (!wf) return;
    q('#wf-params').replaceChildren(...wf.params.map((p) => paramRow(p)));
    q('#wf-steps').replaceChildren(...wf.steps.map((s, i) => stepRow(s, i)));
  }

  /** @param {Workflow['params'][number]} p */
  function paramRow(p) {
    const row = document.createElement('div');
    row.className = 'param';
    row.dataset.param = p.name;
    const use = Object.assign(document.createElement('input'), { type: 'checkbox', checked: true, disabled: Boolean(p.secret), className: 'use' });
    use.setAttribute('aria-label', t('workflowParamUse', [p.label]));
    use.addEventListener('change', () => { if (wf && !use.checked) { wf = fixParam(wf, p.name); render(); } });
    const name = Object.assign(document.createElement('input'), { value: p.name, className: 'name', pattern: '[a-z][a-z0-9_]*', required: true });
    name.setAttribute('aria-label', t('workflowParamName'));
    name.addEventListener('change', () => rename(p.name, name.value.trim()));
    const label = Object.assign(document.createElement('span'), { textContent: p.label });
    row.append(use, name, label);
    if (p.secret) row.append(Object.assign(document.createElement('em'), { textContent: t('workflowParamSecret') }));
    else {
      const def = Object.assign(document.createElement('input'), { value: p.default ?? '', className: 'default' });
      def.setAttribute('aria-label', t('workflowParamDefault'));
      def.addEventListener('change', () => { p.default = def.value; });
      row.append(def);
    }
    return row;
  }

  /** @param {string} from @param {string} to */
  function rename(from, to) {
    if (!wf || from === to || !/^[a-z][a-z0-9_]*$/.test(to) || wf.params.some((p) => p.name === to)) { render(); return; }
    const steps = fillDeep(wf.steps, { [from]: `{{${to}}}` });
    const summary = wf.summary === undefined ? undefined : fillDeep(wf.summary, { [from]: `{{${to}}}` });
    wf = { ...wf, steps, summary, params: wf.params.map((p) => (p.name === from ? { ...p, name: to } : p)) };
    render();
  }

  /** @param {WorkflowStep} s @param {number} i */
  function stepRow(s, i) {
    const li = document.createElement('li');
    li.dataset.tool = s.tool;
    const head = document.createElement('div');
    head.className = 'step-head';
    const what = Object.assign(document.createElement('code'), { textContent: `${s.tool}${s.target ? ` ${describeTarget(s.target)}` : ''}` });
    const where = Object.assign(document.createElement('span'), { className: 'hint', textContent: describePage(s.page) });
    const remove = Object.assign(document.createElement('button'), { type: 'button', className: 'ghost remove', textContent: t('workflowStepRemove') });
    remove.addEventListener('click', () => { if (wf) { wf.steps.splice(i, 1); dropUnused(); render(); } });
    head.append(what, where, remove);
    li.append(head);
    for (const k of EDITABLE) {
      const v = s.args[k];
      if (typeof v !== 'string') continue;
      const field = document.createElement('label');
      field.textContent = `${k} `;
      const input = Object.assign(document.createElement('input'), { value: v, name: k });
      input.addEventListener('change', () => { s.args[k] = input.value; });
      field.append(input);
      li.append(field);
    }
    return li;
  }

  /** Parameters no step or summary uses any more leave the list. */
  function dropUnused() {
    if (!wf) return;
    const used = new Set(placeholdersIn(JSON.stringify(wf.steps) + (wf.summary ?? '')));
    wf.params = wf.params.filter((p) => used.has(p.name));
  }

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (!wf) return;
    dropUnused();
    const out = { ...wf, name: q('#wf-name').value.trim(), description: q('#wf-description').value.trim(), repair: q('#wf-repair').checked };
    const problem = await save(out);
    q('#editor-status').textContent = problem ?? '';
    if (!problem) { form.hidden = true; wf = null; close(); }
  });
  q('#wf-cancel').addEventListener('click', () => { form.hidden = true; wf = null; close(); });

  return { open };
}
