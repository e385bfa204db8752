// A headed Chromium for what only a person's real gestures can do: a key that reaches the browser
// itself (an extension command such as Tabwright's record key) and the real side panel. Keys go
// through the X server (xdotool's XTest input, as a keyboard's would), because CDP's key events stop
// at the page and never reach the browser's own shortcuts. Runs on $DISPLAY, or on an Xvfb the
// harness starts when there is none. The side panel is not one of Playwright's pages: it is driven
// over CDP (Runtime.evaluate, and Input.dispatchMouseEvent, whose clicks are trusted).
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { launchChromium } from './browsers.js';
import { getServers } from './env.js';
import { Driver } from './driver.js';

/** @import { TestEnv } from './env.js' */

const run = promisify(execFile);

/** @type {Promise<string> | null} */
let display = null;
/** @type {import('node:child_process').ChildProcess | null} */
let xvfb = null;

/** The X display to use: $DISPLAY, or a new Xvfb (closed when this process exits). */
export function ensureDisplay() {
  display ??= (async () => {
    if (process.env.DISPLAY) return process.env.DISPLAY;
    for (let n = 90 + (process.pid % 50); n < 200; n++) {
      if (existsSync(`/tmp/.X11-unix/X${n}`) || existsSync(`/tmp/.X${n}-lock`)) continue;
      xvfb = spawn('Xvfb', [`:${n}`, '-screen', '0', '1280x900x24', '-nolisten', 'tcp'], { stdio: 'ignore' });
      // The test process ends when its work does; the display goes with it.
      xvfb.unref();
      const started = Date.now();
      while (!existsSync(`/tmp/.X11-unix/X${n}`)) {
        if (xvfb.exitCode !== null || Date.now() - started > 10_000) throw new Error(`Xvfb :${n} did not start (apt-get install -y xvfb)`);
        await new Promise((r) => setTimeout(r, 50));
      }
      process.once('exit', () => xvfb?.kill());
      return `:${n}`;
    }
    throw new Error('no free X display number for Xvfb');
  })();
  return display;
}

/**
 * Keys pressed on the X display, as xdotool names them ("alt+shift+v"), into the Chromium window
 * whose title starts with the active tab's title.
 * @param {string} keys @param {string} title @param {string} [on] the display (else this harness's own)
 */
export async function pressKeys(keys, title, on) {
  const env = { ...process.env, DISPLAY: on ?? await ensureDisplay() };
  const { stdout } = await run('xdotool', ['search', '--onlyvisible', '--name', title], { env }).catch((err) => {
    if (err.code === 'ENOENT') throw new Error('xdotool not found: the recorder e2e presses keys through the X server (apt-get install -y xdotool)');
    // xdotool search exits 1 when nothing matched.
    return { stdout: '' };
  });
  const win = stdout.trim().split('\n').filter(Boolean).pop();
  if (!win) throw new Error(`no browser window titled ${title}`);
  await run('xdotool', ['windowfocus', '--sync', win], { env });
  await run('xdotool', ['key', '--clearmodifiers', keys], { env });
}

/** A Chrome shortcut as Chrome writes it ("Alt+Shift+V") in xdotool's names. @param {string} shortcut */
export function xdotoolKeys(shortcut) {
  return shortcut.split('+').map((k) => ({ Ctrl: 'ctrl', Alt: 'alt', Shift: 'shift', Command: 'super' }[k] ?? k.toLowerCase())).join('+');
}

/** @returns {Promise<TestEnv & { close(): Promise<void> }>} */
export async function headedChromiumEnv() {
  const DISPLAY = await ensureDisplay();
  const { site, llm } = await getServers();
  const browser = await launchChromium({ headed: true, env: { ...process.env, DISPLAY } });
  const control = await browser.openExtensionPage('ui/options.html');
  return { browser, control, site, llm, close: () => browser.close() };
}

/**
 * The window's real side panel (opened by a person: the toolbar button or its key), as a Driver.
 * @param {TestEnv} env @returns {Promise<Driver>}
 */
export async function sidePanel(env) {
  const ctx = env.browser.raw;
  const cdp = await ctx.browser().newBrowserCDPSession();
  const panelUrl = `${env.browser.extBase}ui/panel.html`;
  /** @type {any} */
  let target = null;
  for (const started = Date.now(); !target; await new Promise((r) => setTimeout(r, 100))) {
    const { targetInfos } = await cdp.send('Target.getTargets');
    target = targetInfos.find((/** @type {any} */ t) => t.url === panelUrl);
    if (!target && Date.now() - started > 15_000) throw new Error('the side panel did not open');
  }
  // Playwright's CDP sessions take no session id, so the panel's session is the older,
  // non-flattened kind: commands and answers travel wrapped in Target messages.
  const { sessionId } = await cdp.send('Target.attachToTarget', { targetId: target.targetId, flatten: false });
  let next = 0;
  /** @type {Map<number, (m: any) => void>} */
  const waiting = new Map();
  cdp.on('Target.receivedMessageFromTarget', (/** @type {any} */ e) => {
    if (e.sessionId !== sessionId) return;
    const m = JSON.parse(e.message);
    waiting.get(m.id)?.(m);
    waiting.delete(m.id);
  });
  /** @param {string} method @param {object} params @returns {Promise<any>} */
  const send = (method, params) => new Promise((resolve, reject) => {
    const id = ++next;
    waiting.set(id, (m) => (m.error ? reject(new Error(`${method}: ${m.error.message}`)) : resolve(m.result)));
    cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) }).catch(reject);
  });
  /** @param {any} fn @param {any} arg */
  async function evaluate(fn, arg) {
    const r = await send('Runtime.evaluate', { expression: typeof fn === 'string' ? fn : `(${fn})(${JSON.stringify(arg ?? null)})`, awaitPromise: true, returnByValue: true });
    if (r.exceptionDetails) throw new Error(r.exceptionDetails.exception?.description ?? r.exceptionDetails.text);
    return r.result.value;
  }
  const raw = {
    evaluate,
    /** @param {string} selector */
    async click(selector) {
      const at = await evaluate((/** @type {string} */ sel) => {
        const el = document.querySelector(sel);
        if (!el) return null;
        el.scrollIntoView({ block: 'center' });
        const r = el.getBoundingClientRect();
        return r.width && r.height ? { x: r.x + r.width / 2, y: r.y + r.height / 2 } : null;
      }, selector);
      if (!at) throw new Error(`no visible ${selector} in the side panel`);
      for (const type of ['mousePressed', 'mouseReleased']) await send('Input.dispatchMouseEvent', { type, ...at, button: 'left', clickCount: 1 });
    },
    async goto() { throw new Error('the side panel shows the panel only'); },
    async reload() { throw new Error('the side panel is not reloaded by the tests'); },
    async bringToFront() {},
    async close() { await cdp.detach().catch(() => {}); },
    url: () => panelUrl,
  };
  return new Driver('chromium', raw);
}

/** The title of Chrome's share picker (getDisplayMedia's), a window of its own on the X display. */
export const SHARE_PICKER = '^Choose what to share with Tabwright';

/**
 * Keys pressed in Chrome's share picker once it is shown: it is browser UI, which only the X
 * server's keys reach. Waits (a hang guard) for the picker's window to appear.
 * @param {string[]} keys each an xdotool key, pressed in turn @param {string} [on] the display
 */
export async function pickerKeys(keys, on) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    try { await pressKeys(keys[0], SHARE_PICKER, on); break; } catch (err) {
      if (!/no browser window/.test(String(err)) || Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  for (const k of keys.slice(1)) await pressKeys(k, SHARE_PICKER, on);
}
