#!/usr/bin/env node
// Replay against the original run, in the real extension in each browser: the workflow
// fixture's task (test/fixtures/site/pages/flow/) done once by the mock model, saved as a workflow,
// then replayed with other values. Model calls and wall time come from the runs' traces; tokens are
// what the requests really carried, counted with o200k (gpt-tokenizer) on the bodies the mock LLM
// received (its own usage figures are fixed placeholders). The fixture site is on "Act without
// asking on", so no card waits for a person.
//   node bench/replay.mjs [replays]      (npm run bench -- replay)
import { writeFileSync, mkdirSync } from 'node:fs';
import { encode } from 'gpt-tokenizer';
import { getEnv, closeAll, browsers, ask, useMockProvider, tabIdOf } from '../test/e2e/harness/env.js';
import { flowTask } from '../test/fixtures/llm/flow-task.js';

const REPLAYS = Number(process.argv[2] ?? 5);

/** @param {number[]} xs */
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

/**
 * The mock's turns with their real token counts: the request body in, the answer out.
 * @param {import('../test/fixtures/llm/server.js').Turn[]} turns
 */
function counted(turns) {
  return turns.map((turn) => (/** @type {any} */ req) => {
    const reply = /** @type {any} */ (typeof turn === 'function' ? turn(req) : turn);
    const input = encode(JSON.stringify({ messages: req.body.messages, tools: req.body.tools })).length;
    const output = encode(JSON.stringify(reply.toolCalls ?? reply.text ?? '')).length;
    return { ...reply, usage: { prompt_tokens: input, completion_tokens: output } };
  });
}

/** Waits for the tab's run to end and its trace to be saved; returns the trace. @param {any} env @param {number} tabId @param {Set<string>} seen */
async function nextTrace(env, tabId, seen) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const state = await ask(env.control, { type: 'chat.state', tabId });
    const list = await ask(env.control, { type: 'traces.list' });
    const fresh = state.ok && !state.data.running && list.ok ? list.data.find((/** @type {any} */ t) => t.tabId === tabId && !seen.has(t.id)) : null;
    if (fresh) {
      seen.add(fresh.id);
      return (await ask(env.control, { type: 'traces.get', id: fresh.id })).data;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the run did not end within a minute');
}

/** @param {any} env @param {number} tabId @param {string} url */
async function openList(env, tabId, url) {
  await ask(env.control, { type: 'tool.run', tabId, name: 'navigate', args: { url } });
}

const results = [];
for (const kind of browsers()) {
  const env = await getEnv(kind);
  await useMockProvider(env);
  await ask(env.control, { type: 'settings.set', settings: { sites: { allow: [new URL(env.site.url).host], confirm: [] } } });
  const url = `${env.site.url}/flow/list.html`;
  const page = await env.browser.openPage(url);
  const tabId = await tabIdOf(env, url);
  const seen = new Set((await ask(env.control, { type: 'traces.list' })).data.map((/** @type {any} */ t) => t.id));

  env.llm.script(counted(flowTask()));
  const sent = await ask(env.control, { type: 'chat.send', tabId, text: 'Order the Paper floor lamp for Ada Lovelace (ada@example.com), 2 of them, express delivery.', mode: 'act' });
  if (!sent.ok) throw new Error(sent.message);
  const original = await nextTrace(env, tabId, seen);
  if (original.status !== 'done' || env.llm.problems.length) throw new Error(`the original run ended ${original.status}: ${JSON.stringify(original.error ?? env.llm.problems)}`);
  const requests = env.llm.requests.length;

  const draft = await ask(env.control, { type: 'workflows.draft', runId: original.id });
  const saved = await ask(env.control, { type: 'workflows.save', workflow: { ...draft.data.workflow, name: `Order a lamp (${kind})` } });
  if (!saved.ok) throw new Error(saved.message);

  const replays = [];
  for (let i = 0; i < REPLAYS; i++) {
    env.llm.script([]);
    await openList(env, tabId, url);
    const run = await ask(env.control, { type: 'workflows.run', tabId, id: saved.data.id, values: { full_name: `Person ${i}`, email: `p${i}@example.com` } });
    if (!run.ok) throw new Error(run.message);
    const t = await nextTrace(env, tabId, seen);
    if (t.status !== 'done') throw new Error(`replay ${i} ended ${t.status}: ${t.error?.message}`);
    replays.push({ modelCalls: t.totals.modelCalls, requests: env.llm.requests.length, tokens: t.totals.inputTokens + t.totals.outputTokens, wallMs: t.totals.wallMs, steps: t.totals.toolCalls });
  }
  await page.close();
  const o = original.totals;
  const row = {
    browser: kind,
    original: { modelCalls: o.modelCalls, requests, inputTokens: o.inputTokens, outputTokens: o.outputTokens, wallMs: o.wallMs, modelMs: o.modelMs, toolCalls: o.toolCalls },
    replay: { runs: replays.length, modelCalls: Math.max(...replays.map((r) => r.modelCalls)), requests: Math.max(...replays.map((r) => r.requests)), tokens: Math.max(...replays.map((r) => r.tokens)), wallMsMedian: median(replays.map((r) => r.wallMs)), steps: replays[0].steps },
  };
  results.push(row);
  console.log(`\n${kind}: original run ${row.original.modelCalls} model calls, ${row.original.inputTokens} + ${row.original.outputTokens} tokens, ${row.original.toolCalls} tool calls, ${row.original.wallMs} ms`);
  console.log(`${kind}: replay (median of ${row.replay.runs}) ${row.replay.modelCalls} model calls (${row.replay.requests} requests reached the mock LLM), ${row.replay.tokens} tokens, ${row.replay.steps} steps, ${row.replay.wallMsMedian} ms`);
}
await closeAll();
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/replay.json', import.meta.url), `${JSON.stringify({ date: new Date().toISOString(), replays: REPLAYS, results }, null, 2)}\n`);
console.log('\nbench/results/replay.json written');
