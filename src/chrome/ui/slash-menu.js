// The "/" completion list under the message box: the skills whose names start with (then contain)
// what follows "/", chosen with the arrow keys, Tab or Enter, or the mouse; Escape closes it.
/** @import { Skill } from '../types/knowledge' */

/** Entries shown at most. */
const SHOWN = 8;

/**
 * @param {HTMLUListElement} menu @param {HTMLTextAreaElement} prompt
 * @param {() => Skill[]} skills the current page's skills
 */
export function createSlashMenu(menu, prompt, skills) {
  let selected = 0;

  /** The skills whose names start with what follows "/" (then those containing it). */
  function candidates() {
    const m = /^\/([a-z0-9-]*)$/.exec(prompt.value);
    if (!m) return null;
    const q = m[1];
    const all = skills();
    return [...all.filter((s) => s.name.startsWith(q)), ...all.filter((s) => !s.name.startsWith(q) && s.name.includes(q))];
  }

  function render() {
    const list = candidates();
    if (!list || !list.length) { menu.hidden = true; prompt.removeAttribute('aria-activedescendant'); return; }
    selected = Math.min(selected, list.length - 1);
    menu.replaceChildren(...list.slice(0, SHOWN).map((s, i) => entry(s, i === selected)));
    menu.hidden = false;
    prompt.setAttribute('aria-activedescendant', `slash-${list[selected].name}`);
  }

  /** @param {Skill} s @param {boolean} isSelected */
  function entry(s, isSelected) {
    const li = document.createElement('li');
    li.id = `slash-${s.name}`;
    li.setAttribute('role', 'option');
    li.setAttribute('aria-selected', String(isSelected));
    li.dataset.skill = s.name;
    const name = document.createElement('strong');
    name.textContent = `/${s.name}`;
    const d = document.createElement('span');
    d.textContent = s.description;
    li.append(name, d);
    li.addEventListener('mousedown', (e) => { e.preventDefault(); complete(s); });
    return li;
  }

  /** @param {Skill} s */
  function complete(s) {
    prompt.value = `/${s.name} `;
    menu.hidden = true;
    prompt.focus();
  }

  /** @param {KeyboardEvent} e */
  function onKey(e) {
    if (menu.hidden) return;
    const list = candidates() ?? [];
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      selected = (selected + (e.key === 'ArrowDown' ? 1 : list.length - 1)) % Math.max(1, Math.min(list.length, SHOWN));
      render();
    } else if ((e.key === 'Tab' || e.key === 'Enter') && list[selected]) {
      e.preventDefault();
      e.stopImmediatePropagation();
      complete(list[selected]);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      menu.hidden = true;
    }
  }

  prompt.setAttribute('aria-controls', menu.id);
  prompt.addEventListener('input', () => { selected = 0; render(); });
  prompt.addEventListener('blur', () => { menu.hidden = true; });
  prompt.addEventListener('keydown', onKey);
  return { render, get open() { return !menu.hidden; } };
}
