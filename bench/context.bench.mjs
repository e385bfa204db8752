#!/usr/bin/env node
// What compaction saves on a long run: a 150-step run under the fake provider, each step reading a
// ~1,500-character snapshot, with compaction on (the defaults) and off. Prints characters sent, the
// largest request, and the extra summary requests. Run: node bench/context.bench.mjs
import { runAgent } from '../src/chrome/agent/loop.js';
import { charCount } from '../src/chrome/agent/compaction.js';
import { fakeProvider, say, call } from '../test/unit/fake-provider.js';
import { fakeBrowser } from '../test/unit/fake-browser.js';

const STEPS = 150;
const SNAPSHOT = Array.from({ length: 40 }, (_, i) => `  - link "Result number ${i} with a long title" [e${i}]`).join('\n');

/** @param {boolean} on */
async function measure(on) {
  let n = 0;
  const turn = (/** @type {any} */ req) => {
    if (req.tools.length === 0) return say('Summary: typed entries so far; the entry box is e1.');
    n++;
    return n < STEPS ? call({ name: 'snapshot' }) : call({ name: 'done', args: { summary: 'done' } });
  };
  const provider = fakeProvider(Array.from({ length: STEPS * 2 }, () => turn));
  const browser = fakeBrowser((msg) => (msg.type === 'content.snapshot'
    ? { ok: true, data: { text: `${SNAPSHOT}\n- text "step ${n}"`, url: 'https://example.test/', title: 'T' } }
    : { ok: true, data: {} }));
  let compactions = 0;
  const off = { maxMessages: Infinity, maxChars: Infinity, windowShare: Infinity };
  const started = performance.now();
  await runAgent({
    provider, mode: 'act', maxSteps: STEPS + 5,
    messages: [{ role: 'system', content: 'sys' }, { role: 'user', content: 'Read every page' }],
    toolContext: { tabId: 1, browser }, emit: (e) => { if (e.type === 'compacted') compactions++; },
    compaction: on ? {} : off,
    loopDetect: { stopAfterNudges: Infinity },
  });
  const sizes = provider.requests.map((r) => charCount(r.messages));
  return {
    mode: on ? 'compaction on' : 'compaction off',
    requests: provider.requests.length,
    summaryRequests: provider.requests.filter((r) => r.tools.length === 0).length,
    compactions,
    totalChars: sizes.reduce((a, b) => a + b, 0),
    largestRequestChars: Math.max(...sizes),
    ms: Math.round(performance.now() - started),
  };
}

const rows = [await measure(false), await measure(true)];
console.table(rows);
const [off, on] = rows;
console.log(`compaction sends ${(100 * (1 - on.totalChars / off.totalChars)).toFixed(1)}% fewer characters (≈ tokens / 4) over ${STEPS} steps; largest request ${off.largestRequestChars} → ${on.largestRequestChars} chars`);
