#!/usr/bin/env node
// Runs at once, in the real extension in each browser: three Act runs of the same task in three tabs,
// started together, against the same three one after another (the wall time of each, and their
// ratio); then the same run in a tab in front and in a tab behind another (each step's time as the
// tool card reports it, and the run's wall time). The mock model answers each turn after MODEL_MS,
// as a real one takes time to answer; the fixture site is on "Act without asking on", so no card
// waits for a person. Chromium runs with its own background throttling on (Playwright turns it off
// by default: harness/browsers.js `throttled`), as a person's browser has it.
//   node bench/runs-at-once.mjs [steps]      (npm run bench -- runs-at-once)
import { writeFileSync, mkdirSync } from 'node:fs';
import { getServers, closeAll, browsers, ask, useMockProvider, tabIdOf } from '../test/e2e/harness/env.js';
import { launchChromium, launchFirefox } from '../test/e2e/harness/browsers.js';
import { firstUserText, toolResults } from '../test/fixtures/llm/conversation.js';

const STEPS = Number(process.argv[2] ?? 6);
const MODEL_MS = 300;
const RUNS = 3;

/** @param {number[]} xs */
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.floor(s.length / 2)] : NaN; };
const sleep = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));

/** Each run reads the counter and clicks Add one, STEPS steps, then says done. */
async function model(/** @type {any} */ req) {
  await sleep(MODEL_MS);
  if (!/^Bench task/.test(firstUserText(req.body))) throw new Error('not a bench task');
  const step = toolResults(req.body).length;
  if (step >= STEPS) return { toolCalls: [{ name: 'done', args: { summary: 'Counted.' } }] };
  return { toolCalls: [step % 2 ? { name: 'click', args: { text: 'Add one' } } : { name: 'snapshot', args: {} }] };
}

/** @param {any} env @param {number} tabId */
async function waitDone(env, tabId) {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    const s = await ask(env.control, { type: 'chat.state', tabId });
    if (s.ok && !s.data.running && s.data.items.some((/** @type {any} */ i) => i.kind === 'assistant' && i.final)) return s.data.items;
    await sleep(50);
  }
  throw new Error(`the run in tab ${tabId} did not end`);
}

/** Starts a run as the panel's Send does. @param {any} env @param {number} tabId @param {string} text */
async function start(env, tabId, text) {
  await ask(env.control, { type: 'chat.clear', tabId });
  const r = await ask(env.control, { type: 'chat.send', tabId, text, mode: 'act' });
  if (!r.ok) throw new Error(r.message);
}

/** @param {any} env @param {string} path */
async function openTab(env, path) {
  const url = `${env.site.url}/${path}`;
  const page = await env.browser.openPage(url);
  return { page, tabId: await tabIdOf(env, url) };
}

/** @param {'chromium' | 'firefox'} kind */
async function measure(kind) {
  const { site, llm } = await getServers();
  const browser = kind === 'chromium' ? await launchChromium({ throttled: true }) : await launchFirefox();
  const control = await browser.openExtensionPage('ui/options.html');
  const env = { browser, control, site, llm };
  try {
    await useMockProvider(env);
    await ask(control, { type: 'settings.set', settings: { sites: { allow: [new URL(site.url).host], confirm: [] }, maxRunsAtOnce: RUNS } });
    llm.usePolicy(model);
    const tabs = [];
    for (let i = 0; i < RUNS; i++) tabs.push(await openTab(env, `counter.html?run=${i}`));
    // One run first, untimed: the first run pays for the content scripts and the debugger's attach.
    await start(env, tabs[0].tabId, 'Bench task warm-up');
    await waitDone(env, tabs[0].tabId);

    let t0 = Date.now();
    for (const [i, t] of tabs.entries()) { await start(env, t.tabId, `Bench task sequential ${i}`); await waitDone(env, t.tabId); }
    const sequentialMs = Date.now() - t0;
    t0 = Date.now();
    for (const [i, t] of tabs.entries()) await start(env, t.tabId, `Bench task concurrent ${i}`);
    await Promise.all(tabs.map((t) => waitDone(env, t.tabId)));
    const concurrentMs = Date.now() - t0;

    // The same run in a tab in front, then in one behind another tab.
    const front = await openTab(env, 'counter.html?front');
    await front.page.page.bringToFront();
    const frontRun = await timedRun(env, front.tabId, 'Bench task in front');
    const back = await openTab(env, 'counter.html?back');
    const cover = await openTab(env, 'counter.html?cover');
    await cover.page.page.bringToFront();
    const backVisibility = await back.page.evaluate(() => document.visibilityState);
    const backRun = await timedRun(env, back.tabId, 'Bench task behind');
    return { kind, steps: STEPS, modelMs: MODEL_MS, sequentialMs, concurrentMs, ratio: concurrentMs / sequentialMs, front: frontRun, back: { ...backRun, visibility: backVisibility } };
  } finally {
    await browser.close();
  }
}

/** @param {any} env @param {number} tabId @param {string} text */
async function timedRun(env, tabId, text) {
  const t0 = Date.now();
  await start(env, tabId, text);
  const items = await waitDone(env, tabId);
  const wallMs = Date.now() - t0;
  const tools = items.filter((/** @type {any} */ i) => i.kind === 'tool' && typeof i.ms === 'number' && i.name !== 'done');
  const of = (/** @type {string} */ name) => median(tools.filter((/** @type {any} */ i) => i.name === name).map((/** @type {any} */ i) => i.ms));
  return { wallMs, stepMs: median(tools.map((/** @type {any} */ i) => i.ms)), clickMs: of('click'), snapshotMs: of('snapshot') };
}

const results = [];
for (const kind of browsers()) {
  const r = await measure(kind);
  results.push(r);
  console.log(`[${kind}] ${RUNS} runs of ${STEPS} steps (model ${MODEL_MS} ms a turn): one after another ${(r.sequentialMs / 1000).toFixed(1)} s, at once ${(r.concurrentMs / 1000).toFixed(1)} s, ratio ${r.ratio.toFixed(2)}`);
  console.log(`[${kind}] step time, median: in front ${r.front.stepMs} ms (click ${r.front.clickMs}, snapshot ${r.front.snapshotMs}; run ${(r.front.wallMs / 1000).toFixed(1)} s), behind another tab (${r.back.visibility}) ${r.back.stepMs} ms (click ${r.back.clickMs}, snapshot ${r.back.snapshotMs}; run ${(r.back.wallMs / 1000).toFixed(1)} s)`);
}
await closeAll();
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/runs-at-once.json', import.meta.url), `${JSON.stringify({ date: new Date().toISOString(), results }, null, 2)}\n`);
