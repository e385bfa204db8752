// Starts Tabwright the way the README says (`npm start`, `npm start -- --browser firefox`) and
// connects to the browser it opened, so the newcomer suite drives exactly what a person gets.
// Chromium runs headed (the side panel opens only in a real window) under an Xvfb of this helper's
// own when no display is set; Firefox runs headed there too, through web-ext run. The only
// additions are in the wrappers beside this file: a debugging port for the test, and the route
// to the local model stand-in (harness/local-models.js), as every harness browser has.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromiumLocalModelRules, firefoxLocalModelPrefs, localModels } from '../harness/local-models.js';
import { FIREFOX_UUID, GECKO_ID } from '../harness/browsers.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../../..');

/** A free TCP port on 127.0.0.1. */
function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = /** @type {import('node:net').AddressInfo} */ (s.address()); s.close(() => resolve(port)); });
  });
}

/** An X display of our own, unless one is set. @returns {Promise<{ display: string, stop: () => void }>} */
async function display() {
  if (process.env.DISPLAY) return { display: process.env.DISPLAY, stop: () => {} };
  const x = spawn('Xvfb', ['-displayfd', '1', '-screen', '0', '1280x900x24', '-nolisten', 'tcp'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const n = await new Promise((resolve, reject) => {
    let out = '';
    x.stdout.on('data', (d) => { out += d; if (out.includes('\n')) resolve(out.trim()); });
    x.once('exit', (code) => reject(new Error(`Xvfb exited (${code}); install it: apt-get install -y xvfb`)));
  });
  return { display: `:${n}`, stop: () => { x.kill(); } };
}

/** @param {() => Promise<any>} fn @param {string} what @param {number} [timeout] */
async function retry(fn, what, timeout = 30_000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    try { return await fn(); } catch (err) {
      if (Date.now() > deadline) throw new Error(`${what}: ${err instanceof Error ? err.message : err}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/**
 * @typedef {object} Started
 * @property {'chromium' | 'firefox'} kind
 * @property {import('puppeteer-core').Browser} browser
 * @property {string} demoUrl the demo page `npm start` printed
 * @property {string} output what `npm start` printed so far
 * @property {string} display the X display the browser's window is on (keys a person presses go there)
 * @property {string} downloads the downloads folder of the person's home (Chromium)
 * @property {() => Promise<void>} stop
 */

/** `npm start` in this browser, connected. @param {'chromium' | 'firefox'} kind @returns {Promise<Started>} */
export async function npmStart(kind) {
  const puppeteer = (await import('puppeteer-core')).default;
  const x = await display();
  const port = await freePort();
  const local = await localModels();
  // A home of its own for the browser, so what the person downloads lands in a folder the test reads and removes.
  const home = await mkdtemp(join(tmpdir(), 'tw-newcomer-home-'));
  const prefs = {
    'extensions.webextensions.uuids': JSON.stringify({ [GECKO_ID]: FIREFOX_UUID }),
    'browser.shell.checkDefaultBrowser': false, 'app.update.enabled': false,
    'datareporting.policy.dataSubmissionEnabled': false, 'toolkit.telemetry.enabled': false,
    ...firefoxLocalModelPrefs(local),
  };
  const env = {
    ...process.env, DISPLAY: x.display, TW_NEWCOMER_PORT: String(port), TW_NEWCOMER_HOME: home,
    CHROMIUM_PATH: join(here, 'chromium.sh'), FIREFOX_PATH: join(here, 'firefox.sh'),
    TW_NEWCOMER_HOST_RULES: chromiumLocalModelRules(local).join(','),
    TW_NEWCOMER_PREFS: Object.entries(prefs).map(([k, v]) => `user_pref(${JSON.stringify(k)}, ${JSON.stringify(v)});`).join('\n'),
  };
  const args = ['scripts/start.mjs', ...(kind === 'firefox' ? ['--browser', 'firefox'] : [])];
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout.on('data', (d) => { output += d; });
  child.stderr.on('data', (d) => { output += d; });
  const stop = async () => {
    try { process.kill(-(/** @type {number} */ (child.pid)), 'SIGTERM'); } catch { /* gone */ }
    await new Promise((r) => { if (child.exitCode !== null) r(undefined); else { child.once('exit', r); setTimeout(r, 5000); } });
    try { process.kill(-(/** @type {number} */ (child.pid)), 'SIGKILL'); } catch { /* gone */ }
    x.stop();
    await rm(home, { recursive: true, force: true }).catch(() => {});
  };
  try {
    const demoUrl = await retry(async () => {
      const m = /demo page: (\S+)/.exec(output);
      if (!m) throw new Error(`no demo page yet; npm start said: ${output.slice(-400)}`);
      return m[1];
    }, 'npm start to print its demo page');
    const browser = kind === 'chromium'
      ? await retry(() => puppeteer.connect({ browserURL: `http://127.0.0.1:${port}`, defaultViewport: null }), 'Chromium to listen', 40_000)
      : await retry(() => puppeteer.connect({ browserWSEndpoint: `ws://127.0.0.1:${port}/session`, protocol: 'webDriverBiDi', defaultViewport: null }), 'Firefox to listen', 60_000);
    return { kind, browser, demoUrl, display: x.display, downloads: join(home, 'Downloads'), get output() { return output; }, stop: async () => { await browser.disconnect().catch(() => {}); await stop(); } };
  } catch (err) {
    await stop();
    throw new Error(`${err instanceof Error ? err.message : err}\n--- npm start said:\n${output.slice(-2000)}`);
  }
}
