// The header's overflow menu: below 480 px the secondary actions (New chat, History, Jobs,
// Settings) move into a "More" menu, so the header fits a 240 px sidebar in every locale. Each
// menu item presses the header button it stands for, so the two never disagree.

/** @param {{ button: HTMLButtonElement, menu: HTMLElement }} els */
export function setupMoreMenu({ button, menu }) {
  const items = () => /** @type {HTMLButtonElement[]} */ ([...menu.querySelectorAll('[role=menuitem]')]);

  /** @param {boolean} open @param {boolean} [focus] */
  function toggle(open, focus = true) {
    menu.hidden = !open;
    button.setAttribute('aria-expanded', String(open));
    if (open && focus) items()[0]?.focus();
    else if (!open && focus) button.focus();
  }

  button.addEventListener('click', () => toggle(Boolean(menu.hidden)));
  for (const item of items()) {
    item.addEventListener('click', () => {
      toggle(false, false);
      /** @type {HTMLButtonElement | null} */ (document.getElementById(item.dataset.for ?? ''))?.click();
    });
  }
  menu.addEventListener('keydown', (e) => {
    const list = items();
    const at = list.indexOf(/** @type {HTMLButtonElement} */ (document.activeElement));
    if (e.key === 'Escape') { e.preventDefault(); e.stopPropagation(); toggle(false); }
    else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      list[(at + (e.key === 'ArrowDown' ? 1 : list.length - 1)) % list.length]?.focus();
    } else if (e.key === 'Home' || e.key === 'End') { e.preventDefault(); list[e.key === 'Home' ? 0 : list.length - 1]?.focus(); }
  });
  // A click anywhere else closes it.
  document.addEventListener('pointerdown', (e) => {
    if (!menu.hidden && !menu.contains(/** @type {Node} */ (e.target)) && !button.contains(/** @type {Node} */ (e.target))) toggle(false, false);
  });
}
