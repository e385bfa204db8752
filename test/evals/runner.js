// Runs eval tasks through the real extension and its real panel (docs/EVALS.md): for each task the
// apps start fresh, the instruction is typed into the panel, a simulated user answers the cards
// (allow, but decline a second identical write unless the task wants one), and the server's state
// is checked after the run. Used by `npm run eval` (bench/eval.mjs) and by the CI subset
// (test/e2e/evals.e2e.js).
import { ask, sendFromPanel, tabIdOf, transcript } from '../e2e/harness/env.js';
import { createMockPolicy } from './mock-policy.js';

/** @import { Task } from './tasks.js' */
/** @import { Apps, Write } from '../fixtures/apps/server.js' */
/** @import { BrowserEnv } from '../e2e/harness/browsers.js' */
/** @import { Driver } from '../e2e/harness/driver.js' */

/**
 * @typedef {object} EvalRow
 * @property {string} id
 * @property {string} kind
 * @property {string} trap
 * @property {boolean} pass the server check held (or, for a task the server always refuses, no done was claimed)
 * @property {boolean} success the server check held
 * @property {boolean} claimedDone the run ended with done (Act) or an answer (Ask)
 * @property {boolean} falseSuccess claimed done, but the server check failed
 * @property {number} duplicateWrites writes the server accepted twice (same method, path, body)
 * @property {number} writes requests that tried to change the server's state
 * @property {number} steps tool calls
 * @property {number} modelCalls requests to the model
 * @property {number} inputTokens
 * @property {number} outputTokens
 * @property {number} costUsd from the provider's prices, when set
 * @property {number} ms wall time
 * @property {number} cards confirmation cards the simulated user answered
 * @property {number} challenged done calls Tabwright did not accept (a failed last write, no write, a claim the page does not show)
 * @property {'verified' | 'not_verified' | 'failed' | 'nothing' | ''} verdict the verdict the panel showed under the answer ('nothing': a read-only answer; '': none shown)
 * @property {boolean} falseVerified the panel said Verified, and the server check failed (or the server refused everything): must be 0
 * @property {string} why the check's own words
 * @property {string} answer the final answer or done summary
 * @property {string[]} trace what the panel showed, one line per item (for a failure's message)
 * @property {{ verdict: string, reason: string }} [judged] the judge's view of an answer task (npm run eval -- --judge)
 */

/**
 * @param {{ browser: BrowserEnv, control: Driver, apps: Apps, llm?: { usePolicy(fn: any): void, requests: unknown[] }, mock: boolean, timeoutMs?: number }} env
 * @param {Task} task
 * @returns {Promise<EvalRow>}
 */
