// The page's capabilities in a few lines (seed 001, "MiniPCD"): its main actions, its forms
// (purpose, fields, submit control) and its collections of repeated items (inferred fields and
// counts), each with an inferred kind, capped at 30/20/20; and extract_data's rows.
import { tw } from './tabwright.js';
import { clean, isHidden } from './dom.js';
import * as Accname from './accname.js';
import * as A from './actionable.js';
import * as Outline from './outline.js';
import * as Refs from './refs.js';
import * as Secrets from './secrets.js';
import { fail } from '../../agent/error-codes.js';

const CAP = { actions: 30, forms: 20, collections: 20 };

/** Words that say what an action or form is for, checked against names, ids, classes and URLs. */
const KINDS = /** @type {[string, RegExp][]} */ ([
  ['consent', /\b(accept|agree|allow)\b.*\b(cookies?|all)\b|\bcookies?\b.*\b(accept|ok)\b/i],
  ['login', /\b(log ?in|sign ?in|anmelden|connexion|iniciar sesi[oó]n)\b/i],
  ['signup', /\b(sign ?up|register|create (an )?account|join now)\b/i],
  ['checkout', /\b(checkout|check out|place order|pay now|payment|buy now|purchase)\b/i],
  ['cart', /\b(add to (cart|bag|basket)|cart|basket|bag)\b/i],
  ['search', /\bsearch\b/i],
  ['pagination', /^(next|previous|prev|older|newer|more|load more|show more|[0-9]{1,3}|›|»|‹|«)$/i],
  ['subscribe', /\b(subscribe|newsletter)\b/i],
  ['download', /\bdownload\b/i],
  ['share', /\bshare\b/i],
]);

/** @param {string} text */
function kindOf(text) {
  for (const [kind, re] of KINDS) if (re.test(text)) return kind;
  return '';
}

/** @param {Element} el @param {string} role @param {string} name */
function ref(el, role, name) {
  return Refs.refOf(el) ?? Refs.refFor(el, { role, name, landmark: Outline.landmarkOf(el), index: 0 });
}

/** @param {Element} el */
function visible(el) { return !isHidden(el); }

const FIELD = 'input:not([type=hidden]):not([type=submit]):not([type=button]):not([type=reset]):not([type=image]), select, textarea, [role=textbox], [role=combobox], [role=searchbox], [contenteditable=""], [contenteditable=true]';

/** @param {Element} form */
function describeForm(form) {
  const fields = [...form.querySelectorAll(FIELD)].filter(visible).slice(0, 20).map((f) => {
    const role = A.roleFor(f);
    const name = A.nameFor(f, role) || clean(f.getAttribute('name'));
    const type = f.localName === 'input' ? /** @type {HTMLInputElement} */ (f).type : f.localName === 'select' ? 'select' : f.localName === 'textarea' ? 'textarea' : role;
    return { ref: ref(f, role, name), name, type, ...(/** @type {HTMLInputElement} */ (f).required ? { required: true } : {}) };
  });
  const submitEl = [...form.querySelectorAll('button, input[type=submit], input[type=image], [role=button]')].filter(visible)
    .find((b) => b.localName !== 'button' || /** @type {HTMLButtonElement} */ (b).type === 'submit') ?? null;
  const submit = submitEl ? { ref: ref(submitEl, 'button', A.nameFor(submitEl, 'button')), name: A.nameFor(submitEl, 'button') } : null;
  const words = [form.getAttribute('action'), form.id, form.getAttribute('class'), form.getAttribute('aria-label'), form.getAttribute('role'), submit?.name,
    ...fields.map((f) => `${f.name} ${f.type}`)].join(' ');
  const passwords = fields.filter((f) => f.type === 'password').length;
  const kind = passwords >= 2 ? 'signup'
    : passwords === 1 ? (kindOf(words) === 'signup' ? 'signup' : 'login')
      : /\b(card ?number|cvc|cvv|expir)/i.test(words) ? 'checkout'
        : fields.some((f) => f.type === 'search') || form.getAttribute('role') === 'search' || form.closest('[role=search], search') ? 'search'
          : kindOf(words) || (fields.some((f) => f.type === 'textarea') ? 'contact' : fields.length === 1 && fields[0].type === 'email' ? 'subscribe' : 'form');
  return { kind, name: Accname.name(form) || undefined, fields, submit };
}

