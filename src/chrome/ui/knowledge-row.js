// Settings → site adapters and skills: one item's row (on/off, View, Edit, Delete for the user's own)
// and the editor's list of wrong fields.
/** @import { RouterReply, RouterRequest } from '../types/messages' */
/** @import { ListKind } from './options-knowledge.js' */

/**
 * @template {{ source: string }} T
 * @param {ListKind<T>} kind @param {T} item
 * @param {{ t: (key: string, subs?: string | string[]) => string, request: (req: RouterRequest) => Promise<RouterReply>, say: (text: string, failed?: boolean) => void, reload: () => Promise<void>, edit: (text: string) => void }} deps
 */
export function knowledgeRow(kind, item, { t, request, say, reload, edit }) {
  const li = document.createElement('li');
  li.dataset.key = kind.key(item);
  li.dataset.source = item.source;
  const head = document.createElement('div');
  head.className = 'row';
  const toggle = document.createElement('input');
  toggle.type = 'checkbox';
  toggle.checked = kind.enabled(item);
  toggle.disabled = !kind.canToggle(item);
  toggle.setAttribute('aria-label', t('knowledgeEnable', [kind.title(item)]));
  toggle.addEventListener('change', async () => {
    const r = await request(kind.setEnabled(item, toggle.checked));
    if (!r.ok) { toggle.checked = !toggle.checked; say(r.message, true); } else await reload();
  });
  const name = document.createElement('strong');
  name.textContent = kind.title(item);
  const meta = document.createElement('span');
  meta.className = 'meta';
  meta.textContent = kind.meta(item);
  const label = document.createElement('span');
  label.className = 'label';
  label.append(name, meta);
  const body = document.createElement('pre');
  body.className = 'kn-body';
  body.hidden = true;
  body.textContent = kind.body(item);
  const view = button(t('knowledgeView'), () => { body.hidden = !body.hidden; view.setAttribute('aria-expanded', String(!body.hidden)); });
  view.setAttribute('aria-expanded', 'false');
  head.append(toggle, label, view, button(t('knowledgeEdit'), () => edit(kind.file(item))));
  const removeReq = kind.remove(item);
  if (removeReq) head.append(button(t('knowledgeDelete'), async () => { const r = await request(removeReq); if (r.ok) { await reload(); say(t('knowledgeDeleted', [kind.title(item)])); } else say(r.message, true); }));
  li.append(head, body);
  return li;
}

/** @param {string} label @param {() => void} onClick */
function button(label, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'ghost small';
  b.textContent = label;
  b.addEventListener('click', onClick);
  return b;
}

/** Each wrong field on its own line, named. @param {HTMLElement} errors @param {RouterReply} r */
export function fieldErrors(errors, r) {
  if (r.ok) { errors.replaceChildren(); return; }
  const list = r.fields?.length ? r.fields : [{ field: '', message: r.message }];
  errors.replaceChildren(...list.map((e) => {
    const li = document.createElement('li');
    li.dataset.field = e.field;
    const f = document.createElement('strong');
    f.textContent = e.field ? `${e.field}: ` : '';
    li.append(f, document.createTextNode(e.message));
    return li;
  }));
}
