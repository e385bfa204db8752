#!/usr/bin/env node
// postinstall: copies the browser-ready files of runtime libraries from node_modules into
// src/vendor and into each tree's vendor/. All three are git-ignored: no third-party code is committed.
import { copyFile, mkdir, access, writeFile } from 'node:fs/promises';
import { join, dirname, basename } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** [package-relative source, name in vendor/] */
const FILES = [
  ['webextension-polyfill/dist/browser-polyfill.min.js', 'browser-polyfill.js'],
  ['idb/build/index.js', 'idb.js'],
  ['pdfjs-dist/build/pdf.min.mjs', 'pdf.mjs'],
  ['pdfjs-dist/build/pdf.worker.min.mjs', 'pdf.worker.mjs'],
  ['marked/lib/marked.esm.js', 'marked.js'],
  ['marked/lib/marked.d.ts', 'marked.d.ts'],
  ['dompurify/dist/purify.es.mjs', 'purify.js'],
  ['@mozilla/readability/Readability.js', 'readability.js'],
  ['turndown/lib/turndown.browser.umd.js', 'turndown.js'],
  ['js-yaml/dist/js-yaml.mjs', 'js-yaml.js'],
  ['js-yaml/dist/js-yaml.d.ts', 'js-yaml.d.ts'],
];

/** Type declarations written beside the copies, so tsc checks our code against them, not the minified code. */
const DECLARATIONS = {
  'browser-polyfill.d.ts': '// Side-effect import: defines globalThis.browser.\nexport {};\n',
  'pdf.d.mts': 'export const getDocument: any;\nexport const GlobalWorkerOptions: { workerSrc: string };\n',
  // DOMPurify's own declarations import trusted-types; the panel needs only sanitize and hooks.
  'purify.d.ts': 'declare const DOMPurify: {\n  sanitize(dirty: string, cfg?: Record<string, unknown>): string;\n  addHook(entry: string, hook: (node: Element, data?: any) => void): void;\n};\nexport default DOMPurify;\n',
};

const targets = ['src/vendor', 'src/chrome/vendor', 'src/firefox/vendor'].map((t) => join(root, t));
let missing = 0;
for (const t of targets) await mkdir(t, { recursive: true });
for (const [from, to] of FILES) {
  const src = join(root, 'node_modules', from);
  try { await access(src); } catch { console.error(`vendor: ${from} not found; is the package installed?`); missing++; continue; }
  for (const t of targets) await copyFile(src, join(t, to));
}
for (const t of targets) {
  for (const [name, text] of Object.entries(DECLARATIONS)) await writeFile(join(t, name), text);
  // idb ships its own declarations; they reference sibling files, so copy them all.
  for (const d of ['index.d.ts', 'entry.d.ts', 'wrap-idb-value.d.ts', 'async-iterators.d.ts', 'database-extras.d.ts', 'util.d.ts']) {
    const src = join(root, 'node_modules/idb/build', d);
    try { await access(src); await copyFile(src, join(t, d === 'index.d.ts' ? 'idb.d.ts' : d)); } catch { /* optional */ }
  }
}
console.log(`vendor: ${FILES.length - missing} file(s) copied into ${targets.length} folders`);
if (missing) process.exitCode = 1;
