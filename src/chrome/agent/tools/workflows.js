// run_workflow: the model lists the user's saved workflows and runs one, with no model
// call per step. The tool only starts the steps: each one passes the run's own gate on its own
// effects (the policy's verdict, a card, the request hold), exactly as if the model had called it.
/** @import { Tool } from '../../types/core' */
import { fail } from '../error-codes.js';

/** @type {Tool} */
export const runWorkflow = {
  name: 'run_workflow',
  description: 'The user\'s saved workflows: steps recorded from a task that worked, replayed exactly and cheaply. action "list" names them with their parameters; action "run" replays one by name with values for its parameters (a step that no longer matches the page stops the workflow with the reason; then do that part yourself).',
  parameters: {
    type: 'object',
    properties: {
      action: { type: 'string', enum: ['list', 'run'] },
      name: { type: 'string', description: 'With run: the workflow\'s name.' },
      values: { type: 'object', additionalProperties: { type: 'string' }, description: 'With run: a value per parameter name; a parameter left out takes its default.' },
    },
    required: ['action'],
    additionalProperties: false,
  },
  // Running one navigates to its start page (the destination below); its steps declare their own effects and are gated one by one.
  effects: ['reads_page', 'navigates'],
  says: (t, c) => {
    if (c.arg?.('action') !== 'run') return t('toolSays_workflows_list');
    return t(c.ok ? 'toolSays_run_workflow' : 'toolSays_run_workflow_failed', c.quoted?.('name') ?? '');
  },
  effectsFor: (args) => (args.action === 'run' ? ['reads_page', 'navigates'] : ['reads_page']),
  // Offered only when the user has saved a workflow: otherwise it costs tokens on every step for nothing.
  needs: 'workflows',
  async destination(args, ctx) {
    if (args.action !== 'run' || !ctx.workflows || typeof args.name !== 'string') return null;
    return (await ctx.workflows.find(args.name))?.start.url ?? null;
  },
  async run(args, ctx) {
    if (!ctx.workflows) return fail('UNAVAILABLE', 'there are no saved workflows here');
    if (args.action === 'list') {
      const all = await ctx.workflows.list();
      if (!all.length) return { ok: true, data: 'The user has no saved workflows.' };
      return { ok: true, data: all.map((w) => `- ${w.name}${w.description ? `: ${w.description}` : ''} (starts at ${w.start}; parameters: ${w.params.map((p) => `${p.name}${p.secret ? ' [secret, the user gives it]' : p.default !== undefined ? ` = "${p.default}"` : ' [required]'}`).join(', ') || 'none'})`).join('\n') };
    }
    if (typeof args.name !== 'string' || !args.name) return fail('INVALID_ARGUMENTS', 'say which workflow to run: name');
    return ctx.workflows.replay(args.name, args.values ?? {}, ctx);
  },
};
