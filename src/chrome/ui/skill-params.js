// The form that asks for a skill's parameters before it runs: a field per parameter (required ones
// starred, defaults as placeholders), Run and Cancel.
/** @import { Skill } from '../types/knowledge' */
import { skillTitle } from './skill-titles.js';

/**
 * @param {HTMLFormElement} params the form's element
 * @param {(key: string, subs?: string | string[]) => string} t
 * @param {() => void} onCancel
 */
export function createSkillParams(params, t, onCancel) {
  function hide() {
    params.hidden = true;
    params.replaceChildren();
    delete params.dataset.skill;
  }

  /**
   * @param {Skill} s @param {Record<string, string>} values what is already known
   * @param {(values: Record<string, string>) => void} onRun
   */
  function show(s, values, onRun) {
    const title = document.createElement('p');
    title.className = 'skill-params-title';
    title.textContent = t('skillParamsTitle', [skillTitle(s, t)]);
    params.replaceChildren(title, ...s.parameters.map((p) => field(p, values[p.name] ?? '')), actions());
    params.dataset.skill = s.name;
    params.hidden = false;
    params.onsubmit = (e) => {
      e.preventDefault();
      /** @type {Record<string, string>} */
      const v = {};
      for (const input of params.querySelectorAll('input')) v[input.name] = input.value;
      onRun(v);
    };
    /** @type {HTMLInputElement | null} */ (params.querySelector('input'))?.focus();
  }

  /** @param {Skill['parameters'][number]} p @param {string} value */
  function field(p, value) {
    const label = document.createElement('label');
    const caption = document.createElement('span');
    caption.textContent = p.description + (p.default === undefined ? ' *' : '');
    const input = document.createElement('input');
    input.name = p.name;
    input.value = value;
    if (p.default !== undefined) input.placeholder = p.default;
    input.required = p.default === undefined;
    label.append(caption, input);
    return label;
  }

  function actions() {
    const runBtn = document.createElement('button');
    runBtn.type = 'submit';
    runBtn.textContent = t('skillRun');
    const cancel = document.createElement('button');
    cancel.type = 'button';
    cancel.className = 'ghost';
    cancel.textContent = t('skillCancel');
    cancel.addEventListener('click', () => { hide(); onCancel(); });
    const row = document.createElement('div');
    row.className = 'actions';
    row.append(cancel, runBtn);
    return row;
  }

  return { show, hide };
}
