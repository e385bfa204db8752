#!/usr/bin/env node
// The Act request at each tool tier (agent/tool-tiers.js), measured with a real tokenizer
// (gpt-tokenizer, o200k_base): the system prompt and the tool definitions as the model receives
// them, natively (JSON) and through the prompt protocol; which tier a 4k, 6k (Chrome's on-device
// model), 8k, 32k and 200k window gets, and how much of the window is left for a page outline.
// Written to bench/results/tool-tiers.json; reported in docs/PERFORMANCE.md.
import { writeFileSync, mkdirSync } from 'node:fs';
import { encode } from 'gpt-tokenizer';
import { toolsForMode } from '../src/chrome/agent/tools/index.js';
import { toolsOfTier, chooseTier, toolTokens } from '../src/chrome/agent/tool-tiers.js';
import { systemPrompt } from '../src/chrome/agent/prompts.js';
import { createFence } from '../src/chrome/agent/untrusted.js';
import { toolPrompt } from '../src/chrome/providers/tool-protocol.js';
import { budgetsFor } from '../src/chrome/agent/budget.js';

const system = systemPrompt({ mode: 'act', url: 'https://shop.example/checkout', title: 'Checkout', fence: createFence('0123456789ab') });
const systemTokens = encode(system).length;
const act = toolsForMode('act');
const rows = [];
for (const tier of /** @type {const} */ (['full', 'compact', 'read'])) {
  const { tools, schemas } = toolsOfTier(act, tier);
  rows.push({
    tier, tools: tools.length,
    nativeTokens: encode(JSON.stringify(schemas)).length,
    promptTokens: encode(toolPrompt(schemas)).length,
    estimateNative: toolTokens(schemas, false), estimatePrompt: toolTokens(schemas, true),
  });
}
console.log(`system prompt (Act): ${systemTokens} tokens`);
console.log('tier     tools  native  prompt-protocol  (estimate used at run time: native / prompt)');
for (const r of rows) console.log(`${r.tier.padEnd(8)} ${String(r.tools).padStart(5)}  ${String(r.nativeTokens).padStart(6)}  ${String(r.promptTokens).padStart(15)}  (${r.estimateNative} / ${r.estimatePrompt})`);

const windows = [4_096, 6_144, 8_192, 32_768, 200_000];
const chosen = [];
for (const w of windows) {
  for (const promptProtocol of [false, true]) {
    const maxOutput = Math.min(4_096, Math.floor(w / 4));
    const c = chooseTier({ tools: act, contextWindow: w, maxOutput, systemTokens: Math.ceil(system.length / 3.5), promptProtocol });
    const row = rows.find((r) => r.tier === c.tier);
    const request = systemTokens + (promptProtocol ? row?.promptTokens ?? 0 : row?.nativeTokens ?? 0);
    chosen.push({ window: w, promptProtocol, tier: c.tier, requestTokens: request, leftForOutline: w - request - Math.min(maxOutput, 1_024), resultBudgetChars: budgetsFor(w).result });
  }
}
console.log('\nwindow   tools via  tier      request (system + tools)  left for the outline and history  one result may carry');
for (const c of chosen) console.log(`${String(c.window).padStart(7)}  ${c.promptProtocol ? 'prompt   ' : 'native   '} ${c.tier.padEnd(8)}  ${String(c.requestTokens).padStart(24)}  ${String(c.leftForOutline).padStart(32)}  ${c.resultBudgetChars} chars`);
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/tool-tiers.json', import.meta.url), JSON.stringify({ systemTokens, tiers: rows, windows: chosen }, null, 2));
