// The panel's skills: buttons for the skills that match the current page, a form for a skill's
// parameters, and "/" commands in the message box with completion (docs/SKILLS.md).
/** @import { Skill } from '../types/knowledge' */
import { skillTitle } from './skill-titles.js';
import { createSkillParams } from './skill-params.js';
import { createSlashMenu } from './slash-menu.js';
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
  const form = createSkillParams(params, t, () => prompt.focus());
  const slash = createSlashMenu(menu, prompt, () => skills);

  async function refresh() {
    const id = tabId();
    if (id === null) return;
    const r = await request({ type: 'skills.list', tabId: id });
    skills = r.ok ? /** @type {{ skills: Skill[] }} */ (r.data).skills : [];
    renderBar();
    if (slash.open) slash.render();
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
      more.addEventListener('click', () => { prompt.value = '/'; prompt.focus(); slash.render(); });
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
    if (missing.length || (s.parameters.length && !(s.parameters.length === 1 && rest))) { form.show(s, values, (v) => run(s, v)); return; }
    await run(s, values);
  }

  /** @param {Skill} s @param {Record<string, string>} values */
  async function run(s, values) {
    const id = tabId();
    if (id === null) return;
    showStatus('');
    const r = await request({ type: 'skills.run', tabId: id, name: s.name, values });
    if (r.ok) { prompt.value = ''; form.hide(); } else showStatus(r.message);
  }

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
