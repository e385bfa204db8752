// The panel's skills: buttons for the skills that match the current page, a form for a skill's
// parameters, and "/" commands in the message box with completion (docs/SKILLS.md).
/** @import { Skill } from '../types/knowledge' */
import { skillTitle } from './skill-titles.js';
/** @import { RouterReply, RouterRequest } from '../types/messages' */

/** Buttons shown at most (one row at the panel's usual width); the rest are reached with "/". */
const MAX_BUTTONS = 4;

/**
 * @param {object} deps
 * @param {HTMLElement} deps.bar the row of skill buttons
 * @param {HTMLFormElement} deps.params the parameter form
 * @param {HTMLUListElement} deps.menu the "/" completion list
 * @param {HTMLTextAreaElement} deps.prompt
 * @param {(req: RouterRequest) => Promise<RouterReply>} deps.request
 * @param {(key: string, subs?: string | string[]) => string} deps.t
 * @param {() => number | null} deps.tabId
 * @param {(message: string) => void} deps.showStatus
 * @param {() => boolean} deps.busy
 */
export function createSkillsBar({ bar, params, menu, prompt, request, t, tabId, showStatus, busy }) {
  /** Skills for the current page, site-specific first. @type {Skill[]} */
  let skills = [];
  let selected = 0;

  async function refresh() {
    const id = tabId();
    if (id === null) return;
    const r = await request({ type: 'skills.list', tabId: id });
    skills = r.ok ? /** @type {{ skills: Skill[] }} */ (r.data).skills : [];
    renderBar();
    if (!menu.hidden) renderMenu();
  }

  function renderBar() {
    bar.replaceChildren(...skills.slice(0, MAX_BUTTONS).map((s) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = `chip${s.match.length ? ' site' : ''}`;
      b.textContent = skillTitle(s, t);
      b.title = `/${s.name}: ${s.description}`;
      b.dataset.skill = s.name;
      b.addEventListener('click', () => start(s, ''));
      return b;
    }));
    if (skills.length > MAX_BUTTONS) {
      // The rest: "/" in the message box lists them all.
      const more = document.createElement('button');
      more.type = 'button';
      more.className = 'chip more-skills';
      more.textContent = t('skillsMore', [String(skills.length - MAX_BUTTONS)]);
      more.addEventListener('click', () => { prompt.value = '/'; prompt.focus(); renderMenu(); });
      bar.append(more);
    }
    bar.hidden = skills.length === 0;
  }

  /**
   * Runs a skill, or asks for its parameters first. `rest`, typed after "/name", is the first
   * parameter's value.
   * @param {Skill} s @param {string} rest
   */
  async function start(s, rest) {
    if (busy()) return;
    const first = s.parameters[0];
    /** @type {Record<string, string>} */
    const values = first && rest ? { [first.name]: rest } : {};
    const missing = s.parameters.filter((p) => p.default === undefined && !values[p.name]);
    // Optional parameters are offered too, unless the command line already answered the only one.
    if (missing.length || (s.parameters.length && !(s.parameters.length === 1 && rest))) { showParams(s, values); return; }
    await run(s, values);
  }

  /** @param {Skill} s @param {Record<string, string>} values */
  async function run(s, values) {
    const id = tabId();
    if (id === null) return;
    showStatus('');
    const r = await request({ type: 'skills.run', tabId: id, name: s.name, values });
    if (r.ok) { prompt.value = ''; hideParams(); } else showStatus(r.message);
  }

  /** @param {Skill} s @param {Record<string, string>} values */
  function showParams(s, values) {
    const title = document.createElement('p');
    title.className = 'skill-params-title';
    title.textContent = t('skillParamsTitle', [skillTitle(s, t)]);
    const fields = s.parameters.map((p) => {
      const label = document.createElement('label');
      const caption = document.createElement('span');
      caption.textContent = p.description + (p.default === undefined ? ' *' : '');
      const input = document.createElement('input');
      input.name = p.name;
      input.value = values[p.name] ?? '';
      if (p.default !== undefined) input.placeholder = p.default;
      input.required = p.default === undefined;
      label.append(caption, input);
      return label;
    });
    const runBtn = document.createElement('button');
    runBtn.type = 'submit';
    runBtn.textContent = t('skillRun');
    const cancel = document.createElement('button');
    cancel.type = 'button';
    cancel.className = 'ghost';
    cancel.textContent = t('skillCancel');
    cancel.addEventListener('click', () => { hideParams(); prompt.focus(); });
    const actions = document.createElement('div');
    actions.className = 'actions';
    actions.append(cancel, runBtn);
    params.replaceChildren(title, ...fields, actions);
    params.dataset.skill = s.name;
    params.hidden = false;
    params.onsubmit = (e) => {
      e.preventDefault();
      /** @type {Record<string, string>} */
      const v = {};
      for (const input of params.querySelectorAll('input')) v[input.name] = input.value;
      run(s, v);
    };
    /** @type {HTMLInputElement | null} */ (params.querySelector('input'))?.focus();
  }

  function hideParams() {
    params.hidden = true;
    params.replaceChildren();
    delete params.dataset.skill;
  }

  /** The skills whose names start with what follows "/" (then those containing it). */
  function candidates() {
    const m = /^\/([a-z0-9-]*)$/.exec(prompt.value);
    if (!m) return null;
    const q = m[1];
    return [...skills.filter((s) => s.name.startsWith(q)), ...skills.filter((s) => !s.name.startsWith(q) && s.name.includes(q))];
  }

  function renderMenu() {
    const list = candidates();
    if (!list || !list.length) { menu.hidden = true; prompt.removeAttribute('aria-activedescendant'); return; }
    selected = Math.min(selected, list.length - 1);
    menu.replaceChildren(...list.slice(0, 8).map((s, i) => {
      const li = document.createElement('li');
      li.id = `slash-${s.name}`;
      li.setAttribute('role', 'option');
      li.setAttribute('aria-selected', String(i === selected));
      li.dataset.skill = s.name;
      const name = document.createElement('strong');
      name.textContent = `/${s.name}`;
      const d = document.createElement('span');
      d.textContent = s.description;
      li.append(name, d);
      li.addEventListener('mousedown', (e) => { e.preventDefault(); complete(s); });
      return li;
    }));
    menu.hidden = false;
    prompt.setAttribute('aria-activedescendant', `slash-${list[selected].name}`);
  }

  /** @param {Skill} s */
  function complete(s) {
    prompt.value = `/${s.name} `;
    menu.hidden = true;
    prompt.focus();
  }

  prompt.setAttribute('aria-controls', menu.id);
  prompt.addEventListener('input', () => { selected = 0; renderMenu(); });
  prompt.addEventListener('blur', () => { menu.hidden = true; });
  prompt.addEventListener('keydown', (e) => {
    if (menu.hidden) return;
    const list = candidates() ?? [];
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      selected = (selected + (e.key === 'ArrowDown' ? 1 : list.length - 1)) % Math.max(1, Math.min(list.length, 8));
      renderMenu();
    } else if ((e.key === 'Tab' || e.key === 'Enter') && list[selected]) {
      e.preventDefault();
      e.stopImmediatePropagation();
      complete(list[selected]);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      menu.hidden = true;
    }
  });

  return {
    refresh,
    /**
     * A message starting with "/name": runs that skill. Returns false when the text is no command.
     * @param {string} text
     */
    async command(text) {
      const m = /^\/([a-z0-9-]+)(?:\s+([\s\S]*))?$/.exec(text.trim());
      if (!m) return false;
      const s = skills.find((x) => x.name === m[1]);
      if (!s) { showStatus(t('skillUnknown', [m[1]])); return true; }
      await start(s, (m[2] ?? '').trim());
      return true;
    },
  };
}