export async function runTask(env, task) {
  env.apps.reset(task.setup ?? {});
  if (env.mock) env.llm?.usePolicy(createMockPolicy(task, env.apps.url));
  const url = new URL(task.start, env.apps.url).href;
  const started = Date.now();
  const page = await env.browser.openPage(url);
  const tabId = await tabIdOf(/** @type {any} */ ({ control: env.control }), url);
  const panel = await env.browser.openExtensionPage(`ui/panel.html?tabId=${tabId}`);
  let cards = 0;
  try {
    await panel.waitFor(() => document.body.dataset.tabId, undefined, { message: 'the panel' });
    await sendFromPanel(panel, task.instruction, task.mode ?? 'act');
    cards = await answerCardsUntilIdle(panel, task, env.timeoutMs ?? 120_000);
    const items = await transcript(panel);
    const shownVerdict = await verdictShown(panel);
    const usage = await panel.evaluate(() => ({ input: Number(document.getElementById('usage')?.dataset.input ?? 0), output: Number(document.getElementById('usage')?.dataset.output ?? 0), text: document.getElementById('usage')?.textContent ?? '' }));
    const done = items.filter((i) => i.tool === 'done');
    const lastDone = done.at(-1);
    const finalText = items.filter((i) => /\bfinal\b|\bassistant\b/.test(i.cls) && !/\btool\b/.test(i.cls)).at(-1)?.text ?? '';
    // Act: the run ended on a done that stood (a challenged done is a failed card); Ask: it answered.
    const claimed = (task.mode ?? 'act') === 'ask' ? finalText.trim().length > 0 : Boolean(lastDone && !lastDone.cls.includes('failed') && lastDone === items.filter((i) => i.tool).at(-1));
    const writes = env.apps.writes.slice();
    const answer = finalText;
    const verdict = task.check(env.apps.state, writes, answer);
    const failureExpected = task.expect === 'failure';
    const success = verdict.ok && !failureExpected;
    return {
      id: task.id, kind: task.kind, trap: task.trap ?? '',
      pass: failureExpected ? verdict.ok && !claimed : verdict.ok,
      success, claimedDone: claimed, falseSuccess: claimed && (failureExpected || !verdict.ok),
      duplicateWrites: duplicates(writes), writes: writes.filter((w) => !/\/read$/.test(w.path)).length,
      steps: items.filter((i) => i.tool).length, modelCalls: env.mock ? env.llm?.requests.length ?? 0 : done.length + items.filter((i) => /\bassistant\b/.test(i.cls)).length,
      inputTokens: usage.input, outputTokens: usage.output, costUsd: Number(/\$([\d.]+)/.exec(usage.text)?.[1] ?? 0),
      ms: Date.now() - started, cards, challenged: done.filter((d) => d.cls.includes('failed')).length, why: verdict.why, answer: answer.slice(0, 300),
      verdict: shownVerdict, falseVerified: shownVerdict === 'verified' && (failureExpected || !verdict.ok),
      trace: items.map((i) => `${i.tool ?? i.cls}: ${i.text.replace(/\s+/g, ' ').slice(0, 160)}`),
    };
  } finally {
    await panel.close().catch(() => {});
    await closeTabsOf(env, task);
    await page.close().catch(() => {});
  }
}

/**
 * The verdict under the run's last answer, as the panel shows it: 'nothing' for an answer with no
 * note (a read-only answer), '' when there is no answer at all.
 * @param {Driver} panel @returns {Promise<EvalRow['verdict']>}
 */
function verdictShown(panel) {
  return panel.evaluate(() => {
    const final = [...document.querySelectorAll('#log > .msg.final')].at(-1);
    if (!final) return '';
    const v = /** @type {HTMLElement | null} */ (final.querySelector('.check.verdict'))?.dataset.verdict;
    return /** @type {any} */ (v ?? 'nothing');
  });
}

/**
 * The simulated user: allows each card, but declines a second identical write (duplicate_write)
 * unless the task asked for the same thing twice. Returns how many cards it answered.
 * @param {Driver} panel @param {Task} task @param {number} timeoutMs
 */
