// inspect_styles in the page: one element's computed styles (the ones that decide layout and
// visibility, or those asked for) and its box. Registers content.styles.
import { tw } from './tabwright.js';
import * as Input from './input.js';

/** What decides where an element is, how big, and whether it can be seen and clicked. */
const DEFAULT = ['display', 'position', 'top', 'right', 'bottom', 'left', 'width', 'height', 'margin', 'padding', 'border', 'box-sizing',
  'color', 'background-color', 'background-image', 'font-family', 'font-size', 'font-weight', 'line-height', 'text-align',
  'visibility', 'opacity', 'z-index', 'overflow', 'pointer-events', 'cursor', 'transform', 'flex-direction', 'justify-content', 'align-items', 'gap', 'grid-template-columns'];

/** @param {{ target: any, properties?: string[], pseudo?: string }} msg */
function styles(msg) {
  const f = Input.find(msg.target);
  if (!('el' in f)) return f;
  const el = /** @type {Element} */ (f.el);
  const cs = getComputedStyle(el, msg.pseudo ?? null);
  const names = msg.properties?.length ? msg.properties : DEFAULT;
  /** @type {Record<string, string>} */
  const out = {};
  for (const n of names) {
    const v = cs.getPropertyValue(n.trim().toLowerCase());
    out[n] = v === '' ? '(not a property)' : v.slice(0, 300);
  }
  const r = el.getBoundingClientRect();
  const box = { x: Math.round(r.x), y: Math.round(r.y), width: Math.round(r.width), height: Math.round(r.height) };
  const tag = `${el.localName}${el.id ? `#${el.id}` : ''}${typeof el.className === 'string' && el.className.trim() ? `.${el.className.trim().split(/\s+/).slice(0, 3).join('.')}` : ''}`;
  return { ok: true, data: { element: tag, ...(msg.pseudo ? { pseudo: msg.pseudo } : {}), box, styles: out } };
}

export { styles };
Object.assign(tw.handlers, { 'content.styles': styles });
