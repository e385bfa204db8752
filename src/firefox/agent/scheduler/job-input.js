// Checks a job as the jobs page, the panel or the model describes it, before the scheduler stores it.
/** @import { JobInput, JobKind, JobTarget, JobWorkflow, Schedule } from '../../types/jobs' */
/** @import { Mode } from '../../types/core' */
import { normalizeSchedule } from './schedule.js';
import { fail } from '../error-codes.js';

export const MAX_PROMPT_CHARS = 10_000;
export const MAX_TITLE_CHARS = 120;

/** @param {string} message */
const bad = (message) => fail('INVALID_JOB', message);

/**
 * @param {unknown} target
 * @returns {{ ok: true, target: JobTarget } | { ok: false, code: 'INVALID_JOB', message: string }}
 */
export function checkTarget(target) {
  const t = /** @type {Record<string, unknown>} */ (target ?? {});
  if (t.type === 'tab') {
    if (!Number.isInteger(t.tabId) || /** @type {number} */ (t.tabId) < 0) return bad('A tab target needs the tabId of an open tab.');
    return { ok: true, target: { type: 'tab', tabId: /** @type {number} */ (t.tabId), ...(typeof t.url === 'string' ? { url: t.url } : {}), ...(typeof t.title === 'string' ? { title: t.title } : {}) } };
  }
  if (t.type === 'url') {
    let url;
    try { url = new URL(String(t.url)); } catch { return bad(`"${t.url}" is not an absolute URL; give one such as https://example.com/report.`); }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return bad(`A job can open only http and https pages, not ${url.protocol}`);
    return { ok: true, target: { type: 'url', url: url.href } };
  }
  return bad('target must be { type: "tab", tabId } (the current tab) or { type: "url", url } (opened in a background tab when the job runs).');
}

/**
 * @param {Partial<JobInput>} input
 * @param {{ now: number, timeZone: string }} ctx
 * @returns {{ ok: true, value: { kind: JobKind, title: string, prompt: string, mode: Mode, target: JobTarget, schedule: Schedule, workflow?: JobWorkflow } } | { ok: false, code: import('../error-codes.js').ErrorCode, message: string }}
 */
export function checkJobInput(input, ctx) {
  if (!input || typeof input !== 'object') return bad('Describe the job: { prompt, target, schedule }.');
  const kind = input.kind ?? 'task';
  if (kind !== 'task' && kind !== 'resume' && kind !== 'workflow') return bad(`kind must be "task", "resume" or "workflow"; got ${JSON.stringify(kind)}.`);
  const workflow = kind === 'workflow' ? checkWorkflowRef(input.workflow) : undefined;
  if (workflow && !workflow.ok) return workflow;
  const prompt = typeof input.prompt === 'string' ? input.prompt.trim() : '';
  if (!prompt) return bad('The job needs a prompt: what the agent should do when it runs.');
  if (prompt.length > MAX_PROMPT_CHARS) return bad(`The prompt is ${prompt.length} characters; keep it under ${MAX_PROMPT_CHARS}.`);
  const mode = input.mode ?? 'act';
  if (mode !== 'ask' && mode !== 'act') return bad(`mode must be "ask" or "act"; got ${JSON.stringify(mode)}.`);
  const target = checkTarget(input.target);
  if (!target.ok) return target;
  const schedule = normalizeSchedule(/** @type {any} */ (input.schedule), ctx);
  if (!schedule.ok) return schedule;
  const title = (typeof input.title === 'string' && input.title.trim() ? input.title.trim() : prompt.split('\n')[0]).slice(0, MAX_TITLE_CHARS);
  return { ok: true, value: { kind, title, prompt, mode, target: target.target, schedule: schedule.schedule, ...(workflow?.ok ? { workflow: workflow.workflow } : {}) } };
}

/**
 * A workflow job names its workflow and the values of its parameters.
 * @param {unknown} w @returns {{ ok: true, workflow: JobWorkflow } | { ok: false, code: 'INVALID_JOB', message: string }}
 */
function checkWorkflowRef(w) {
  const x = /** @type {Record<string, unknown>} */ (w ?? {});
  if (typeof x.id !== 'string' || !x.id) return bad('A workflow job needs { workflow: { id, values } }: the id of a saved workflow.');
  const values = /** @type {Record<string, unknown>} */ (x.values ?? {});
  if (typeof values !== 'object' || Array.isArray(values) || Object.values(values).some((v) => typeof v !== 'string')) return bad('A workflow job\'s values must be text, one per parameter.');
  return { ok: true, workflow: { id: x.id, values: /** @type {Record<string, string>} */ (values) } };
}
