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
import { pipeClient, openWhenLoaded } from './start-cdp.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (/** @type {string} */ name) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : undefined; };
const which = arg('--browser') ?? 'chromium';

const debugPort = arg('--debug-port');
const headless = process.argv.includes('--headless');

const site = await startSite();
const demo = `${site.url}/demo.html`;
console.log(`demo page: ${demo}`);

/** @type {import('node:child_process').ChildProcess} */
let child;
if (which === 'firefox') {
  child = startFirefox();
} else {
  const profile = await mkdtemp(join(tmpdir(), 'tw-start-'));
  const ext = join(root, 'src/chrome');
  // Chromium refuses to run as root (any container) without --no-sandbox.
  const root0 = typeof process.getuid === 'function' && process.getuid() === 0;
  // The welcome tab opens the side panel with one click (Chrome opens it only in answer to a click).
  // It and the demo page are opened over the DevTools pipe once the extension has loaded: given on the
  // command line the welcome tab loses the race with the extension's registration and shows
  // ERR_BLOCKED_BY_CLIENT, and the demo tab now and then stayed blank.
  const id = unpackedExtensionId(ext);
  const welcome = `chrome-extension://${id}/ui/welcome.html`;
  child = spawn(process.env.CHROMIUM_PATH ?? 'chromium', [`--user-data-dir=${profile}`, `--load-extension=${ext}`,
    `--disable-extensions-except=${ext}`, '--no-first-run', '--no-default-browser-check', '--remote-debugging-pipe',
    ...(headless ? ['--headless=new', '--disable-gpu'] : []), ...(debugPort ? [`--remote-debugging-port=${debugPort}`] : []),
    ...(root0 ? ['--no-sandbox'] : []), 'about:blank'], { stdio: ['inherit', 'inherit', 'inherit', 'pipe', 'pipe'] });
  if (root0) console.log('running as root: Chromium starts with --no-sandbox');
  const [, , , toBrowser, fromBrowser] = /** @type {any[]} */ (child.stdio);
  const cdp = pipeClient(toBrowser, fromBrowser);
  openWhenLoaded(cdp, id, [demo, welcome], (ms) => new Promise((r) => setTimeout(r, ms)))
    .then((ok) => console.log(ok ? `welcome page: ${welcome}` : 'Tabwright did not load; see chrome://extensions'))
    .catch((err) => console.log(`could not open the welcome page (${err.message}); open ${welcome} by hand`));
}
/**
 * Firefox through web-ext run, on the demo page. The welcome tab is opened by the add-on itself when it
 * is installed (platform/welcome-tab.js): web-ext loads its start URLs before it installs the add-on,
 * so a moz-extension:// one would stay blank. Firefox opens the sidebar by itself at the install.
 */
function startFirefox() {
  return spawn(join(root, 'node_modules/.bin/web-ext'), ['run', '--source-dir', join(root, 'src/firefox'),
    '--firefox', process.env.FIREFOX_PATH ?? 'firefox-esr', '--start-url', demo,
    ...(debugPort ? [`--arg=--remote-debugging-port=${debugPort}`] : [])],
  { stdio: 'inherit', env: { ...process.env, ...(headless ? { MOZ_HEADLESS: '1' } : {}) } });
}

child.on('exit', async (code) => { await site.close(); process.exit(code ?? 0); });
process.on('SIGINT', () => child.kill('SIGINT'));
