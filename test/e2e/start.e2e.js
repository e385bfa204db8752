// `npm start` lands on pages that work: in Chromium the welcome tab (an extension page) and the demo
// page load; in Firefox (which opens the sidebar itself on install) the demo page loads with the add-on. The script is run as a person runs it (its own browser, its own profile); the test
// only looks, through the debugging port the script is asked to open.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { BROWSERS } from './harness/env.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Runs scripts/start.mjs headless and resolves once it prints the welcome page's address.
 * @param {'chromium' | 'firefox'} kind @param {number} port
 */
async function npmStart(kind, port) {
  const child = spawn(process.execPath, [join(root, 'scripts/start.mjs'), '--browser', kind, '--headless', '--debug-port', String(port)],
    { stdio: ['ignore', 'pipe', 'ignore'], detached: true, env: { ...process.env, CHROMIUM_PATH: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', FIREFOX_PATH: process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr' } });
  let out = '';
  const said = new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = /welcome page: (\S+)/.exec(out);
      if (m) resolve(m[1]);
      if (kind === 'firefox' && out.includes('as a temporary add-on')) resolve('');
      if (/could not open the welcome page|did not load/.test(out)) reject(new Error(out));
    });
    child.on('exit', () => reject(new Error(`npm start ended:\n${out}`)));
  });
  const welcome = /** @type {string} */ (await said);
  const demo = /demo page: (\S+)/.exec(out)?.[1] ?? '';
  const group = -(/** @type {number} */ (child.pid));
  const ended = new Promise((resolve) => child.once('exit', resolve));
  /** Ctrl+C as a person ends it; what still runs after the script has gone is killed. */
  const stop = async () => {
    try { process.kill(group, 'SIGINT'); } catch { /* gone */ }
    await Promise.race([ended, new Promise((r) => setTimeout(r, 10_000))]);
    try { process.kill(group, 'SIGKILL'); } catch { /* all gone */ }
  };
  return { welcome, demo, stop };
}

/** Polls a read until it gives a value (a count of tries as the hang guard). @template T @param {() => Promise<T | null>} read */
async function until(read) {
  for (let i = 0; i < 300; i++) {
    const v = await read().catch(() => null);
    if (v) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('not reached');
}

describe('npm start', () => {
  for (const kind of BROWSERS) {
    it(`${kind}: ${kind === 'chromium' ? 'opens the welcome tab and the demo page, and both load' : 'opens the demo page with the add-on installed'}`, async function () {
      this.timeout(120_000);
      const port = 9300 + Math.floor(Math.random() * 500);
      const started = await npmStart(kind, port);
      try {
        /** @type {(url: string) => Promise<string | null>} */
        let titleOf;
        if (kind === 'chromium') {
          const b = await until(() => chromium.connectOverCDP(`http://127.0.0.1:${port}`));
          titleOf = async (url) => {
            const page = b.contexts()[0].pages().find((p) => p.url() === url);
            return page ? page.evaluate(() => (document.readyState === 'complete' ? `${document.title}|${document.body.innerText}` : null)) : null;
          };
        } else {
          const b = await until(() => puppeteer.connect({ browserWSEndpoint: `ws://127.0.0.1:${port}/session`, protocol: 'webDriverBiDi' }));
          titleOf = async (url) => {
            const page = (await b.pages()).find((p) => p.url() === url);
            return page ? page.evaluate(() => (document.readyState === 'complete' ? `${document.title}|${document.body.innerText}` : null)) : null;
          };
        }
        if (kind === 'chromium') {
          const welcome = await until(() => titleOf(started.welcome));
          expect(welcome).to.match(/^Welcome to Tabwright\|/);
          expect(welcome).to.contain('Open the Tabwright panel');
          expect(welcome).not.to.contain('ERR_BLOCKED_BY_CLIENT');
        }
        const demo = await until(() => titleOf(started.demo));
        expect(demo.length).to.be.greaterThan(20);
      } finally {
        await started.stop();
      }
    });
  }
});
