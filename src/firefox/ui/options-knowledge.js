// The settings page's site adapters and skills: a searchable list (turn on and off, view, edit, delete
// your own), an editor that adds or overrides one in the same format as the bundled files (each wrong
// field named), and export / import. Changes are saved at once through the router.
/** @import { Adapter, Skill } from '../types/knowledge' */
/** @import { RouterReply, RouterRequest } from '../types/messages' */
import { formatAdapter } from '../agent/adapters/adapter-format.js';
import { formatSkill } from '../agent/skills/skill-text.js';
import { saveJson } from './save-file.js';
import { knowledgeRow, fieldErrors } from './knowledge-row.js';

/** Import files above this size are refused before reading. */
const MAX_FILE_BYTES = 2_000_000;

/**
 * @template {{ source: string }} T
 * @typedef {object} ListKind
 * @property {string} prefix the element ids' prefix ("adapters", "skills")
 * @property {() => RouterRequest} list
 * @property {(data: any) => T[]} items
 * @property {(item: T) => string} key
 * @property {(item: T) => string} title
 * @property {(item: T) => string} meta
 * @property {(item: T) => string} body what View shows
 * @property {(item: T) => string} file the item's file text, for Edit
 * @property {(item: T) => boolean} enabled
 * @property {(item: T) => boolean} canToggle
 * @property {(item: T, on: boolean) => RouterRequest} setEnabled
 * @property {(item: T) => RouterRequest | null} remove only the user's own can be deleted
 * @property {(text: string) => RouterRequest} save
 * @property {RouterRequest} exportReq
 * @property {(data: unknown) => RouterRequest} importReq
 * @property {string} template the editor's starting text for a new one
 */

/**
 * @template {{ source: string }} T
 * @param {ListKind<T>} kind
 * @param {{ t: (key: string, subs?: string | string[]) => string, request: (req: RouterRequest) => Promise<RouterReply> }} deps
 */
function setupList(kind, { t, request }) {
  const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(`${kind.prefix}-${id}`));
  const listEl = $('list');
  const search = /** @type {HTMLInputElement} */ ($('search'));
  const count = $('count');
  const editor = /** @type {HTMLTextAreaElement} */ ($('editor'));
  const editorBox = /** @type {HTMLDetailsElement} */ ($('editor-box'));
  const errors = $('errors');
  const result = $('result');
  /** @type {T[]} */
  let items = [];

  /** @param {string} text @param {boolean} [failed] */
  const say = (text, failed = false) => { result.textContent = text; result.classList.toggle('failed', failed); };

  async function load() {
    const r = await request(kind.list());
    if (!r.ok) { say(r.message, true); return; }
    items = kind.items(r.data);
    const problems = /** @type {{ file: string, errors: { field: string, message: string }[] }[]} */ (/** @type {any} */ (r.data).problems ?? []);
    if (problems.length) say(problems.map((p) => `${p.file}: ${p.errors.map((e) => `${e.field}: ${e.message}`).join(' ')}`).join('\n'), true);
    render();
  }

  function render() {
    const q = search.value.trim().toLowerCase();
    const shown = items.filter((i) => !q || `${kind.title(i)} ${kind.meta(i)} ${kind.key(i)}`.toLowerCase().includes(q));
    count.textContent = t('knowledgeCount', [String(shown.length), String(items.length)]);
    listEl.replaceChildren(...shown.map((item) => knowledgeRow(kind, item, { t, request, say, reload: load, edit })));
  }

  /** Opens the editor on a file's text. @param {string} text */
  function edit(text) {
    editor.value = text;
    errors.replaceChildren();
    editorBox.open = true;
    editor.focus();
  }

  search.addEventListener('input', render);
  $('new').addEventListener('click', () => edit(kind.template));
  $('save').addEventListener('click', async () => {
    const r = await request(kind.save(editor.value));
    fieldErrors(errors, r);
    if (r.ok) { editor.value = ''; editorBox.open = false; await load(); say(t('knowledgeSaved')); } else say(t('knowledgeNotSaved'), true);
  });
  $('export').addEventListener('click', async () => {
    const r = await request(kind.exportReq);
    if (!r.ok) { say(r.message, true); return; }
    saveJson(`tabwright-${kind.prefix}.json`, r.data);
  });
  const file = /** @type {HTMLInputElement} */ ($('import-file'));
  file.addEventListener('change', async () => {
    const f = file.files?.[0];
    file.value = '';
    if (!f) return;
    if (f.size > MAX_FILE_BYTES) { say(t('knowledgeImportTooLarge', [(f.size / 1e6).toFixed(1)]), true); return; }
    let data;
    try { data = JSON.parse(await f.text()); } catch { say(t('knowledgeImportNotJson'), true); return; }
    const r = await request(kind.importReq(data));
    fieldErrors(errors, r);
    if (r.ok) { await load(); say(t('knowledgeImported', [String(/** @type {any} */ (r.data).count)])); } else say(t('knowledgeImportFailed'), true);
  });
  return { load };
}

