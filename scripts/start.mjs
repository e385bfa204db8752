#!/usr/bin/env node
// `npm start`: opens Chromium with the extension loaded and the demo pages served on 127.0.0.1.
// `npm start -- --browser firefox`: the same in Firefox through web-ext run.
import { spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSite } from '../test/fixtures/site/server.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (/** @type {string} */ name) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : undefined; };
const which = arg('--browser') ?? 'chromium';

const site = await startSite();
const demo = `${site.url}/index.html`;
console.log(`demo pages: ${demo}`);

/** @type {import('node:child_process').ChildProcess} */
let child;
if (which === 'firefox') {
  child = spawn(join(root, 'node_modules/.bin/web-ext'), ['run', '--source-dir', join(root, 'src/firefox'),
    '--firefox', process.env.FIREFOX_PATH ?? 'firefox-esr', '--start-url', demo], { stdio: 'inherit' });
} else {
  const profile = await mkdtemp(join(tmpdir(), 'tw-start-'));
  child = spawn(process.env.CHROMIUM_PATH ?? 'chromium', [`--user-data-dir=${profile}`, `--load-extension=${join(root, 'src/chrome')}`,
    `--disable-extensions-except=${join(root, 'src/chrome')}`, '--no-first-run', demo], { stdio: 'inherit' });
}
child.on('exit', async (code) => { await site.close(); process.exit(code ?? 0); });
process.on('SIGINT', () => child.kill('SIGINT'));
