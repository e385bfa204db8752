// The eval suite's fixed subset in both browsers, through the real panel, with the
// rule-based mock model (test/evals/mock-policy.js): every task passes by the server's own check,
// no task whose page lies ends in a claimed done, and the double-submit trap leaves one order.
// The whole suite: `npm run eval` (docs/EVALS.md).
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { startApps } from '../fixtures/apps/server.js';
import { TASKS, CI_TASKS } from '../evals/tasks.js';
import { prepareSettings, runTask, markdown } from '../evals/runner.js';
import { inPart, partOf, partTitle } from './harness/parts.js';
import { QUICK_SETTLE_MS, ask, useSettle } from './harness/env.js';

/** npm test splits the tasks over several processes (harness/parts.js); a hand run has them all. */
const PART = partOf(import.meta.url);

/**
 * A task whose app answers at once and whose pages set no timer ends after the shortest settle
 * period the settings allow; a slowed server (the double submit's 6 s order) or the booking app
 * (its page waits 400 ms before it posts) keeps the product's own 5 s.
 * @param {import('../evals/tasks.js').Task} task
 */
const quick = (task) => task.app !== 'booking' && !Object.values(task.setup?.faults ?? {}).some((f) => /** @type {{ delayMs?: number }} */ (f).delayMs);

scenario(`eval subset${partTitle(PART)}`, (ctx) => {
  /** @type {Awaited<ReturnType<typeof startApps>>} */
  let apps;
  /** @type {import('../evals/runner.js').EvalRow[]} */
  const rows = [];
  before(async () => {
    apps = await startApps();
    await prepareSettings(ctx.env.control, { kind: 'openai', baseUrl: ctx.env.llm.baseUrl, model: 'mock-1', apiKey: 'sk-test-123' }, apps.url);
  });
  after(async function () {
    this.timeout(30_000);
    if (rows.length) console.log(markdown(rows, `eval subset, ${ctx.kind}`));
    await apps?.close();
    await ask(ctx.env.control, { type: 'settings.set', settings: { sites: { allow: [], confirm: [] }, maxSteps: 100 } });
    await useSettle(ctx.env, null);
  });

  for (const id of inPart(PART, CI_TASKS)) {
    const task = /** @type {import('../evals/tasks.js').Task} */ (TASKS.find((t) => t.id === id));
    it(`${task.id}${task.trap ? ` (${task.trap})` : ''}: ${task.instruction.slice(0, 70)}`, async function () {
      this.timeout(150_000);
      await useSettle(ctx.env, quick(task) ? QUICK_SETTLE_MS : null);
      const row = await runTask({ browser: ctx.env.browser, control: ctx.env.control, apps, llm: ctx.env.llm, mock: true }, task);
      rows.push(row);
      expect(ctx.env.llm.problems, 'the mock model').to.deep.equal([]);
      expect(row.pass, `${row.why}; answer: ${row.answer}\n${row.trace.join('\n')}`).to.equal(true);
      expect(row.falseSuccess).to.equal(false);
      expect(row.falseVerified, `the panel said Verified: ${row.trace.join('\n')}`).to.equal(false);
      expect(row.duplicateWrites).to.equal(0);
      if (task.trap === 'lie') expect(row.claimedDone).to.equal(false);
      if (task.trap === 'double') expect(row.cards, row.trace.join('\n')).to.be.greaterThan(0);
    });
  }
});
