#!/usr/bin/env node
// Action latency in both browsers: each tool run through the tool runner on the widget fixtures,
// timed end to end (router → content/CDP → effects report). Prints medians; never asserted in tests.
//   node bench/actions.mjs [runs]
import { getEnv, closeAll, browsers } from '../test/e2e/harness/env.js';
import { tool, openFixture, refOf } from '../test/e2e/harness/tools.js';

const RUNS = Number(process.argv[2] ?? 15);

/** @param {number[]} xs */
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

/** @param {() => Promise<any>} fn */
async function time(fn) {
  const t = performance.now();
  const r = await fn();
  if (!r.ok) throw new Error(`${r.code}: ${r.message}`);
  return performance.now() - t;
}

for (const kind of browsers()) {
  const env = await getEnv(kind);
  const f = await openFixture(env, 'widgets/forms.html');
  await f.page.waitFor(() => Boolean(document.querySelector('#react-name')), undefined, { message: 'React' });
  const name = await refOf(env, f.tabId, 'textbox', 'Full name');
  const country = await refOf(env, f.tabId, 'combobox', 'Country');
  const cheese = await refOf(env, f.tabId, 'checkbox', 'Cheese');
  /** @type {Record<string, () => Promise<any>>} */
  const cases = {
    'snapshot': () => tool(env, f.tabId, 'snapshot'),
    'click (ref)': () => tool(env, f.tabId, 'click', { ref: cheese }),
    'click (text)': () => tool(env, f.tabId, 'click', { text: 'Save profile' }),
    'type 20 chars': () => tool(env, f.tabId, 'type', { ref: name, text: 'abcdefghij klmnopqrs' }),
    'select_option': () => tool(env, f.tabId, 'select_option', { ref: country, label: 'Japan' }),
    'set_field': () => tool(env, f.tabId, 'set_field', { selector: '#start', value: '2026-01-02' }),
    'press_keys': () => tool(env, f.tabId, 'press_keys', { keys: ['ArrowDown'] }),
  };
  console.log(`\n${kind} (median of ${RUNS}, ms)`);
  for (const [label, fn] of Object.entries(cases)) {
    await fn();
    const xs = [];
    for (let i = 0; i < RUNS; i++) xs.push(await time(fn));
    console.log(`  ${label.padEnd(16)} ${median(xs).toFixed(0).padStart(5)}`);
  }
  await f.page.close();
}
await closeAll();
