// The panel follows the system's light or dark scheme, lays out right to left, and speaks
// the browser's language. The run writes screenshots to test-artifacts/ (git-ignored); the README's
// set is copied from there to docs/screenshots/ (panel-chromium-dark, -ja, -de, -ar, panel-firefox-dark,
// -240, options-chromium-light), the newcomer's from test-artifacts/newcomer/.
import { expect } from 'chai';
import { mkdir } from 'node:fs/promises';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scenario } from './harness/scenario.js';
import { ask, getVariantEnv, openPageWithPanel, sendFromPanel, useMockProvider, waitForIdle } from './harness/env.js';
/** @import { Driver } from './harness/driver.js' */
import { findRef, lastToolResult, toolResults } from '../fixtures/llm/conversation.js';

/** @import { TestEnv } from './harness/env.js' */

const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), '../../test-artifacts');
const ANSWER = 'Signed in. The account page says:\n\n- **Welcome, alice**\n- Balance: `$1,024`\n\nNext, you could open the statements.';

/** A short sign-in conversation, so the shots show messages, tool cards, markdown and the counter. @param {TestEnv['llm']} llm */
function scriptSignIn(llm) {
  llm.script([
    { text: 'Let me look at the page.', toolCalls: [{ name: 'snapshot', args: {} }] },
    (req) => ({ toolCalls: [{ name: 'type', args: { ref: findRef(lastToolResult(req.body), 'textbox', 'Username'), text: 'alice' } }] }),
    (req) => ({ toolCalls: [{ name: 'type', args: { ref: findRef(toolResults(req.body)[0], 'textbox', 'Password'), text: 'hunter2' } }] }),
    (req) => ({ toolCalls: [{ name: 'click', args: { ref: findRef(toolResults(req.body)[0], 'button', 'Sign in') } }] }),
    { toolCalls: [{ name: 'done', args: { summary: ANSWER } }] },
  ]);
}

/** @param {Driver} panel */
const bodyColors = (panel) => panel.evaluate(() => ({ bg: getComputedStyle(document.body).backgroundColor, fg: getComputedStyle(document.body).color }));

/**
 * A browser of its own, for what cannot change in the shared one: the UI language (Chromium's --lang)
 * or the system's dark theme (a Firefox preference; Firefox over BiDi cannot emulate media features).
 * Returns a panel with the sign-in conversation in it, in a second browser (a language, the dark
 * scheme) shared with the other suites that need it; close() closes the pages it opened.
 * @param {TestEnv} env from getVariantEnv
 * @param {string} text what the user types
 */
async function signedInPanel(env, text) {
  await useMockProvider(env);
  const { page, panel } = await openPageWithPanel(env, 'login.html');
  await panel.viewport(420, 760);
  scriptSignIn(env.llm);
  await sendFromPanel(panel, text, 'act');
  await waitForIdle(panel);
  expect(env.llm.problems).to.deep.equal([]);
  return { panel, env, close: async () => { await page.close(); await panel.close(); } };
}

