// adapters.* and skills.*: the settings page's lists of site adapters and skills (turn on and off,
// add, override, delete, export, import), the panel's skills for the current page, and running one.
/** @import { Handler } from './index.js' */
/** @import { FieldError } from '../../agent/front-matter.js' */
/** @import { RouterReply } from '../../types/messages' */
import { fillSkill } from '../../agent/skills/skill-format.js';
import { required, optional, tabId, text, id, object } from './request-fields.js';
import { fail } from '../../agent/error-codes.js';

/** @type {import('./request-fields.js').FieldCheck} */
const bool = (v) => (typeof v === 'boolean' ? null : 'must be true or false');

/**
 * A refusal naming every field to fix.
 * @param {'INVALID_ADAPTER' | 'INVALID_SKILL' | 'BAD_IMPORT'} code @param {FieldError[]} errors @returns {RouterReply}
 */
function invalid(code, errors) {
  return { ok: false, code, message: errors.map((e) => `${e.field}: ${e.message}`).join('\n'), fields: errors };
}

/** @type {Handler[]} */
export const KNOWLEDGE_HANDLERS = [
  {
    type: 'adapters.list',
    fields: {},
    async handle(_msg, d) {
      const c = await d.knowledge.adapters();
      return { ok: true, data: { adapters: c.list(), problems: c.problems } };
    },
  },
  {
    type: 'adapters.setEnabled',
    fields: { id: required(id), enabled: required(bool) },
    async handle(msg, d) {
      await d.knowledge.changing('adapters', () => d.knowledge.adapterStore.setEnabled(msg.id, msg.enabled));
      return { ok: true, data: null };
    },
  },
  {
    type: 'adapters.save',
    fields: { text: required(text) },
    async handle(msg, d) {
      const r = await d.knowledge.changing('adapters', () => d.knowledge.adapterStore.save(msg.text));
      return r.ok ? { ok: true, data: { id: r.id } } : invalid('INVALID_ADAPTER', r.errors);
    },
  },
  {
    type: 'adapters.remove',
    fields: { id: required(id) },
    async handle(msg, d) {
      await d.knowledge.changing('adapters', () => d.knowledge.adapterStore.remove(msg.id));
      return { ok: true, data: null };
    },
  },
  {
    type: 'adapters.export',
    fields: {},
    handle: async (_msg, d) => ({ ok: true, data: await d.knowledge.adapterStore.export() }),
  },
  {
    type: 'adapters.import',
    fields: { data: required(object) },
    async handle(msg, d) {
      const r = await d.knowledge.changing('adapters', () => d.knowledge.adapterStore.import(msg.data));
      return r.ok ? { ok: true, data: { count: r.count } } : invalid('BAD_IMPORT', r.errors);
    },
  },
  {
    type: 'skills.list',
    fields: { tabId: optional(tabId) },
    async handle(msg, d) {
      const c = await d.knowledge.skills();
      if (msg.tabId === undefined) return { ok: true, data: { skills: c.list(), problems: c.problems } };
      const tab = await d.ops.getTab(msg.tabId).catch(() => null);
      return { ok: true, data: { skills: c.forUrl(tab?.url ?? ''), problems: [] } };
    },
  },
  {
    type: 'skills.save',
    fields: { text: required(text) },
    async handle(msg, d) {
      const r = await d.knowledge.changing('skills', () => d.knowledge.skillStore.save(msg.text, 'user'));
      return r.ok ? { ok: true, data: { name: r.name } } : invalid('INVALID_SKILL', r.errors);
    },
  },
  {
    type: 'skills.remove',
    fields: { name: required(id) },
    async handle(msg, d) {
      await d.knowledge.changing('skills', () => d.knowledge.skillStore.remove(msg.name));
      return { ok: true, data: null };
    },
  },
  {
    type: 'skills.setEnabled',
    fields: { name: required(id), enabled: required(bool) },
    async handle(msg, d) {
      await d.knowledge.changing('skills', () => d.knowledge.skillStore.setEnabled(msg.name, msg.enabled));
      return { ok: true, data: null };
    },
  },
  {
    type: 'skills.export',
    fields: {},
    handle: async (_msg, d) => ({ ok: true, data: await d.knowledge.skillStore.export() }),
  },
  {
    type: 'skills.import',
    fields: { data: required(object) },
    async handle(msg, d) {
      const r = await d.knowledge.changing('skills', () => d.knowledge.skillStore.import(msg.data));
      return r.ok ? { ok: true, data: { count: r.count } } : invalid('BAD_IMPORT', r.errors);
    },
  },
  {
    type: 'skills.run',
    fields: { tabId: required(tabId), name: required(id), values: optional(object) },
    async handle(msg, d) {
      const skill = (await d.knowledge.skills()).get(msg.name);
      if (!skill) return fail('SKILL_NOT_FOUND', `"${msg.name}", or it is turned off`);
      const filled = fillSkill(skill, msg.values ?? {});
      if (!filled.ok) return { ...fail('SKILL_PARAMETERS', `"${skill.title}" needs ${filled.missing.join(', ')}`), fields: filled.missing.map((f) => ({ field: f, message: 'required' })) };
      const run = await d.runs.beginRun(msg.tabId, filled.text, skill.mode, { onlyTools: skill.tools, skill: skill.name });
      return run.ok ? { ok: true, data: { started: true, mode: skill.mode } } : run;
    },
  },
];
