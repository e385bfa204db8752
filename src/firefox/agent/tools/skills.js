// The user's skills, to the model: `skills` lists the ones for the current page and reads one;
// `save_skill` keeps a procedure the agent learned on a site for later runs, after the user saw
// every word of it (the policy always asks: saves_skills). docs/SKILLS.md.
/** @import { Tool, ToolContext, ToolResult } from '../../types/core' */
/** @import { Skill } from '../../types/knowledge' */
import { formatSkill } from '../skills/skill-text.js';
import { fail } from '../error-codes.js';

/** @param {ToolContext} ctx @returns {ToolResult | null} */
function unavailable(ctx) {
  return ctx.skills ? null : fail('UNAVAILABLE', 'skills are not available here');
}

/** @param {Skill} s */
function brief(s) {
  const params = s.parameters.length ? ` (parameters: ${s.parameters.map((p) => p.name).join(', ')})` : '';
  const where = s.match.length ? ` [${s.match.join(', ')}]` : '';
  return `- ${s.name}: ${s.description}${params}${where}${s.source === 'agent' ? ' (saved by you)' : ''}`;
}

/** @type {Tool} */
export const skills = {
  name: 'skills',
  description: 'The user\'s saved skills (reusable procedures). action "list": the skills for the current page; action "read": one skill\'s full instructions, to follow them.',
  parameters: {
    type: 'object',
    properties: {
      action: { type: 'string', enum: ['list', 'read'] },
      name: { type: 'string', description: 'For read: the skill\'s name.' },
    },
    required: ['action'],
    additionalProperties: false,
  },
  effects: ['reads_skills'],
  says: (t, c) => (c.arg?.('action') === 'read' ? t('toolSays_skills_read', c.quoted?.('name') ?? '') : t('toolSays_skills_list')),
  async run(args, ctx) {
    const none = unavailable(ctx);
    if (none || !ctx.skills) return /** @type {ToolResult} */ (none);
    if (args.action === 'read') {
      const s = await ctx.skills.get(String(args.name ?? ''));
      if (!s) return fail('SKILL_NOT_FOUND', `"${args.name}"`);
      return { ok: true, data: formatSkill(s) };
    }
    const tab = await ctx.browser.getTab(ctx.tabId).catch(() => null);
    const found = await ctx.skills.forUrl(tab?.url ?? '');
    return { ok: true, data: found.length ? `Skills for this page:\n${found.map(brief).join('\n')}` : 'No skills for this page.' };
  },
};

/** @type {Tool} */
export const saveSkill = {
  name: 'save_skill',
  description: 'Save a procedure you worked out on this site as a skill for later runs (the user reviews it and must allow it). Saving under an existing name of yours updates it. Only when the user asked you to remember how to do something.',
  parameters: {
    type: 'object',
    properties: {
      name: { type: 'string', description: 'lowercase-with-dashes, e.g. "export-invoices"' },
      title: { type: 'string', description: 'A few words (at most 40 characters).' },
      description: { type: 'string', description: 'One sentence: what it does.' },
      prompt: { type: 'string', description: 'The instructions, step by step, written for yourself; no secrets, no values that change.' },
      sites: { type: 'array', items: { type: 'string' }, description: 'Where it applies: hosts such as "shop.example.com" (default: this page\'s host).' },
    },
    required: ['name', 'title', 'description', 'prompt'],
    additionalProperties: false,
  },
  effects: ['saves_skills'],
  says: (t, c) => t(c.ok ? 'toolSays_save_skill' : 'toolSays_save_skill_failed', c.title()),
  async run(args, ctx) {
    const none = unavailable(ctx);
    if (none || !ctx.skills) return /** @type {ToolResult} */ (none);
    const tab = await ctx.browser.getTab(ctx.tabId).catch(() => null);
    let host = '';
    try { host = new URL(tab?.url ?? '').hostname; } catch { /* no page */ }
    const sites = Array.isArray(args.sites) && args.sites.length ? args.sites.map(String) : host ? [host] : [];
    if (!sites.length) return fail('INVALID_ARGUMENTS', 'name the site the skill is for in sites, for example ["shop.example.com"]', { retryable: true });
    const text = formatSkill({
      name: String(args.name), title: String(args.title), description: String(args.description), mode: 'act',
      match: sites, tools: [], parameters: [], body: String(args.prompt), source: 'agent',
    });
    const saved = await ctx.skills.save(text, 'agent');
    if (!saved.ok) return fail('INVALID_SKILL', `${saved.errors.map((e) => `${e.field}: ${e.message}`).join(' ')} Fix these and call save_skill again`, { retryable: true });
    return { ok: true, data: `Saved the skill "${saved.skill.name}" for ${sites.join(', ')}. It is listed on those sites from the next run.` };
  },
};