async function answerCardsUntilIdle(panel, task, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let cards = 0;
  // The run has started once the panel counted it.
  await panel.waitFor(() => Number(document.body.dataset.runs ?? 0) > 0, undefined, { timeout: 15_000, message: 'the run to start' });
  for (;;) {
    if (Date.now() > deadline) throw new Error(`${task.id}: the run did not finish within ${timeoutMs / 1000} s`);
    const state = await panel.evaluate(() => {
      const card = /** @type {HTMLElement | null} */ (document.querySelector('.card.confirm.pending'));
      return { running: document.body.dataset.running === 'true', rule: card?.dataset.rule ?? null };
    });
    if (state.rule) {
      const decline = state.rule === 'duplicate_write' && task.duplicates !== 'allow';
      await panel.click(decline ? '.card.confirm.pending .confirm-no' : '.card.confirm.pending .confirm-yes');
      cards++;
    } else if (!state.running) return cards;
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** Writes the server accepted more than once: same method, path and body. @param {Write[]} writes */
function duplicates(writes) {
  const seen = new Map();
  for (const w of writes.filter((x) => x.status < 400)) { const k = `${w.method} ${w.path} ${w.body}`; seen.set(k, (seen.get(k) ?? 0) + 1); }
  let extra = 0;
  for (const n of seen.values()) extra += n - 1;
  return extra;
}

/** Tabs a task opened on the apps (a second tab): closed, so the next task starts alone. @param {{ control: Driver, apps: Apps }} env @param {Task} _task */
async function closeTabsOf(env, _task) {
  await env.control.evaluate(async (origin) => {
    const tabs = await browser.tabs.query({});
    await Promise.all(tabs.filter((t) => t.url?.startsWith(origin)).map((t) => browser.tabs.remove(/** @type {number} */ (t.id)).catch(() => {})));
  }, env.apps.url).catch(() => {});
}

/**
 * The settings an eval run uses: the provider, and the apps' site among the sites where writes
 * inside the task need no card (the simulated user's standing permission; duplicates still ask).
 * @param {Driver} control @param {Record<string, unknown>} provider @param {string} appsUrl
 */
export async function prepareSettings(control, provider, appsUrl) {
  const r = await ask(control, { type: 'settings.set', settings: { provider: /** @type {any} */ (provider), sites: { allow: [new URL(appsUrl).host], confirm: [] }, maxSteps: 40 } });
  if (!r.ok) throw new Error(`settings.set failed: ${r.message}`);
}

/** @param {EvalRow[]} rows */
export function summarize(rows) {
  const n = rows.length || 1;
  const sum = (/** @type {(r: EvalRow) => number} */ f) => rows.reduce((a, r) => a + f(r), 0);
  return {
    tasks: rows.length, passed: sum((r) => Number(r.pass)), passRate: sum((r) => Number(r.pass)) / n,
    falseSuccess: sum((r) => Number(r.falseSuccess)), falseVerified: sum((r) => Number(r.falseVerified)),
    verified: sum((r) => Number(r.verdict === 'verified')), notVerified: sum((r) => Number(r.verdict === 'not_verified')), failed: sum((r) => Number(r.verdict === 'failed')), nothing: sum((r) => Number(r.verdict === 'nothing')),
    challenged: sum((r) => r.challenged), duplicateWrites: sum((r) => r.duplicateWrites),
    steps: sum((r) => r.steps), modelCalls: sum((r) => r.modelCalls), inputTokens: sum((r) => r.inputTokens), outputTokens: sum((r) => r.outputTokens),
    costUsd: sum((r) => r.costUsd), ms: sum((r) => r.ms),
  };
}

/** The verdict as a table cell. @type {Record<string, string>} */
const VERDICT = { verified: 'Verified', not_verified: 'Not verified', failed: 'Failed', nothing: 'read-only', '': '—' };

/** A markdown table of the rows and the totals. @param {EvalRow[]} rows @param {string} title */
export function markdown(rows, title) {
  const s = summarize(rows);
  const head = '| task | kind | trap | pass | server check | claimed done | false success | verdict | false verified | done challenged | duplicate writes | steps | model calls | tokens in / out | cost | time |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|';
  const yes = (/** @type {boolean} */ b) => (b ? 'yes' : 'no');
  const lines = rows.map((r) => `| ${r.id} | ${r.kind} | ${r.trap || ''} | ${yes(r.pass)} | ${yes(r.success)} | ${yes(r.claimedDone)} | ${r.falseSuccess ? '**yes**' : 'no'} | ${r.verdict === 'nothing' && r.kind !== 'read' ? 'no note' : VERDICT[r.verdict ?? ''] ?? ''} | ${r.falseVerified ? '**yes**' : 'no'} | ${r.challenged} | ${r.duplicateWrites} | ${r.steps} | ${r.modelCalls} | ${r.inputTokens} / ${r.outputTokens} | $${r.costUsd.toFixed(4)} | ${(r.ms / 1000).toFixed(1)} s |`);
  const total = `| **all ${s.tasks}** | | | **${s.passed}** (${(s.passRate * 100).toFixed(0)} %) | | | **${s.falseSuccess}** | ${s.verified} verified, ${s.notVerified} not verified, ${s.failed} failed, ${s.nothing} read-only | **${s.falseVerified}** | ${s.challenged} | ${s.duplicateWrites} | ${s.steps} | ${s.modelCalls} | ${s.inputTokens} / ${s.outputTokens} | $${s.costUsd.toFixed(4)} | ${(s.ms / 1000).toFixed(1)} s |`;
  return `### ${title}\n\n${head}\n${lines.join('\n')}\n${total}\n`;
}
