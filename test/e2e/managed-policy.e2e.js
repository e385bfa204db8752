// An organization's policy applied the way an administrator applies it (Chromium: a JSON file in
// /etc/chromium/policies/managed; Firefox: distribution/policies.json of the install, here a private
// copy), read through storage.managed: the settings page shows what it set as "Set by your
// organization" with the controls disabled, a save cannot change it, a provider outside its list is
// refused, acting on a blocked site is refused with nothing sent, and a feature it switched off is
// absent. (The person's own job switches: job-controls.e2e.js.)
//
// Chromium's policy folder is system-wide: the file is keyed to this checkout's unpacked extension id,
// named for this test and removed in `after` (and at exit), and scripts/test.mjs must run this file
// when no other Chromium of the same checkout runs: a running Chromium re-reads the policy folder, and
// the policy is keyed to the extension id every Chromium of this checkout loads (docs/STORE.md).
import { rmSync } from 'node:fs';
import { expect } from 'chai';
import { browsers, ask, getServers, openPageWithPanel, sendFromPanel, useMockProvider, waitForIdle } from './harness/env.js';
import { launchChromium, launchFirefox } from './harness/browsers.js';
import { applyChromiumPolicy, privateFirefoxWithPolicy, CHROMIUM_POLICY_FILE } from './managed/policy-files.js';
import { findRef, lastToolResult } from '../fixtures/llm/conversation.js';

/** @import { TestEnv } from './harness/env.js' */

/** The tools a model request offered (OpenAI wire). @param {any} body @returns {string[]} */
const offered = (body) => (body.tools ?? []).map((/** @type {any} */ t) => t.function?.name ?? t.name);

