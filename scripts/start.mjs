#!/usr/bin/env node
// `npm start`: opens Chromium with the extension loaded and the demo pages served on 127.0.0.1.
// `npm start -- --browser firefox`: the same in Firefox through web-ext run.
import { spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSite } from '../test/fixtures/site/server.js';
import { unpackedExtensionId } from '../test/e2e/harness/browsers.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (/** @type {string} */ name) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : undefined; };
const which = arg('--browser') ?? 'chromium';

const site = await startSite();
const demo = `${site.url}/demo.html`;
console.log(`demo page: ${demo}`);

/** @type {import('node:child_process').ChildProcess} */
let child;
if (which === 'firefox') {
  child = spawn(join(root, 'node_modules/.bin/web-ext'), ['run', '--source-dir', join(root, 'src/firefox'),
    '--firefox', process.env.FIREFOX_PATH ?? 'firefox-esr', '--start-url', demo], { stdio: 'inherit' });
} else {
  const profile = await mkdtemp(join(tmpdir(), 'tw-start-'));
  const ext = join(root, 'src/chrome');
  // Chromium refuses to run as root (any container) without --no-sandbox.
  const root0 = typeof process.getuid === 'function' && process.getuid() === 0;
  // The welcome tab opens the side panel with one click (Chrome opens it only in answer to a click).
  const welcome = `chrome-extension://${unpackedExtensionId(ext)}/ui/welcome.html`;
  child = spawn(process.env.CHROMIUM_PATH ?? 'chromium', [`--user-data-dir=${profile}`, `--load-extension=${ext}`,
    `--disable-extensions-except=${ext}`, '--no-first-run', '--no-default-browser-check', ...(root0 ? ['--no-sandbox'] : []), welcome, demo], { stdio: 'inherit' });
  if (root0) console.log('running as root: Chromium starts with --no-sandbox');
}
child.on('exit', async (code) => { await site.close(); process.exit(code ?? 0); });
process.on('SIGINT', () => child.kill('SIGINT'));
