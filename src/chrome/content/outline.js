// A first page outline: one line per meaningful node, indented, with a ref on every actionable
// element. Refs stay the same for the same element for the life of the page.
// Classic script (content scripts cannot be modules); shares state through globalThis.Tabwright.
(() => {
  if (globalThis.Tabwright?.outline) return;

  /** @type {Map<string, WeakRef<Element>>} */
  const byRef = new Map();
  /** @type {WeakMap<Element, string>} */
  const refOf = new WeakMap();
  let nextRef = 1;

  const SKIP_TAGS = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'META', 'LINK', 'SVG', 'CANVAS', 'IFRAME']);
  const LANDMARKS = { HEADER: 'banner', NAV: 'navigation', MAIN: 'main', FOOTER: 'contentinfo', ASIDE: 'complementary', FORM: 'form' };
  const INPUT_ROLES = {
    button: 'button', submit: 'button', reset: 'button', image: 'button', checkbox: 'checkbox', radio: 'radio',
    range: 'slider', number: 'spinbutton', search: 'searchbox', email: 'textbox', tel: 'textbox', text: 'textbox',
    url: 'textbox', password: 'textbox', date: 'textbox', 'datetime-local': 'textbox', month: 'textbox', time: 'textbox', week: 'textbox', file: 'button', color: 'button',
  };
  const INTERACTIVE_ROLES = new Set(['button', 'link', 'textbox', 'searchbox', 'checkbox', 'radio', 'combobox', 'listbox', 'option', 'slider', 'spinbutton', 'switch', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'treeitem']);

  /** @param {Element} el */
  function roleOf(el) {
    const explicit = el.getAttribute('role');
    if (explicit) return explicit.split(/\s+/)[0];
    const tag = el.tagName;
    if (/^H[1-6]$/.test(tag)) return 'heading';
    switch (tag) {
      case 'A': return el.hasAttribute('href') ? 'link' : '';
      case 'BUTTON': return 'button';
      case 'SELECT': return /** @type {HTMLSelectElement} */ (el).multiple ? 'listbox' : 'combobox';
      case 'TEXTAREA': return 'textbox';
      case 'INPUT': return /** @type {Record<string, string>} */ (INPUT_ROLES)[/** @type {HTMLInputElement} */ (el).type] ?? (/** @type {HTMLInputElement} */ (el).type === 'hidden' ? '' : 'textbox');
      case 'IMG': return el.getAttribute('alt') === '' ? '' : 'img';
      case 'UL': case 'OL': return 'list';
      case 'LI': return 'listitem';
      case 'TABLE': return 'table';
      case 'TR': return 'row';
      case 'TD': return 'cell';
      case 'TH': return 'columnheader';
      case 'DIALOG': return 'dialog';
      case 'SUMMARY': return 'button';
      default: return /** @type {Record<string, string>} */ (LANDMARKS)[tag] ?? '';
    }
  }

  /** @param {Element} el */
  function hidden(el) {
    if (el.hasAttribute('hidden') || el.getAttribute('aria-hidden') === 'true' || el.hasAttribute('inert')) return true;
    const s = getComputedStyle(el);
    return s.display === 'none' || s.visibility === 'hidden';
  }

  /** @param {string | null | undefined} s */
  function clean(s) {
    return (s ?? '').replace(/\s+/g, ' ').trim();
  }

  /** @param {Element} el @param {string} role */
  function nameOf(el, role) {
    const labelledby = el.getAttribute('aria-labelledby');
    if (labelledby) {
      const text = labelledby.split(/\s+/).map((id) => clean(document.getElementById(id)?.textContent)).join(' ').trim();
      if (text) return text;
    }
    const aria = clean(el.getAttribute('aria-label'));
    if (aria) return aria;
    if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) {
      const labels = el.labels ? [...el.labels].map((l) => clean(l.textContent)).filter(Boolean) : [];
      if (labels.length) return labels.join(' ');
      if (el instanceof HTMLInputElement && ['submit', 'button', 'reset'].includes(el.type)) return clean(el.value) || (el.type === 'submit' ? 'Submit' : '');
      if (el instanceof HTMLInputElement && el.type === 'image') return clean(el.alt);
      return clean(el.getAttribute('title')) || clean(el.getAttribute('placeholder'));
    }
    if (el.tagName === 'IMG') return clean(el.getAttribute('alt')) || clean(el.getAttribute('title'));
    if (['button', 'link', 'heading', 'tab', 'menuitem', 'option', 'cell', 'columnheader', 'treeitem', 'switch', 'checkbox', 'radio'].includes(role)) {
      const text = clean(/** @type {HTMLElement} */ (el).innerText ?? el.textContent);
      if (text) return text.slice(0, 120);
      const img = el.querySelector('img[alt]');
      if (img) return clean(img.getAttribute('alt'));
    }
    return clean(el.getAttribute('title'));
  }

  /** @param {Element} el @param {string} role */
  function isActionable(el, role) {
    if (INTERACTIVE_ROLES.has(role)) return true;
    if (el instanceof HTMLElement && (el.isContentEditable && el.getAttribute('contenteditable') !== null)) return true;
    if (el.hasAttribute('onclick')) return true;
    const tabindex = el.getAttribute('tabindex');
    return tabindex !== null && Number(tabindex) >= 0;
  }

  /** @param {Element} el */
  function refFor(el) {
    let ref = refOf.get(el);
    if (!ref) {
      ref = `e${nextRef++}`;
      refOf.set(el, ref);
      byRef.set(ref, new WeakRef(el));
    }
    return ref;
  }

  /** @param {Element} el @param {string} role */
  function states(el, role) {
    const out = [];
    if (role === 'heading') out.push(`level=${/^H([1-6])$/.exec(el.tagName)?.[1] ?? el.getAttribute('aria-level') ?? 2}`);
    if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) { if (el.checked) out.push('checked'); }
    else if (el.getAttribute('aria-checked') === 'true') out.push('checked');
    if (el.getAttribute('aria-expanded')) out.push(`expanded=${el.getAttribute('aria-expanded')}`);
    if (el.getAttribute('aria-selected') === 'true') out.push('selected');
    if (el.getAttribute('aria-pressed') === 'true') out.push('pressed');
    if (/** @type {HTMLButtonElement} */ (el).disabled || el.getAttribute('aria-disabled') === 'true') out.push('disabled');
    if (/** @type {HTMLInputElement} */ (el).required) out.push('required');
    if (document.activeElement === el) out.push('focused');
    if (el instanceof HTMLInputElement && el.type === 'password') out.push('password');
    return out;
  }

  /** A field's current value, never a password's. @param {Element} el */
  function valueOf(el) {
    if (el instanceof HTMLInputElement) {
      if (el.type === 'password') return el.value ? '(filled)' : '';
      if (['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file'].includes(el.type)) return '';
      return el.value;
    }
    if (el instanceof HTMLTextAreaElement) return el.value;
    if (el instanceof HTMLSelectElement) return [...el.selectedOptions].map((o) => clean(o.textContent)).join(', ');
    return '';
  }

  /**
   * @param {{ maxChars?: number }} [opts]
   */
  function build(opts = {}) {
    const maxChars = opts.maxChars ?? 40_000;
    /** @type {string[]} */
    const lines = [];
    let chars = 0;
    let truncated = false;
    let refCount = 0;

    /** @param {number} depth @param {string} line */
    function emit(depth, line) {
      if (truncated) return;
      const full = `${'  '.repeat(depth)}- ${line}`;
      if (chars + full.length > maxChars) { truncated = true; return; }
      lines.push(full);
      chars += full.length + 1;
    }

    /** @param {Node} node @param {number} depth */
    function walk(node, depth) {
      if (truncated) return;
      if (node.nodeType === Node.TEXT_NODE) {
        const text = clean(node.textContent);
        if (text) emit(depth, `text: ${JSON.stringify(text.slice(0, 300))}`);
        return;
      }
      if (!(node instanceof Element)) return;
      if (SKIP_TAGS.has(node.tagName.toUpperCase()) && node.tagName !== 'svg') return;
      if (node.tagName === 'svg') return;
      if (hidden(node)) return;
      const role = roleOf(node);
      const actionable = isActionable(node, role);
      const name = role || actionable ? nameOf(node, role) : '';
      let childDepth = depth;
      // Named controls state their own text; their subtree would only repeat it.
      let descend = true;
      if (role || actionable) {
        const parts = [role || 'generic'];
        if (name) parts.push(JSON.stringify(name));
        const value = valueOf(node);
        if (value) parts.push(`value=${JSON.stringify(value.slice(0, 200))}`);
        parts.push(...states(node, role).map((s) => `[${s}]`));
        if (actionable) { parts.push(`[ref=${refFor(node)}]`); refCount++; }
        emit(depth, parts.join(' '));
        childDepth = depth + 1;
        if (name && ['button', 'link', 'heading', 'option', 'tab', 'menuitem', 'img', 'checkbox', 'radio', 'switch'].includes(role)) descend = false;
        if (node instanceof HTMLSelectElement || node instanceof HTMLTextAreaElement) descend = false;
      }
      if (!descend) return;
      const root = node.shadowRoot ?? node;
      for (const child of root.childNodes) walk(child, childDepth);
    }

    walk(document.body ?? document.documentElement, 0);
    let text = lines.join('\n');
    if (truncated) text += `\n[… outline truncated at ${maxChars} characters]`;
    return { text, refs: refCount, url: location.href, title: document.title, truncated };
  }

  /** @param {string} ref */
  function resolve(ref) {
    const el = byRef.get(ref)?.deref();
    return el && el.isConnected ? el : null;
  }

  const tw = globalThis.Tabwright = Object.assign(globalThis.Tabwright ?? { handlers: {} }, { outline: { build, resolve } });
  Object.assign(tw.handlers, {
    'content.ping': () => ({ ok: true, data: 'pong' }),
    'content.snapshot': (/** @type {{ maxChars?: number }} */ msg) => ({ ok: true, data: build({ maxChars: msg.maxChars }) }),
  });
})();