for (const kind of browsers()) {
  describe(`managed policy [${kind}]`, function () {
    this.timeout(90_000);
    /** @type {TestEnv} */
    let env;
    /** @type {(() => Promise<void>) | null} */
    let remove = null;
    /** @type {string} */
    let blocked;
    const dropAtExit = () => { if (kind === 'chromium') rmSync(CHROMIUM_POLICY_FILE, { force: true }); };

    before(async function () {
      this.timeout(150_000);
      const { site, llm } = await getServers();
      blocked = new URL(site.url).host;
      const policy = {
        allowedProviderKinds: ['openai'],
        allowedBaseUrls: [llm.baseUrl],
        disabledFeatures: ['devTools', 'scheduler'],
        blockedSites: [blocked],
        strictSecrets: true,
        traceRetention: { keepDays: 7 },
      };
      let browser;
      if (kind === 'chromium') {
        process.once('exit', dropAtExit);
        remove = await applyChromiumPolicy(policy);
        browser = await launchChromium();
      } else {
        const ff = await privateFirefoxWithPolicy(policy);
        remove = ff.remove;
        browser = await launchFirefox({ executablePath: ff.executablePath });
      }
      const control = await browser.openExtensionPage('ui/options.html');
      env = { browser, control, site, llm };
      await control.waitFor(() => document.body.dataset.ready === 'true', undefined, { message: 'the settings page to load' });
    });

    after(async () => {
      await env?.browser.close();
      await remove?.();
      process.removeListener('exit', dropAtExit);
    });

    it('Settings show what the organization set, locked; a save cannot change it; a provider outside its list is refused', async () => {
      // A provider the policy allows (the default local Ollama is not one: Save would refuse it, saying so).
      await useMockProvider(env);
      const page = await env.browser.openExtensionPage('ui/options.html');
      await page.waitFor(() => document.body.dataset.ready === 'true', undefined, { message: 'the settings page to load' });
      try { await lockedSettings(page); } finally { await page.close(); }
    });

    /** @param {import('./harness/driver.js').Driver} page */
    async function lockedSettings(page) {
      const locks = await page.evaluate(() => Object.fromEntries(['strictSecrets', 'devTools', 'traceKeepDays', 'jobsPauseAll', 'jobsAskFirst', 'maxSteps'].map((id) => {
        const c = /** @type {HTMLInputElement} */ (document.getElementById(id));
        const label = c.closest('label') ?? document.querySelector(`label[for="${id}"]`);
        return [id, { disabled: c.disabled, checked: c.checked, value: c.value, mark: label?.querySelector('.org-lock')?.textContent ?? null }];
      })));
      for (const id of ['strictSecrets', 'devTools', 'traceKeepDays', 'jobsPauseAll', 'jobsAskFirst']) {
        expect(locks[id], id).to.deep.include({ disabled: true, mark: 'Set by your organization' });
      }
      expect(locks.strictSecrets.checked).to.equal(true);
      expect(locks.devTools.checked).to.equal(false);
      expect(locks.traceKeepDays.value).to.equal('7');
      expect(locks.maxSteps).to.deep.include({ disabled: false, mark: null }); // what the policy leaves alone stays the person's
      const note = await page.text('#org-note');
      expect(note).to.contain(`never act on: ${blocked}`);
      expect(note).to.contain('devTools, scheduler');
      // Save on the page leaves out what the organization set, and saves the rest.
      await page.fill('#maxSteps', '42');
      await page.click('#save');
      await page.waitFor(() => document.getElementById('result')?.textContent !== '', undefined, { message: 'the save to answer' });
      expect(await page.evaluate(() => document.getElementById('result')?.classList.contains('failed')), await page.text('#result')).to.equal(false);
      expect((await ask(page, { type: 'settings.get' })).data.maxSteps).to.equal(42);
      const refused = await ask(page, { type: 'settings.set', settings: { strictSecrets: false } });
      expect(refused).to.deep.include({ ok: false, code: 'SET_BY_ORGANIZATION' });
      const provider = await ask(page, { type: 'settings.set', settings: { provider: { kind: 'anthropic', baseUrl: 'https://api.anthropic.com', model: 'claude', apiKey: 'k' } } });
      expect(provider).to.deep.include({ ok: false, code: 'PROVIDER_NOT_ALLOWED' });
    }

    it('acting on a blocked site is refused and nothing is sent; the developer tools and new jobs are absent', async () => {
      await useMockProvider(env);
      // The person had turned the developer tools on before the policy came: the policy wins.
      await env.control.evaluate(async () => {
        const { settings } = await browser.storage.local.get('settings');
        await browser.storage.local.set({ settings: { ...settings, devTools: true } });
      });
      /** @type {string[]} */
      let tools = [];
      const DONE = { toolCalls: [{ name: 'done', args: { summary: 'Nothing was bought: your organization blocks acting on this site.' } }] };
      env.llm.script([
        (req) => { tools = offered(req.body); return { toolCalls: [{ name: 'snapshot', args: {} }] }; },
        (req) => ({ toolCalls: [{ name: 'click', args: { ref: findRef(lastToolResult(req.body), 'button', 'Place order') } }] }),
        (req) => {
          if (!lastToolResult(req.body).includes('SITE_BLOCKED')) throw new Error(`the click was not refused: ${lastToolResult(req.body)}`);
          return DONE;
        },
        // done is challenged after a refused step (agent/completion.js): the model says the same again.
        DONE, DONE, DONE, DONE, DONE,
      ]);
      const { page, panel } = await openPageWithPanel(env, 'checkout.html');
      const before = env.site.writes.length;
      try {
        await sendFromPanel(panel, 'Buy what is in my cart', 'act');
        const items = await waitForIdle(panel);
        expect(env.llm.problems).to.deep.equal([]);
        expect(tools).to.include('click');
        expect(tools).to.not.include('execute_js');
        expect(tools).to.not.include('network_requests');
        // The model was told SITE_BLOCKED (its third turn checks), and the panel's step says why.
        const click = items.find((i) => i.tool === 'click');
        expect(click?.text, JSON.stringify(click)).to.match(/organization does not allow/i);
        expect(env.site.writes.length).to.equal(before);
        expect(await page.evaluate(() => document.body.dataset.ordered ?? 'no')).to.equal('no');
        const job = await ask(env.control, { type: 'jobs.create', job: { prompt: 'Check the cart', mode: 'ask', target: { type: 'url', url: `${env.site.url}/article.html` }, schedule: { kind: 'once', afterSeconds: 0 } } });
        expect(job).to.deep.include({ ok: false, code: 'FEATURE_OFF' });
      } finally {
        await page.close();
        await panel.close();
      }
    });
  });
}
