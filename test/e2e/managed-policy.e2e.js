// An organization's policy applied the way an administrator applies it (Chromium: a JSON file in
// /etc/chromium/policies/managed; Firefox: distribution/policies.json of the install, here a private
// copy), read through storage.managed: the settings page shows what it set as "Set by your
// organization" with the controls disabled, a save cannot change it, a provider outside its list is
// refused, acting on a blocked site is refused with nothing sent, and a feature it switched off is
// absent. Then the person's own switches: pause all jobs, and ask before every scheduled run.
//
// Chromium's policy folder is system-wide: the file is keyed to this checkout's unpacked extension id,
// named for this test and removed in `after` (and at exit), and scripts/test.mjs must run this file
// when no other Chromium test of the same checkout runs (docs/TESTING.md).
import { rmSync } from 'node:fs';
import { expect } from 'chai';
import { BROWSERS, ask, getServers, openPageWithPanel, sendFromPanel, useMockProvider, waitForIdle } from './harness/env.js';
import { scenario } from './harness/scenario.js';
import { launchChromium, launchFirefox } from './harness/browsers.js';
import { applyChromiumPolicy, privateFirefoxWithPolicy, CHROMIUM_POLICY_FILE } from './managed/policy-files.js';
import { findRef, lastToolResult } from '../fixtures/llm/conversation.js';

/** @import { TestEnv } from './harness/env.js' */

/** The tools a model request offered (OpenAI wire). @param {any} body @returns {string[]} */
const offered = (body) => (body.tools ?? []).map((/** @type {any} */ t) => t.function?.name ?? t.name);

for (const kind of BROWSERS) {
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

scenario('scheduled jobs: pause all, ask before every run', (ctx) => {
  /** @param {TestEnv} env @param {string} id */
  const jobOf = async (env, id) => (await ask(env.control, { type: 'jobs.list' })).data.jobs.find((/** @type {any} */ j) => j.id === id);
  /** @param {TestEnv} env @param {string} id @param {string} state */
  const waitState = (env, id, state) => env.control.waitFor(async ({ id, state }) => {
    const r = await browser.runtime.sendMessage({ type: 'jobs.list' });
    const j = r.ok && r.data.jobs.find((/** @type {any} */ x) => x.id === id);
    return j && j.state === state ? j : null;
  }, { id, state }, { timeout: 30_000, message: `the job to be ${state}` });
  /** Clicks a jobs switch on the settings page and waits until it is saved. @param {TestEnv} env @param {string} id @param {boolean} on */
  const toggle = async (env, id, on) => {
    await env.control.click(`#${id}`);
    await env.control.waitFor(async ({ key, on }) => {
      const r = await browser.runtime.sendMessage({ type: 'settings.get' });
      return r.ok && (r.data.jobs?.[key] === true) === on;
    }, { key: id === 'jobsPauseAll' ? 'pauseAll' : 'askBeforeRun', on }, { message: `${id} to be saved` });
  };
  /** A job due now (each prompt its own: the same job asked for twice within minutes is one job). @param {TestEnv} env @param {string} prompt */
  const create = async (env, prompt) => {
    const r = await ask(env.control, { type: 'jobs.create', job: { title: 'Read the article', prompt, mode: 'ask', target: { type: 'url', url: `${env.site.url}/article.html` }, schedule: { kind: 'once', afterSeconds: 0 } } });
    if (!r.ok) throw new Error(r.message);
    return /** @type {string} */ (r.data.job.id);
  };

  it('pause all holds a due job with no model request; lifting it runs the job once; ask first waits for Run now', async () => {
    const { env } = ctx;
    await useMockProvider(env);
    await env.control.waitFor(() => document.body.dataset.ready === 'true');
    env.llm.script([{ text: 'It is 48 metres tall.' }, { text: 'Still 48 metres.' }]);
    /** @type {string[]} */
    const ids = [];
    try {
      await toggle(env, 'jobsPauseAll', true);
      ids.push(await create(env, 'How tall is the lighthouse?'));
      // jobs.create ticks before it answers: a job it would start is running by now.
      expect((await jobOf(env, ids[0])).state).to.equal('pending');
      expect(env.llm.requests).to.have.length(0);
      await toggle(env, 'jobsPauseAll', false);
      const done = await waitState(env, ids[0], 'completed');
      expect(done.lastResult.text).to.contain('48 metres');
      expect(env.llm.requests).to.have.length(1);

      await toggle(env, 'jobsAskFirst', true);
      ids.push(await create(env, 'Is the lighthouse still 48 metres tall?'));
      const waiting = await jobOf(env, ids[1]);
      expect(waiting.state).to.equal('needs_user_input');
      expect(waiting.lastResult.text).to.contain('Run now');
      expect(env.llm.requests).to.have.length(1);
      expect((await ask(env.control, { type: 'jobs.runNow', id: ids[1] })).ok).to.equal(true);
      await waitState(env, ids[1], 'completed');
      expect(env.llm.requests).to.have.length(2);
      expect(env.llm.problems).to.deep.equal([]);
    } finally {
      await ask(env.control, { type: 'settings.set', settings: { jobs: { pauseAll: false, askBeforeRun: false } } });
      for (const id of ids) await ask(env.control, { type: 'jobs.delete', id });
    }
  });
});
