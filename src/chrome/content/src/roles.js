// ARIA roles: the explicit role attribute or the implicit role of an HTML element (HTML-AAM
// "HTML Element Role Mappings"), and what each role means for naming and acting.
/** Roles the outline knows; an unknown token in role="" falls through to the next (wai-aria §7.1). */
const KNOWN = new Set(('alert alertdialog application article banner blockquote button caption cell checkbox code columnheader combobox ' +
  'complementary contentinfo definition deletion dialog directory document emphasis feed figure form generic grid gridcell group heading img ' +
  'insertion link list listbox listitem log main mark marquee math menu menubar menuitem menuitemcheckbox menuitemradio meter navigation none ' +
  'note option paragraph presentation progressbar radio radiogroup region row rowgroup rowheader scrollbar search searchbox separator slider ' +
  'spinbutton status strong subscript superscript switch tab table tablist tabpanel term textbox time timer toolbar tooltip tree treegrid treeitem').split(' '));

/** Widgets a user operates: every one gets a ref. */
const WIDGET = new Set(['button', 'link', 'textbox', 'searchbox', 'checkbox', 'radio', 'combobox', 'listbox', 'option', 'slider',
  'spinbutton', 'switch', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'treeitem', 'gridcell', 'scrollbar']);

/** Roles that take their name from their content (accname 1.2 §4.3.2, "name from content" roles). */
const NAME_FROM_CONTENT = new Set(['button', 'cell', 'checkbox', 'columnheader', 'gridcell', 'heading', 'link', 'menuitem',
  'menuitemcheckbox', 'menuitemradio', 'option', 'radio', 'row', 'rowheader', 'switch', 'tab', 'tooltip', 'treeitem', 'caption', 'code',
  'deletion', 'emphasis', 'insertion', 'mark', 'strong', 'subscript', 'superscript', 'term', 'time', 'legend']);

const LANDMARK = new Set(['banner', 'navigation', 'main', 'contentinfo', 'complementary', 'form', 'region', 'search']);

const INPUT = /** @type {Record<string, string>} */ ({
  button: 'button', submit: 'button', reset: 'button', image: 'button', checkbox: 'checkbox', radio: 'radio', range: 'slider',
  number: 'spinbutton', search: 'searchbox', email: 'textbox', tel: 'textbox', text: 'textbox', url: 'textbox', password: 'textbox',
  date: 'textbox', 'datetime-local': 'textbox', month: 'textbox', time: 'textbox', week: 'textbox', file: 'button', color: 'button',
});

const SIMPLE = /** @type {Record<string, string>} */ ({
  article: 'article', aside: 'complementary', blockquote: 'blockquote', button: 'button', caption: 'caption', code: 'code',
  datalist: 'listbox', del: 'deletion', details: 'group', dialog: 'dialog', dd: 'definition', dfn: 'term', dt: 'term',
  em: 'emphasis', fieldset: 'group', figure: 'figure', hr: 'separator', ins: 'insertion', li: 'listitem', main: 'main', mark: 'mark',
  math: 'math', menu: 'list', meter: 'meter', nav: 'navigation', ol: 'list', optgroup: 'group', option: 'option', output: 'status',
  p: 'paragraph', progress: 'progressbar', search: 'search', strong: 'strong', sub: 'subscript', summary: 'button', sup: 'superscript',
  table: 'table', tbody: 'rowgroup', thead: 'rowgroup', tfoot: 'rowgroup', textarea: 'textbox', time: 'time', tr: 'row', ul: 'list',
  h1: 'heading', h2: 'heading', h3: 'heading', h4: 'heading', h5: 'heading', h6: 'heading', legend: 'legend',
});

/** Sectioning content that turns header/footer into plain generics (HTML-AAM: header/footer "scoped to body"). */
const SECTIONING = new Set(['article', 'aside', 'main', 'nav', 'section']);

/**
 * @param {Element} el @param {string} [tag] el.localName, when the caller has it
 * @returns {string} the implicit role of an HTML element, '' when it has none worth naming
 */
function implicitRole(el, tag = el.localName) {
  const simple = SIMPLE[tag];
  if (simple) return simple;
  switch (tag) {
    case 'a': case 'area': return el.hasAttribute('href') ? 'link' : '';
    case 'input': {
      const input = /** @type {HTMLInputElement} */ (el);
      if (input.type === 'hidden') return '';
      // HTML-AAM: a text-like input with a list attribute is a combobox.
      if (input.list && /^(text|search|tel|url|email)$/.test(input.type)) return 'combobox';
      return INPUT[input.type] ?? 'textbox';
    }
    case 'select': {
      const s = /** @type {HTMLSelectElement} */ (el);
      return s.multiple || s.size > 1 ? 'listbox' : 'combobox';
    }
    case 'img': return el.getAttribute('alt') === '' && !el.hasAttribute('title') ? 'presentation' : 'img';
    case 'svg': return 'img';
    case 'td': return closestTableRole(el) === 'grid' || closestTableRole(el) === 'treegrid' ? 'gridcell' : 'cell';
    case 'th': return el.getAttribute('scope') === 'row' ? 'rowheader' : 'columnheader';
    case 'header': return inSectioning(el) ? '' : 'banner';
    case 'footer': return inSectioning(el) ? '' : 'contentinfo';
    case 'section': return hasName(el) ? 'region' : '';
    case 'form': return 'form';
    default: return '';
  }
}

/** @param {Element} el */
function hasName(el) {
  return !!(el.getAttribute('aria-label')?.trim() || el.getAttribute('aria-labelledby')?.trim() || el.getAttribute('title')?.trim());
}

/** @param {Element} el */
function inSectioning(el) {
  for (let p = el.parentElement; p; p = p.parentElement) if (SECTIONING.has(p.localName)) return true;
  return false;
}

/** @param {Element} el */
function closestTableRole(el) {
  const table = el.closest('table');
  return table ? table.getAttribute('role') ?? 'table' : '';
}

/**
 * The element's role: the first known token of role="" (wai-aria §7.1), else the implicit role.
 * Presentational roles are ignored on focusable elements (wai-aria §9.1 "Presentational Roles
 * Conflict Resolution").
 * @param {Element} el @returns {string}
 */
function roleOf(el) {
  const attr = el.getAttribute('role');
  if (attr) {
    for (const token of attr.trim().toLowerCase().split(/\s+/)) {
      if (!KNOWN.has(token)) continue;
      if ((token === 'none' || token === 'presentation') && focusable(el)) break;
      return token === 'presentation' ? 'none' : token;
    }
  }
  return implicitRoleOf(el);
}

/** The role of an element without a role attribute (presentation as none). @param {Element} el @param {string} [tag] el.localName */
function implicitRoleOf(el, tag = el.localName) {
  const implicit = implicitRole(el, tag);
  return implicit === 'presentation' ? 'none' : implicit;
}

/** @param {Element} el */
function focusable(el) {
  if (el.hasAttribute('tabindex')) return true;
  return /^(a|button|input|select|textarea)$/.test(el.localName) && !(/** @type {HTMLButtonElement} */ (el).disabled) && (el.localName !== 'a' || el.hasAttribute('href'));
}

export { roleOf, implicitRole, implicitRoleOf, focusable, WIDGET, NAME_FROM_CONTENT, LANDMARK };
