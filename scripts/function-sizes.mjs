#!/usr/bin/env node
// The size and branchiness of every function in the product code (src/chrome, whose shared files
// src/firefox copies, and src/bridge), measured by ESLint's own rules: lines without blanks and
// comments (max-lines-per-function) and cyclomatic complexity. Prints a Markdown table of the
// largest, and the counts over the limits eslint.config.js sets; docs/ARCHITECTURE.md keeps it.
//   node scripts/function-sizes.mjs [--top 25] [--json]
import { ESLint } from 'eslint';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MAX_FUNCTION_LINES } from '../eslint.config.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const TARGETS = ['src/chrome', 'src/bridge'];

/** @typedef {{ file: string, line: number, name: string, lines: number, complexity: number }} FunctionSize */

/** Every function with its size, keyed by where it starts. @returns {Promise<FunctionSize[]>} */
export async function measure() {
  const eslint = new ESLint({
    cwd: root,
    overrideConfig: { rules: { 'max-lines-per-function': ['warn', { max: 0, skipBlankLines: true, skipComments: true }], complexity: ['warn', 0] } },
  });
  const results = await eslint.lintFiles(TARGETS.map((t) => join(root, t)));
  /** @type {Map<string, FunctionSize>} */
  const byPlace = new Map();
  for (const r of results) {
    const file = relative(root, r.filePath);
    for (const m of r.messages) {
      const key = `${file}:${m.line}:${m.column}`;
      const entry = byPlace.get(key) ?? { file, line: m.line, name: nameOf(m.message), lines: 0, complexity: 1 };
      const n = Number(/\((\d+)\)|complexity of (\d+)/.exec(m.message)?.slice(1).find(Boolean) ?? 0);
      if (m.ruleId === 'max-lines-per-function') entry.lines = n;
      if (m.ruleId === 'complexity') entry.complexity = n;
      byPlace.set(key, entry);
    }
  }
  return [...byPlace.values()];
}

/** ESLint's name for a function: "Async function 'loop'", "Method 'set'", "Arrow function". @param {string} message */
function nameOf(message) {
  const m = /^(.*?(?:function|method|Function|Method)(?: '([^']*)')?)/.exec(message);
  return m?.[2] ?? m?.[1] ?? 'function';
}

async function main() {
  const args = process.argv.slice(2);
  const top = Number(args.includes('--top') ? args[args.indexOf('--top') + 1] : 25);
  const all = (await measure()).sort((a, b) => b.lines - a.lines);
  if (args.includes('--json')) { console.log(JSON.stringify(all, null, 2)); return; }
  const over = (/** @type {number} */ n) => all.filter((f) => f.lines > n).length;
  const loop = all.find((f) => f.file === 'src/chrome/agent/loop.js' && f.name === 'loop');
  console.log(`${all.length} functions; over ${MAX_FUNCTION_LINES} lines: ${over(MAX_FUNCTION_LINES)}; over 60: ${over(60)}; complexity over 30: ${all.filter((f) => f.complexity > 30).length}; the run loop's top function: ${loop ? `${loop.lines} lines, complexity ${loop.complexity}` : 'not found'}\n`);
  console.log('| lines | complexity | function | where |\n|---:|---:|---|---|');
  for (const f of all.slice(0, top)) console.log(`| ${f.lines} | ${f.complexity} | \`${f.name}\` | ${f.file}:${f.line} |`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main().catch((err) => { console.error(err); process.exitCode = 1; });
