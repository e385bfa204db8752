#!/usr/bin/env node
// `npm run package`: the Chrome Web Store zip and the Firefox package (addons.mozilla.org), built
// from the two trees as they load, with the version from package.json. Reproducible: the files in
// name order, one fixed time and mode on every entry (SOURCE_DATE_EPOCH when set), so the same
// sources give the same bytes on any machine. The Firefox package passes `web-ext lint` with 0 errors
// and 0 warnings (the vendored third-party libraries, unmodified copies of published packages, are
// excluded from the lint as in `npm run lint`); sizes and SHA-256 are printed.
//   node scripts/package.mjs [--out dist] [--check]   --check: build twice and compare the bytes
import { createHash } from 'node:crypto';
import { mkdtemp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import yazl from 'yazl';

// DOS timestamps in a zip are local time: one zone for every machine.
process.env.TZ = 'UTC';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Files the browsers never load: type declarations and the type checker's configuration. */
const NOT_SHIPPED = [/\.d\.m?ts$/, /(^|\/)tsconfig\.json$/, /(^|\/)\.DS_Store$/];
/** Vendored third-party libraries (copied from their npm packages by scripts/vendor.mjs), as `npm run lint` ignores them. */
export const THIRD_PARTY = ['vendor/pdf.mjs', 'vendor/pdf.worker.mjs', 'vendor/purify.js', 'vendor/readability.js', 'vendor/turndown.js'];
/** Files every tree needs from `npm install`: without them the package would not load. */
const NEEDED_VENDOR = ['vendor/browser-polyfill.js', 'vendor/idb.js', 'vendor/pdf.mjs'];
/** 2026-01-01T00:00:00Z unless SOURCE_DATE_EPOCH says otherwise. */
const DEFAULT_EPOCH = 1767225600;

/** @param {string} dir @returns {Promise<string[]>} paths relative to dir, with forward slashes, in byte order */
async function listFiles(dir) {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'))
    .filter((rel) => !NOT_SHIPPED.some((re) => re.test(rel)))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The bytes of one tree's package. @param {string} treeDir @param {string} version @param {Date} mtime
 * @returns {Promise<{ bytes: Buffer, files: number }>}
 */
export async function buildPackage(treeDir, version, mtime) {
  const files = await listFiles(treeDir);
  for (const need of NEEDED_VENDOR) {
    if (!files.includes(need)) throw new Error(`${relative(root, treeDir)}/${need} is missing: run npm install first (it fills the vendor folders).`);
  }
  const zip = new yazl.ZipFile();
  for (const rel of files) {
    let data = await readFile(join(treeDir, rel));
    if (rel === 'manifest.json') data = Buffer.from(`${JSON.stringify({ ...JSON.parse(data.toString('utf8')), version }, null, 2)}\n`);
    zip.addBuffer(data, rel, { mtime, mode: 0o100644, compress: true, compressionLevel: 9 });
  }
  zip.end();
  const chunks = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk);
  return { bytes: Buffer.concat(chunks), files: files.length };
}

/** @param {string[]} argv */
function parseArgs(argv) {
  const out = argv.includes('--out') ? argv[argv.indexOf('--out') + 1] : 'dist';
  // An absolute --out is taken as it is (join would have put it inside the project).
  return { out: resolve(root, out), check: argv.includes('--check') };
}

/** web-ext lint of the Firefox tree as packaged: the counts, and the messages when any. @param {string} dir */
function lintFirefox(dir) {
  const bin = join(root, 'node_modules/.bin/web-ext');
  const r = spawnSync(bin, ['lint', '--source-dir', dir, '--output', 'json', '--ignore-files', ...THIRD_PARTY], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const start = r.stdout.indexOf('{');
  if (start < 0) throw new Error(`web-ext lint gave no report: ${r.stderr || r.stdout}`);
  const report = JSON.parse(r.stdout.slice(start));
  /** @type {string[]} */
  const lines = ['errors', 'warnings'].flatMap((k) => report[k].map((/** @type {any} */ m) => `${k.slice(0, -1)} ${m.code} ${m.file ?? ''}: ${m.message}`));
  return { errors: report.summary.errors, warnings: report.summary.warnings, lines };
}

/** Unzips a package into a fresh folder, for the lint (the lint reads what ships, not the tree). @param {Buffer} bytes */
async function unpacked(bytes) {
  const dir = await mkdtemp(join(tmpdir(), 'tw-pkg-'));
  const file = join(dir, 'package.zip');
  await writeFile(file, bytes);
  const out = join(dir, 'x');
  await mkdir(out);
  const r = spawnSync('python3', ['-c', 'import sys,zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])', file, out]);
  if (r.status !== 0) throw new Error(`could not unpack the package: ${r.stderr}`);
  return { dir, out };
}

async function main() {
  const { out, check } = parseArgs(process.argv.slice(2));
  const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
  const epoch = Number(process.env.SOURCE_DATE_EPOCH ?? DEFAULT_EPOCH);
  const mtime = new Date(epoch * 1000);
  const sync = spawnSync('node', [join(root, 'scripts/sync.mjs'), '--check'], { encoding: 'utf8' });
  if (sync.status !== 0) throw new Error(`the trees have drifted (npm run sync): ${sync.stdout}${sync.stderr}`);
  await mkdir(out, { recursive: true });
  let failed = false;
  for (const [browser, ext] of /** @type {const} */ ([['chrome', 'zip'], ['firefox', 'xpi']])) {
    const built = await buildPackage(join(root, 'src', browser), pkg.version, mtime);
    const name = `tabwright-${browser}-${pkg.version}.${ext}`;
    await writeFile(join(out, name), built.bytes);
    const sha = createHash('sha256').update(built.bytes).digest('hex');
    console.log(`${relative(root, join(out, name))}: ${built.files} files, ${(built.bytes.length / 1024).toFixed(0)} KiB, sha256 ${sha}`);
    if (check) {
      const again = await buildPackage(join(root, 'src', browser), pkg.version, mtime);
      const same = again.bytes.equals(built.bytes);
      console.log(`  built again: ${same ? 'the same bytes' : 'DIFFERENT bytes'}`);
      failed ||= !same;
    }
    if (browser === 'firefox') {
      const { dir, out: x } = await unpacked(built.bytes);
      const lint = lintFirefox(x);
      await rm(dir, { recursive: true, force: true });
      console.log(`  web-ext lint: ${lint.errors} errors, ${lint.warnings} warnings (third-party libraries excluded: ${THIRD_PARTY.join(', ')})`);
      for (const line of lint.lines) console.log(`    ${line}`);
      failed ||= lint.errors + lint.warnings > 0;
    }
  }
  if (failed) process.exitCode = 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((err) => { console.error(`package: ${err instanceof Error ? err.message : err}`); process.exitCode = 1; });
}