scenario('panel look', (ctx) => {
  it('follows the system light and dark schemes, lays out right to left, and writes screenshots', async function () {
    this.timeout(120_000);
    const { env, kind } = ctx;
    await mkdir(ARTIFACTS, { recursive: true });
    await useMockProvider(env, { pricing: { input: 3, output: 15 } });
    scriptSignIn(env.llm);
    const { page, panel } = await openPageWithPanel(env, 'login.html');
    try {
      await panel.viewport(420, 760);
      await sendFromPanel(panel, 'Sign in as alice with password hunter2', 'act');
      await waitForIdle(panel);
      // What the model typed into the password field is masked in the card and in the stored history.
      const typed = await panel.evaluate(() => [...document.querySelectorAll('details.tool[data-tool=type] .args pre')].map((p) => JSON.parse(p.textContent ?? '{}').text));
      expect(typed).to.deep.equal(['alice', '••••••']);
      const runs = await ask(env.control, { type: 'history.list' });
      const run = runs.ok ? await ask(env.control, { type: 'history.get', id: runs.data[0].id }) : runs;
      expect(run.ok).to.equal(true);
      const tools = run.ok ? run.data.items.filter((/** @type {any} */ i) => i.kind === 'tool') : [];
      expect(tools.map((/** @type {any} */ i) => i.name)).to.deep.equal(['snapshot', 'type', 'type', 'click', 'done']);
      expect(JSON.stringify(tools)).to.not.contain('hunter2');
      // Open one card so the shot shows its arguments and result.
      await panel.evaluate(() => { /** @type {HTMLDetailsElement} */ (document.querySelector('details.tool[data-tool=click]')).open = true; });

      if (kind === 'chromium') await panel.colorScheme('light');
      const light = await bodyColors(panel);
      await panel.screenshot(join(ARTIFACTS, `panel-${kind}-light.png`));
      expect(light.bg).to.equal('rgb(255, 255, 255)');
      // The narrowest sidebar (Firefox's default is about 240 px): nothing scrolls sideways.
      await panel.viewport(240, 760);
      expect(await panel.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).to.equal(true);
      await panel.screenshot(join(ARTIFACTS, `panel-${kind}-240.png`));
      await panel.viewport(420, 760);

      // Dark: the system preference, emulated (harness/driver.js colorScheme).
      await panel.colorScheme('dark');
      /** @type {{ bg: string, fg: string }} */
      let dark;
      try {
        dark = await bodyColors(panel);
        await panel.screenshot(join(ARTIFACTS, `panel-${kind}-dark.png`));
      } finally {
        await panel.colorScheme(null);
      }
      expect(dark.bg).to.equal('rgb(22, 24, 28)');
      expect(dark.fg).to.not.equal(light.fg);

      // Right to left: what an RTL locale's @@bidi_dir sets. The user's bubble moves to the left edge.
      const rtl = await panel.evaluate(() => {
        document.documentElement.dir = 'rtl';
        const log = /** @type {HTMLElement} */ (document.querySelector('#log')).getBoundingClientRect();
        const user = /** @type {HTMLElement} */ (document.querySelector('.msg.user')).getBoundingClientRect();
        // The header's first item starts at the right edge (the brand, or below 480 px the modes).
        const first = /** @type {HTMLElement} */ ([...document.querySelectorAll('.bar > *')].find((e) => e.getBoundingClientRect().width > 0)).getBoundingClientRect();
        return { userLeftGap: user.left - log.left, userRightGap: log.right - user.right, brandRight: window.innerWidth - first.right };
      });
      await panel.screenshot(join(ARTIFACTS, `panel-${kind}-rtl.png`));
      expect(rtl.userLeftGap).to.be.lessThan(rtl.userRightGap);
      expect(rtl.brandRight).to.be.lessThan(40);

      const options = await env.browser.openExtensionPage('ui/options.html');
      try {
        await options.viewport(720, 1100);
        await options.waitFor(() => document.body.dataset.ready === 'true', undefined, { message: 'the settings page' });
        await options.screenshot(join(ARTIFACTS, `options-${kind}-light.png`));
      } finally {
        await options.close();
      }
    } finally {
      await useMockProvider(env, { pricing: null });
      await page.close();
      await panel.close();
    }
  });

  if (ctx.kind === 'chromium') {
    // Chromium takes its UI language from --lang (Firefox's language runs are in panel-layout.e2e.js).
    it('speaks German when the browser does (--lang=de): panel, transcript controls and settings page', async function () {
      this.timeout(120_000);
      await mkdir(ARTIFACTS, { recursive: true });
      const own = await getVariantEnv('chromium', 'de');
      const signed = await signedInPanel(own, 'Melde dich als alice mit dem Passwort hunter2 an');
      try {
        const { panel } = signed;
        expect(await panel.evaluate(() => browser.i18n.getUILanguage())).to.match(/^de/);
        expect(await panel.text('#send')).to.equal('Senden');
        expect(await panel.text('#new-chat')).to.equal('Neuer Chat');
        expect(await panel.text('label:has(input[value=act]) span')).to.equal('Handeln');
        expect(await panel.evaluate(() => document.querySelector('#prompt')?.getAttribute('placeholder'))).to.equal('Fragen Sie zu dieser Seite oder geben Sie eine Aufgabe …');
        await panel.screenshot(join(ARTIFACTS, 'panel-chromium-de.png'));
        const options = await own.browser.openExtensionPage('ui/options.html');
        try {
          await options.viewport(720, 1100);
          await options.waitFor(() => document.body.dataset.ready === 'true', undefined, { message: 'the settings page' });
          expect(await options.text('h1')).to.equal('Tabwright-Einstellungen');
          await options.screenshot(join(ARTIFACTS, 'options-chromium-de.png'));
        } finally {
          await options.close();
        }
      } finally {
        await signed.close();
      }
    });

    it('speaks Japanese when the browser does (--lang=ja): the panel after a run', async function () {
      this.timeout(120_000);
      await mkdir(ARTIFACTS, { recursive: true });
      const signed = await signedInPanel(await getVariantEnv('chromium', 'ja'), 'alice とパスワード hunter2 でサインインして');
      try {
        const { panel } = signed;
        expect(await panel.evaluate(() => browser.i18n.getUILanguage())).to.match(/^ja/);
        expect(await panel.text('#send')).to.equal('送信');
        expect(await panel.text('#new-chat')).to.equal('新しいチャット');
        await panel.screenshot(join(ARTIFACTS, 'panel-chromium-ja.png'));
      } finally {
        await signed.close();
      }
    });

    it('speaks Arabic, right to left, when the browser does (--lang=ar): the panel after a run', async function () {
      this.timeout(120_000);
      await mkdir(ARTIFACTS, { recursive: true });
      const signed = await signedInPanel(await getVariantEnv('chromium', 'ar'), 'سجّل الدخول باسم alice وكلمة المرور hunter2');
      try {
        const { panel } = signed;
        expect(await panel.evaluate(() => browser.i18n.getUILanguage())).to.match(/^ar/);
        expect(await panel.evaluate(() => getComputedStyle(document.body).direction)).to.equal('rtl');
        expect(await panel.text('#send')).to.equal('إرسال');
        expect(await panel.text('#new-chat')).to.equal('محادثة جديدة');
        await panel.screenshot(join(ARTIFACTS, 'panel-chromium-ar.png'));
      } finally {
        await signed.close();
      }
    });
  }
});
