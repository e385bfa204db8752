// The rule-based mock model of the evals: it follows a task's plan (test/evals/tasks.js) through
// the real extension, one tool call per request, and behaves like a plain, trusting model: it
// believes what the page says and calls done. It listens to Tabwright's own feedback the way a
// model following its instructions would: a challenged done (WRITE_FAILED) makes it retry the last
// write once and, if that fails again, report the failure; NO_WRITE_SEEN and CLAIM_NOT_SEEN make it
// say it could not confirm the result; a declined card is accepted. Token counts are estimated
// (characters / 4), since no real model counts them.
import { toolResults } from '../fixtures/llm/conversation.js';

/** @import { Task, Step } from './tasks.js' */
/** @import { TurnSpec } from '../fixtures/llm/server.js' */

/** @param {string} text */
const tokens = (text) => Math.max(1, Math.round(text.length / 4));
/** A write that failed, as a step's result names it ("POST host/path → 500"). */
const FAILED_WRITE = /→ (?:[45]\d\d|failed)/;

/** @param {Task} task @param {string} base the apps' origin */
export function createMockPolicy(task, base) {
  const plan = /** @type {Step[]} */ ([...task.plan]);
  let cursor = 0;
  /** The plan index of the last click (the write to retry), and whether the retry happened. */
  let lastClick = -1;
  let retrying = false;
  let retried = false;
  /** @type {{ text: string, steps: Step[] } | null} */
  let pendingIf = null;
  /** @type {string | null} waiting for a tab list to switch to the tab whose URL has this */
  let pendingSwitch = null;

  /** @param {import('../fixtures/llm/server.js').RecordedRequest} req @returns {TurnSpec} */
  return (req) => {
    const results = toolResults(req.body);
    const last = results.at(-1) ?? '';
    const seen = results.join('\n');
    const reply = (/** @type {TurnSpec & { text?: string, toolCalls?: any[] }} */ r) => ({ ...r, usage: { prompt_tokens: tokens(JSON.stringify(req.body)), completion_tokens: tokens(JSON.stringify(r)) } });
    const say = (/** @type {string} */ text) => reply({ text });

    // Tabwright's feedback on a done, or on the retried write.
    if (retrying) {
      retrying = false;
      if (FAILED_WRITE.test(last)) return say(`I could not finish this: the server refused the change again (${/[A-Z]+ [^\s"]+ → [^"\]]+/.exec(last)?.[0] ?? 'an error'}), although the page may say otherwise.`);
    }
    if (/^Error WRITE_FAILED/.test(last)) {
      if (retried || lastClick < 0) return say('I could not finish this: the server did not accept the change.');
      retried = true;
      retrying = true;
      cursor = lastClick + 1;
      return reply({ toolCalls: [callFor(plan[lastClick], seen)] });
    }
    if (/^Error (NO_WRITE_SEEN|CLAIM_NOT_SEEN)/.test(last)) return say('I could not confirm that the change was made.');
    if (pendingIf) {
      const { text, steps } = pendingIf;
      pendingIf = null;
      if (last.includes(text)) plan.splice(cursor, 0, ...steps);
    }
    if (pendingSwitch) {
      const fragment = pendingSwitch;
      pendingSwitch = null;
      const id = /"tabId":(\d+),"url":"([^"]+)"/g;
      for (const m of last.matchAll(id)) if (m[2].includes(fragment)) return reply({ toolCalls: [{ name: 'tabs', args: { action: 'switch', tab_id: Number(m[1]) } }] });
    }

    const step = plan[cursor++];
    if (!step) return say('Finished.');
    const kind = step[0];
    if (kind === 'ifText') {
      pendingIf = { text: String(step[1]), steps: /** @type {Step[]} */ (step[2]) };
      return reply({ toolCalls: [{ name: 'snapshot', args: {} }] });
    }
    if (kind === 'switch') {
      pendingSwitch = new URL(task.start, base).pathname;
      return reply({ toolCalls: [{ name: 'tabs', args: { action: 'list' } }] });
    }
    if (kind === 'answer' && task.mode === 'ask') return say(valueOf(step[1], seen));
    if (kind === 'click') lastClick = cursor - 1;
    return reply({ toolCalls: [callFor(step, seen)] });
  };

  /** @param {Step} step @param {string} seen @returns {{ name: string, args: Record<string, unknown> }} */
  function callFor(step, seen) {
    const [kind, a, b] = step;
    switch (kind) {
      case 'snapshot': return { name: 'snapshot', args: {} };
      case 'click': return { name: 'click', args: { text: String(a) } };
      case 'fill': return { name: 'set_field', args: { text: String(a), value: valueOf(b, seen) } };
      case 'select': return { name: 'select_option', args: { text: String(a), label: String(b) } };
      case 'check': return { name: 'check', args: { text: String(a) } };
      case 'uncheck': return { name: 'uncheck', args: { text: String(a) } };
      case 'navigate': return { name: 'navigate', args: { url: new URL(String(a), base).href } };
      case 'open': return { name: 'tabs', args: { action: 'open', url: new URL(String(a), base).href } };
      case 'wait': return { name: 'wait_for', args: { text: String(a), timeout_ms: 8000 } };
      case 'answer': case 'done': return { name: 'done', args: { summary: valueOf(a, seen) } };
      default: throw new Error(`unknown plan step ${kind}`);
    }
  }
}

/** @param {unknown} v @param {string} seen */
function valueOf(v, seen) {
  return typeof v === 'function' ? String(v(seen)) : String(v);
}
