#!/usr/bin/env node
// `npm run eval`: the eval suite (docs/EVALS.md) through the real extension and its panel.
//   npm run eval                                  every task, Chromium, the rule-based mock model
//   npm run eval -- --browser firefox             Firefox ESR
//   npm run eval -- --tasks shop-buy,mail-        only tasks whose id is or starts with one of these
//   npm run eval -- --provider env                a real model from the environment (below)
//   npm run eval -- --settings my-settings.json   the active provider of an exported settings file (its key from TW_EVAL_API_KEY)
//   npm run eval -- --judge                       also ask the model whether each answer task's answer is right
// Real models: OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY or OLLAMA_URL (first one set wins), or
// TW_EVAL_PROVIDER (openai | anthropic | gemini | ollama) with TW_EVAL_API_KEY; TW_EVAL_MODEL,
// TW_EVAL_BASE_URL override the defaults; TW_EVAL_PRICE_IN / TW_EVAL_PRICE_OUT (USD per million tokens) give a cost.
// Writes bench/results/eval.json (one entry per browser and model) and prints a markdown table.
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch } from '../test/e2e/harness/browsers.js';
import { startMockLLM } from '../test/fixtures/llm/server.js';
import { startApps } from '../test/fixtures/apps/server.js';
import { TASKS } from '../test/evals/tasks.js';
import { prepareSettings, runTask, markdown, summarize } from '../test/evals/runner.js';
import { judgeAnswer } from '../test/evals/judge.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (/** @type {string} */ name) => { const i = args.indexOf(`--${name}`); return i >= 0 ? (args[i + 1] && !args[i + 1].startsWith('--') ? args[i + 1] : 'true') : undefined; };

/** The provider settings for a real model, from the environment or a settings file; null for the mock. */
async function realProvider() {
  const file = opt('settings');
  if (file) {
    const s = JSON.parse(await readFile(file, 'utf8'));
    const p = s.provider ?? s.settings?.provider;
    if (!p) throw new Error(`${file} has no provider`);
    return { ...p, apiKey: process.env.TW_EVAL_API_KEY ?? p.apiKey ?? '' };
  }
  if (opt('provider') !== 'env') return null;
  const env = process.env;
  const kind = env.TW_EVAL_PROVIDER ?? (env.OPENAI_API_KEY ? 'openai' : env.ANTHROPIC_API_KEY ? 'anthropic' : env.GEMINI_API_KEY ? 'gemini' : env.OLLAMA_URL ? 'ollama' : null);
  if (!kind) throw new Error('--provider env: set OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY or OLLAMA_URL (or TW_EVAL_PROVIDER with TW_EVAL_API_KEY).');
  const defaults = /** @type {Record<string, { baseUrl: string, model: string, key?: string }>} */ ({
    openai: { baseUrl: 'https://api.openai.com/v1', model: 'gpt-4.1-mini', key: env.OPENAI_API_KEY },
    anthropic: { baseUrl: 'https://api.anthropic.com/v1', model: 'claude-sonnet-4-5', key: env.ANTHROPIC_API_KEY },
    gemini: { baseUrl: 'https://generativelanguage.googleapis.com/v1beta', model: 'gemini-2.5-flash', key: env.GEMINI_API_KEY },
    ollama: { baseUrl: env.OLLAMA_URL ?? 'http://localhost:11434', model: 'qwen3:8b' },
  })[kind];
  if (!defaults) throw new Error(`Unknown TW_EVAL_PROVIDER ${kind}`);
  const pricing = env.TW_EVAL_PRICE_IN ? { input: Number(env.TW_EVAL_PRICE_IN), output: Number(env.TW_EVAL_PRICE_OUT ?? 0) } : undefined;
  return { kind, baseUrl: env.TW_EVAL_BASE_URL ?? defaults.baseUrl, model: env.TW_EVAL_MODEL ?? defaults.model, apiKey: env.TW_EVAL_API_KEY ?? defaults.key ?? '', ...(pricing ? { pricing } : {}) };
}

const browserKind = opt('browser') === 'firefox' ? 'firefox' : 'chromium';
const wanted = opt('tasks')?.split(',').map((s) => s.trim()).filter(Boolean);
const tasks = TASKS.filter((t) => !wanted || wanted.some((w) => t.id === w || t.id.startsWith(w)));
if (!tasks.length) { console.error(`No task matches ${wanted?.join(', ')}. Ids: ${TASKS.map((t) => t.id).join(', ')}`); process.exit(2); }

const real = await realProvider();
const llm = real ? null : await startMockLLM();
const apps = await startApps();
const browser = await launch(browserKind);
const control = await browser.openExtensionPage('ui/options.html');
const model = real ? `${real.kind} ${real.model}` : 'mock (rule-based)';
/** @type {import('../test/evals/runner.js').EvalRow[]} */
const rows = [];
try {
  await prepareSettings(control, real ?? { kind: 'openai', baseUrl: /** @type {any} */ (llm).baseUrl, model: 'mock-1', apiKey: 'sk-test-123' }, apps.url);
  console.log(`eval: ${tasks.length} task(s) in ${browserKind} with ${model}`);
  for (const [i, task] of tasks.entries()) {
    let row;
    try {
      row = await runTask({ browser, control, apps, llm: llm ?? undefined, mock: !real, timeoutMs: real ? 300_000 : 120_000 }, task);
      if (opt('judge') && real && task.kind === 'read') row.judged = await judgeAnswer(real, task, row.answer);
    } catch (err) {
      row = { id: task.id, kind: task.kind, trap: task.trap ?? '', pass: false, success: false, claimedDone: false, falseSuccess: false, duplicateWrites: 0, writes: 0, steps: 0, modelCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, ms: 0, cards: 0, challenged: 0, verdict: '', falseVerified: false, why: `the run failed: ${err instanceof Error ? err.message : err}`, answer: '', trace: [] };
    }
    rows.push(row);
    console.log(`[${String(i + 1).padStart(2)}/${tasks.length}] ${row.pass ? 'pass' : 'FAIL'} ${task.id.padEnd(22)} ${String(row.steps).padStart(2)} steps ${String(row.modelCalls).padStart(2)} calls ${(row.ms / 1000).toFixed(1).padStart(5)} s  ${(row.verdict || 'no verdict').padEnd(12)}${row.falseSuccess ? '  FALSE SUCCESS' : ''}${row.falseVerified ? '  FALSE VERIFIED' : ''}${row.duplicateWrites ? `  ${row.duplicateWrites} duplicate write(s)` : ''}${row.pass ? '' : `  (${row.why})`}`);
  }
} finally {
  await browser.close();
  await apps.close();
  await llm?.close();
}
const table = markdown(rows, `${model}, ${browserKind}`);
console.log(`\n${table}`);
const out = join(root, 'bench/results/eval.json');
await mkdir(dirname(out), { recursive: true });
/** @type {Record<string, unknown>} */
let all = {};
try { all = JSON.parse(await readFile(out, 'utf8')); } catch { /* first run */ }
all[`${browserKind} · ${model}${wanted ? ` · ${wanted.join(',')}` : ''}`] = { at: new Date().toISOString(), summary: summarize(rows), rows: rows.map(({ trace: _t, ...r }) => r) };
await writeFile(out, `${JSON.stringify(all, null, 1)}\n`);
await writeFile(join(root, `bench/results/eval-${browserKind}${real ? '-real' : ''}.md`), table);
process.exitCode = rows.every((r) => r.pass) ? 0 : 1;
