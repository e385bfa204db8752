#!/usr/bin/env node
// Copies the shared files from src/chrome (where shared code is edited) to src/firefox.
//   node scripts/sync.mjs          copy, and delete shared files in firefox that chrome no longer has
//   node scripts/sync.mjs --check  change nothing; exit 1 listing every drifted file
import { readdir, readFile, writeFile, mkdir, rm } from 'node:fs/promises';
import { join, dirname, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isTreeSpecific } from './trees.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const chromeDir = join(root, 'src/chrome');
const firefoxDir = join(root, 'src/firefox');

/** @param {string} dir @returns {Promise<string[]>} shared files, relative, forward slashes */
async function sharedFiles(dir) {
  /** @type {string[]} */
  const out = [];
  /** @param {string} d */
  async function walk(d) {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const abs = join(d, e.name);
      const rel = relative(dir, abs).split(sep).join('/');
      if (isTreeSpecific(e.isDirectory() ? rel + '/' : rel)) continue;
      if (e.isDirectory()) await walk(abs);
      else out.push(rel);
    }
  }
  await walk(dir);
  return out.sort();
}

/** @param {string} p */
async function readOrNull(p) {
  try { return await readFile(p); } catch { return null; }
}

/** @param {string} [a] the tree shared code is edited in @param {string} [b] its copy */
export async function findDrift(a = chromeDir, b = firefoxDir) {
  const [fromChrome, fromFirefox] = await Promise.all([sharedFiles(a), sharedFiles(b)]);
  /** @type {{file: string, problem: string}[]} */
  const drift = [];
  for (const rel of fromChrome) {
    const left = await readFile(join(a, rel));
    const right = await readOrNull(join(b, rel));
    if (!right) drift.push({ file: rel, problem: 'missing in src/firefox' });
    else if (!left.equals(right)) drift.push({ file: rel, problem: 'differs' });
  }
  const chromeSet = new Set(fromChrome);
  for (const rel of fromFirefox) if (!chromeSet.has(rel)) drift.push({ file: rel, problem: 'only in src/firefox' });
  return drift;
}

async function main() {
  if (process.argv.includes('--check')) {
    const drift = await findDrift();
    if (drift.length === 0) { console.log('parity: shared files identical in both trees'); return; }
    console.error(`parity: ${drift.length} shared file(s) drifted (edit in src/chrome, then run npm run sync):`);
    for (const d of drift) console.error(`  ${d.file}: ${d.problem}`);
    process.exitCode = 1;
    return;
  }
  const files = await sharedFiles(chromeDir);
  let copied = 0;
  for (const rel of files) {
    const src = await readFile(join(chromeDir, rel));
    const dest = join(firefoxDir, rel);
    const old = await readOrNull(dest);
    if (old && old.equals(src)) continue;
    await mkdir(dirname(dest), { recursive: true });
    await writeFile(dest, src);
    copied++;
  }
  const keep = new Set(files);
  let removed = 0;
  for (const rel of await sharedFiles(firefoxDir)) {
    if (!keep.has(rel)) { await rm(join(firefoxDir, rel)); removed++; }
  }
  console.log(`sync: ${copied} copied, ${removed} removed, ${files.length} shared files`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