function forms() {
  /** @type {Element[]} */
  const found = [...document.querySelectorAll('form, [role=form], [role=search]')].filter((f) => visible(f) && f.querySelector(FIELD));
  return found.filter((f) => !found.some((o) => o !== f && o.contains(f))).slice(0, CAP.forms).map(describeForm).filter((f) => f.fields.length);
}

function actions() {
  const out = [];
  const seen = new Set();
  for (const el of document.querySelectorAll('a[href], button, [role=button], [role=link], input[type=submit], input[type=button], summary')) {
    if (!visible(el) || el.closest('form')) continue;
    const role = A.roleFor(el);
    const name = A.nameFor(el, role);
    if (!name) continue;
    const kind = kindOf(name) || (el.getAttribute('rel') === 'next' ? 'pagination' : '');
    // Links are the page's navigation, summarised by the outline; only the ones with a purpose count here.
    if (role === 'link' && !kind) continue;
    const key = `${role}:${name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ ref: ref(el, role, name), role, name: name.slice(0, 60), ...(kind ? { kind } : {}) });
    if (out.length >= CAP.actions) break;
  }
  return out;
}

// ---- collections ----

/** @type {Map<string, { container: WeakRef<Element>, sig: string }>} */
let known = new Map();

/** @param {Element} el */
function signature(el) { return `${el.localName}.${[...el.classList].filter((c) => !/\d/.test(c)).sort().join('.')}`; }

const PRICE = /(?:[$€£¥₹]\s?\d[\d.,]*|\d[\d.,]*\s?(?:€|EUR|USD|GBP|zł|kr))/;

/** The fields one item offers. @param {Element} item @returns {Record<string, string>} */
function fieldsOf(item) {
  /** @type {Record<string, string>} */
  const f = {};
  const heading = item.querySelector('h1, h2, h3, h4, h5, h6, [role=heading]');
  const link = /** @type {HTMLAnchorElement | null} */ (item.localName === 'a' ? item : item.querySelector('a[href]'));
  const title = clean(heading?.textContent) || (link ? Accname.name(link) : '');
  if (title) f.title = title.slice(0, 150);
  if (link && link.href) f.link = link.href;
  const text = clean(/** @type {HTMLElement} */ (item).innerText ?? item.textContent);
  const price = PRICE.exec(text);
  if (price) f.price = price[0].trim();
  const img = item.querySelector('img');
  if (img && (img.getAttribute('alt') || img.getAttribute('src'))) f.image = clean(img.getAttribute('alt')) || /** @type {HTMLImageElement} */ (img).src;
  const time = item.querySelector('time');
  if (time) f.date = time.getAttribute('datetime') ?? clean(time.textContent);
  if (text) f.text = text.slice(0, 200);
  return f;
}

/** @param {Element} container @param {string} sig */
function itemsOf(container, sig) {
  return [...container.children].filter((c) => signature(c) === sig && visible(c));
}

function collections() {
  /** @type {{ container: Element, sig: string, items: Element[], score: number }[]} */
  const candidates = [];
  for (const el of document.body.querySelectorAll('*')) {
    if (el.children.length < 3) continue;
    /** @type {Map<string, number>} */
    const counts = new Map();
    for (const c of el.children) counts.set(signature(c), (counts.get(signature(c)) ?? 0) + 1);
    let best = '', n = 0;
    for (const [sig, k] of counts) if (k > n) { best = sig; n = k; }
    if (n < 3 || /^(script|style|option|br|tr\.)/.test(best)) continue;
    const items = itemsOf(el, best);
    if (items.length < 3) continue;
    const rich = items.slice(0, 5).filter((i) => i.querySelector('a[href], button') && clean(i.textContent).length > 2).length;
    if (rich < 3 && !(rich >= 2 && items.length <= 4)) continue;
    candidates.push({ container: el, sig: best, items, score: items.length * Math.min(40, clean(items[0].textContent).length) });
  }
  candidates.sort((a, b) => b.score - a.score);
  /** @type {typeof candidates} */
  const chosen = [];
  for (const c of candidates) {
    if (chosen.some((o) => o.container.contains(c.container) || c.container.contains(o.container))) continue;
    chosen.push(c);
    if (chosen.length >= CAP.collections) break;
  }
  chosen.sort((a, b) => (a.container.compareDocumentPosition(b.container) & 4 ? -1 : 1));
  known = new Map();
  return chosen.map((c, i) => {
    const id = `c${i + 1}`;
    known.set(id, { container: new WeakRef(c.container), sig: c.sig });
    const sample = c.items.slice(0, 10).map(fieldsOf);
    const fields = ['title', 'link', 'price', 'image', 'date', 'text'].filter((k) => sample.filter((s) => k in s).length >= Math.ceil(sample.length / 2));
    const label = clean(c.container.getAttribute('aria-label')) || headingBefore(c.container);
    const kind = c.container.closest('nav, [role=navigation]') ? 'navigation' : fields.includes('price') ? 'products' : fields.includes('date') ? 'articles' : 'items';
    return { id, kind, ...(label ? { name: label } : {}), count: c.items.length, fields, example: sample[0]?.title ?? '' };
  });
}

/** The nearest heading before an element, as a collection's name. @param {Element} el */
function headingBefore(el) {
  const own = el.querySelector(':scope > h1, :scope > h2, :scope > h3');
  if (own) return clean(own.textContent).slice(0, 80);
  for (let e = /** @type {Element | null} */ (el); e && e !== document.body; e = e.parentElement) {
    for (let s = e.previousElementSibling; s; s = s.previousElementSibling) {
      const h = /^h[1-6]$/.test(s.localName) ? s : s.querySelector('h1, h2, h3, h4, h5, h6');
      if (h) return clean(h.textContent).slice(0, 80);
    }
  }
  return '';
}

/** @returns {import('../../types/core').ToolResult} */
function summary() {
  // Names and example texts could show a token (an API key in a list of keys): masked.
  return { ok: true, data: Secrets.maskDeep({ url: location.href, title: document.title, actions: actions(), forms: forms(), collections: collections() }) };
}

/** @param {string} id @param {string[] | undefined} fields @param {number} [limit] @returns {import('../../types/core').ToolResult} */
function extract(id, fields, limit = 100) {
  if (!known.size) collections();
  const entry = known.get(id);
  const container = entry?.container.deref();
  if (!entry || !container || !container.isConnected) {
    const ids = [...known.keys()].join(', ') || 'none';
    return fail('UNKNOWN_COLLECTION', `"${id}"; the page has ${ids}: call page_capabilities again and use one of its collection ids`);
  }
  const rows = itemsOf(container, entry.sig).slice(0, limit).map((item) => {
    const all = fieldsOf(item);
    if (!fields || !fields.length) return all;
    return Object.fromEntries(fields.map((k) => [k, all[k] ?? null]));
  });
  return { ok: true, data: { collection: id, count: itemsOf(container, entry.sig).length, rows: Secrets.maskDeep(rows) } };
}

export { summary, extract, kindOf };
Object.assign(tw.handlers, {
  'content.capabilities': () => summary(),
  'content.extract': (/** @type {{ collection: string, fields?: string[], limit?: number }} */ msg) => extract(msg.collection, msg.fields, msg.limit),
});
