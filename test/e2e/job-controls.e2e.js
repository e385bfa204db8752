// The person's switches for scheduled jobs (Settings → Scheduled jobs), through the settings page's
// own checkboxes: pause all holds a due job with no model request and lifting it runs the job once;
// ask before every scheduled run makes a due job wait for Run now.
import { expect } from 'chai';
import { ask, useMockProvider } from './harness/env.js';
import { scenario } from './harness/scenario.js';

/** @import { TestEnv } from './harness/env.js' */

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
