// `npm start` lands on pages that work: the welcome tab (an extension page: in Chromium opened by the
// script once the extension has loaded, in Firefox by the add-on at its install) and the demo page
// load. The script is run as a person runs it (its own browser, its own profile); the test only
// looks, through the debugging port the script is asked to open.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';
import { browsers } from './harness/env.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** A port nothing listens on now (the OS picks it), so the test never reaches another browser. */
async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(null)));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Runs scripts/start.mjs headless. `ready` resolves once it says the extension is in (Chromium: the
 * welcome page's address); `stop` ends it as Ctrl+C does and kills what is left, whatever happened.
 * @param {'chromium' | 'firefox'} kind @param {number} port
 */
function npmStart(kind, port) {
  const child = spawn(process.execPath, [join(root, 'scripts/start.mjs'), '--browser', kind, '--headless', '--debug-port', String(port)],
    { stdio: ['ignore', 'pipe', 'ignore'], detached: true, env: { ...process.env, CHROMIUM_PATH: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', FIREFOX_PATH: process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr' } });
  let out = '';
  const ended = new Promise((resolve) => child.once('exit', resolve));
  const demo = () => /demo page: (\S+)/.exec(out)?.[1] ?? '';
  const ready = new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = /welcome page: (\S+)/.exec(out);
      if (m) resolve({ welcome: m[1], demo: demo() });
      if (kind === 'firefox' && out.includes('as a temporary add-on')) resolve({ welcome: '', demo: demo() });
      if (/could not open the welcome page|did not load/.test(out)) reject(new Error(out));
    });
    child.on('exit', () => reject(new Error(`npm start ended:\n${out}`)));
  });
  const group = -(/** @type {number} */ (child.pid));
  const stop = async () => {
    try { process.kill(group, 'SIGINT'); } catch { /* gone */ }
    await Promise.race([ended, new Promise((r) => setTimeout(r, 10_000))]);
    try { process.kill(group, 'SIGKILL'); } catch { /* all gone */ }
  };
  return { ready: /** @type {Promise<{ welcome: string, demo: string }>} */ (ready), stop, said: () => out };
}

/**
 * Polls a read until it gives a value, for at most 150 s (the test's guard is 180 s from the start): a browser
 * started on a busy machine may take a while to open its debugging port and load its first tabs.
 * Past that, the error says what the last read answered.
 * @template T @param {() => Promise<T | null>} read @param {number} [ms]
 */
async function until(read, ms = 150_000) {
  const end = Date.now() + ms;
  /** @type {unknown} */
  let last = null;
  while (Date.now() < end) {
    const v = await read().catch((err) => { last = err; return null; });
    if (v) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`not reached in ${ms / 1000} s (last: ${last instanceof Error ? last.message : String(last)})`);
}

describe('npm start', () => {
  for (const kind of browsers()) {
    it(`${kind}: opens the welcome tab and the demo page, and both load`, async function () {
      // Firefox on a loaded machine can take well over a minute to start web-ext's profile and open
      // the welcome tab: the guards only catch a hang.
      this.timeout(200_000);
      const port = await freePort();
      const run = npmStart(kind, port);
      /** @type {ReturnType<typeof setTimeout> | undefined} */
      let timer;
      try {
        // A hang guard below mocha's own, so the browser is always stopped and what the script said is shown.
        const guard = /** @type {Promise<never>} */ (new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`no answer in 180 s; npm start said:\n${run.said()}`)), 180_000); }));
        const started = await Promise.race([run.ready, guard]);
        /** @type {(url: string) => Promise<string | null>} */
        let titleOf;
        if (kind === 'chromium') {
          // The DevTools HTTP list gives each tab's address and title (a blocked tab's title is its
          // address or "… is blocked"); nothing attaches to the browser.
          titleOf = async (url) => {
            const list = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
            const tab = list.find((/** @type {{ type: string, url: string }} */ x) => x.type === 'page' && x.url === url);
            return tab && tab.title && tab.title !== url && !tab.title.endsWith(url.replace(/^\w+:\/\//, '')) ? `${tab.title}|` : null;
          };
        } else {
          const b = await Promise.race([until(() => puppeteer.connect({ browserWSEndpoint: `ws://127.0.0.1:${port}/session`, protocol: 'webDriverBiDi' })), guard]);
          // The add-on's address is web-ext's random one: the welcome tab is the moz-extension page at ui/welcome.html.
          titleOf = async (url) => {
            const page = (await b.pages()).find((p) => (url ? p.url() === url : /^moz-extension:\/\/[^/]+\/ui\/welcome\.html$/.test(p.url())));
            return page ? page.evaluate(() => (document.readyState === 'complete' ? `${document.title}|${document.body.innerText}` : null)) : null;
          };
        }
        const welcome = await Promise.race([until(() => titleOf(started.welcome)), guard]);
        expect(welcome).to.match(/^Welcome to Tabwright\|/);
        if (kind === 'chromium') {
          // One welcome tab: the unpacked copy's install (installType development) opens none of its own.
          const list = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
          expect(list.filter((/** @type {{ type: string, url: string }} */ x) => x.type === 'page' && x.url.endsWith('/ui/welcome.html'))).to.have.length(1);
        }
        if (kind === 'firefox') expect(welcome).to.contain('Open the Tabwright panel');
        const demo = await Promise.race([until(() => titleOf(started.demo)), guard]);
        expect(demo).to.match(/^Try Tabwright\|/);
      } finally {
        clearTimeout(timer);
        await run.stop();
      }
    });
  }
});