/** @param {{ t: (key: string, subs?: string | string[]) => string, request: (req: RouterRequest) => Promise<RouterReply> }} deps */
export function setupKnowledge(deps) {
  const { t } = deps;
  /** @type {ListKind<Adapter & { enabled: boolean, overridden: boolean }>} */
  const adapters = {
    prefix: 'adapters',
    list: () => ({ type: 'adapters.list' }),
    items: (d) => d.adapters,
    key: (a) => `${a.source}:${a.id}`,
    title: (a) => a.name,
    meta: (a) => [a.category, a.match.join(', '), a.risk === 'high' ? t('knowledgeHighRisk') : '', a.source === 'user' ? t('knowledgeYours') : '', a.overridden ? t('knowledgeOverridden') : ''].filter(Boolean).join(' · '),
    body: (a) => a.guidance,
    file: (a) => formatAdapter(a),
    enabled: (a) => a.enabled,
    canToggle: () => true,
    setEnabled: (a, on) => ({ type: 'adapters.setEnabled', id: a.id, enabled: on }),
    remove: (a) => (a.source === 'user' ? { type: 'adapters.remove', id: a.id } : null),
    save: (text) => ({ type: 'adapters.save', text }),
    exportReq: { type: 'adapters.export' },
    importReq: (data) => ({ type: 'adapters.import', data }),
    template: '---\nid: my-site\nname: My site\ncategory: other\nmatch: [my-site.example]\n---\n- Where things are, how the common task goes, which steps cannot be undone.\n',
  };
  /** @type {ListKind<Skill>} */
  const skills = {
    prefix: 'skills',
    list: () => ({ type: 'skills.list' }),
    items: (d) => d.skills,
    key: (s) => s.name,
    title: (s) => `${s.title} (/${s.name})`,
    meta: (s) => [s.mode, s.match.join(', ') || t('knowledgeAnyPage'), s.source === 'agent' ? t('knowledgeLearned') : s.source === 'user' ? t('knowledgeYours') : ''].filter(Boolean).join(' · '),
    body: (s) => s.body,
    file: (s) => formatSkill(s),
    enabled: (s) => !s.disabled,
    // Bundled skills are turned off; the user's and the agent's are deleted instead.
    canToggle: (s) => s.source === 'bundled',
    setEnabled: (s, on) => ({ type: 'skills.setEnabled', name: s.name, enabled: on }),
    remove: (s) => (s.source === 'bundled' ? null : { type: 'skills.remove', name: s.name }),
    save: (text) => ({ type: 'skills.save', text }),
    exportReq: { type: 'skills.export' },
    importReq: (data) => ({ type: 'skills.import', data }),
    template: '---\nname: my-skill\ntitle: My skill\ndescription: What it does, in one sentence.\nmode: ask\n---\nThe instructions.\n',
  };
  const a = setupList(adapters, deps);
  const s = setupList(skills, deps);
  return Promise.all([a.load(), s.load()]);
}
