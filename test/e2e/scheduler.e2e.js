// "scheduler": jobs created from the panel and the jobs page run at real browser alarms
// against the fixture site with the mock LLM, their results show on the jobs page, and a job whose
// run is cut short by a background restart runs again to completion.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { ask, openPageWithPanel, sendFromPanel, useMockProvider, waitForIdle } from './harness/env.js';
import { Driver } from './harness/driver.js';
import { lastToolResult } from '../fixtures/llm/conversation.js';

/** @import { TestEnv } from './harness/env.js' */
/** @import { Job } from '../../src/chrome/types/jobs' */

/**
 * Click something that opens an extension page in a new tab; returns a driver for that tab.
 * @param {TestEnv} env @param {Driver} from @param {string} selector @param {string} urlPart
 */
async function clickOpening(env, from, selector, urlPart) {
  const find = async () => {
    if (env.browser.kind === 'chromium') return env.browser.raw.pages().find((/** @type {any} */ p) => p.url().includes(urlPart));
    // Puppeteer over BiDi reports a tab opened by the extension as about:blank: ask each page where it is.
    for (const p of await env.browser.raw.pages()) {
      const href = await p.evaluate(() => location.href).catch(() => '');
      if (href.includes(urlPart)) return p;
    }
    return undefined;
  };
  expect(await find()).to.equal(undefined);
  await from.click(selector);
  const deadline = Date.now() + 15_000;
  let page;
  while (!(page = await find())) {
    if (Date.now() > deadline) throw new Error(`no tab at ${urlPart} opened`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const d = new Driver(env.browser.kind, page);
  await d.waitFor(() => document.body.dataset.ready === 'true', undefined, { message: 'the jobs page to load' });
  return d;
}

/** @param {TestEnv} env @returns {Promise<Job[]>} */
async function listJobs(env) {
  const r = await ask(env.control, { type: 'jobs.list' });
  if (!r.ok) throw new Error(r.message);
  return r.data.jobs;
}

/** Delete every job, so scenarios do not see each other's. @param {TestEnv} env */
async function clearJobs(env) {
  for (const job of await listJobs(env)) await ask(env.control, { type: 'jobs.delete', id: job.id });
}

/** @param {TestEnv} env */
function alarms(env) {
  return env.control.evaluate(() => browser.alarms.getAll());
}

scenario('scheduler', (ctx) => {
  it('a job scheduled from the panel runs at its alarm against the page and its result shows on the jobs page', async () => {
    const { env } = ctx;
    await useMockProvider(env);
    await clearJobs(env);
    env.llm.script([
      { toolCalls: [{ name: 'read_page', args: {} }] },
      (req) => {
        if (!lastToolResult(req.body).includes('48 metres')) throw new Error('read_page result lacks the article text');
        return { toolCalls: [{ name: 'done', args: { summary: 'Skerryvore is 48 metres tall.' } }] };
      },
    ]);
    await env.control.evaluate(() => {
      const w = /** @type {any} */ (window);
      if (w.__closedNotes) return;
      w.__closedNotes = [];
      browser.notifications.onClosed.addListener((/** @type {string} */ id) => { w.__closedNotes.push(id); });
    });
    const { page, panel, tabId, url } = await openPageWithPanel(env, 'article.html');
    /** @type {Driver | null} */
    let jobsPage = null;
    try {
      // The user types the task in the panel, then schedules it instead of sending it.
      await panel.evaluate(() => /** @type {HTMLInputElement} */ (document.querySelector('input[name=mode][value=act]')).click());
      await panel.fill('#prompt', 'How tall is the lighthouse? Report the height.');
      jobsPage = await clickOpening(env, panel, '#open-jobs', 'ui/jobs.html');
      expect(await jobsPage.evaluate(() => location.search)).to.contain(`tabId=${tabId}`);
      expect(await jobsPage.evaluate(() => /** @type {HTMLTextAreaElement} */ (document.getElementById('prompt')).value)).to.equal('How tall is the lighthouse? Report the height.');
      expect(await jobsPage.evaluate(() => /** @type {HTMLSelectElement} */ (document.getElementById('targetType')).value)).to.equal('tab');
      expect(await jobsPage.evaluate(() => /** @type {HTMLSelectElement} */ (document.getElementById('mode')).value)).to.equal('act');
      await jobsPage.fill('#title', 'Lighthouse height');
      await jobsPage.fill('#afterSeconds', '3');
      await jobsPage.click('#save');

      const li = await jobsPage.waitFor(() => {
        const el = /** @type {HTMLElement | null} */ (document.querySelector('li.job'));
        return el ? { state: el.dataset.state, text: el.textContent } : null;
      }, undefined, { message: 'the new job in the list' });
      expect(li?.state).to.be.oneOf(['pending', 'running']);
      expect(li?.text).to.contain('Lighthouse height');
      const [job] = await listJobs(env);
      expect(job).to.deep.include({ kind: 'task', mode: 'act', target: { type: 'tab', tabId, url, title: 'The Lighthouse Keepers of Skerryvore' } });
      // A real alarm is set for the run.
      const set = await alarms(env);
      expect(set.map((a) => a.name)).to.include('tabwright-jobs');

      const done = await jobsPage.waitFor(() => {
        const el = /** @type {HTMLElement | null} */ (document.querySelector('li.job'));
        return el?.dataset.state === 'completed' ? el.querySelector('.result')?.textContent : null;
      }, undefined, { timeout: 30_000, message: 'the job to complete' });
      expect(done).to.contain('Skerryvore is 48 metres tall.');
      expect(env.llm.problems).to.deep.equal([]);
      expect(env.llm.requests).to.have.length(2);
      const user = env.llm.requests[0].body.messages.find((/** @type {any} */ m) => m.role === 'user');
      expect(user.content).to.equal('How tall is the lighthouse? Report the height.');
      expect(env.llm.requests[0].body.messages[0].content).to.contain(url);

      const [after] = await listJobs(env);
      expect(after.state).to.equal('completed');
      // The user is told: a notification names the job. (Headless Firefox has no alert service and
      // closes it at once, so it is looked for among the open ones and the closed ones.)
      const note = await env.control.waitFor(async (jobId) => {
        const ids = [...Object.keys(await browser.notifications.getAll()), .../** @type {any} */ (window).__closedNotes ?? []];
        return ids.find((k) => k.startsWith(`tabwright-job:${jobId}:`));
      }, after.id, { message: 'a notification for the finished job' });
      expect(note).to.be.a('string');
      expect(after.history).to.have.length(1);
      // It waited for its due time, three seconds after it was created, not at once: the scheduler's
      // own timestamps, compared with each other (a slow machine only makes the gap longer).
      expect(after.history[0].startedAt).to.be.at.least(after.createdAt + 3000);
      if (process.env.TW_MEASURE) console.log(`      [${ctx.kind}] alarm set for 3 s; the run started after ${after.history[0].startedAt - after.createdAt} ms`);
      // The run happened in the tab, so its panel shows it too.
      await panel.waitFor(() => document.querySelector('.msg.assistant.final')?.textContent?.includes('48 metres'), undefined, { message: 'the final answer in the panel' });
      expect(await jobsPage.evaluate(() => document.querySelector('li.job .history')?.textContent)).to.contain('History (1 runs)');
    } finally {
      await jobsPage?.close();
      await page.close();
      await panel.close();
    }
  });

  it('the jobs page edits, pauses, resumes, runs now and deletes; a URL job opens its page in a background tab', async () => {
    const { env } = ctx;
    await useMockProvider(env);
    await clearJobs(env);
    const url = `${env.site.url}/article.html`;
    env.llm.script([
      { toolCalls: [{ name: 'read_page', args: {} }] },
      { text: 'It was automated in 1994.' },
    ]);
    const jobsPage = await env.browser.openExtensionPage('ui/jobs.html');
    try {
      await jobsPage.waitFor(() => document.body.dataset.ready === 'true');
      expect(await jobsPage.evaluate(() => /** @type {HTMLSelectElement} */ (document.getElementById('targetType')).value)).to.equal('url');
      await jobsPage.fill('#prompt', 'When was the light automated?');
      await jobsPage.evaluate(() => { /** @type {HTMLSelectElement} */ (document.getElementById('mode')).value = 'ask'; });
      await jobsPage.fill('#url', url);
      await jobsPage.evaluate(() => {
        const kind = /** @type {HTMLSelectElement} */ (document.getElementById('kind'));
        kind.value = 'calendar';
        kind.dispatchEvent(new Event('change'));
        const repeat = /** @type {HTMLSelectElement} */ (document.getElementById('repeat'));
        repeat.value = 'weekly';
        repeat.dispatchEvent(new Event('change'));
        for (const b of document.querySelectorAll('input[name=day]')) if (['1', '3'].includes(/** @type {HTMLInputElement} */ (b).value)) /** @type {HTMLInputElement} */ (b).checked = true;
      });
      // A bad cron expression is refused with a sentence; nothing is created and the form keeps its input.
      await jobsPage.evaluate(() => {
        const repeat = /** @type {HTMLSelectElement} */ (document.getElementById('repeat'));
        repeat.value = 'cron';
        repeat.dispatchEvent(new Event('change'));
        /** @type {HTMLInputElement} */ (document.getElementById('cron')).value = '61 * * * *';
      });
      await jobsPage.click('#save');
      const refusal = await jobsPage.waitFor(() => document.getElementById('form-status')?.textContent, undefined, { message: 'the refusal' });
      expect(refusal).to.match(/minute field "61" is out of range 0–59/);
      expect(await listJobs(env)).to.deep.equal([]);
      expect(await jobsPage.evaluate(() => /** @type {HTMLTextAreaElement} */ (document.getElementById('prompt')).value)).to.equal('When was the light automated?');
      await jobsPage.evaluate(() => {
        const repeat = /** @type {HTMLSelectElement} */ (document.getElementById('repeat'));
        repeat.value = 'weekly';
        repeat.dispatchEvent(new Event('change'));
      });
      await jobsPage.click('#save');
      await jobsPage.waitFor(() => document.querySelector('li.job')?.getAttribute('data-state') === 'pending');
      let [job] = await listJobs(env);
      expect(job.schedule).to.deep.include({ kind: 'calendar', repeat: 'weekly', days: [1, 3], time: '09:00' });
      expect(job.nextRunAt).to.be.greaterThan(Date.now());
      expect(await jobsPage.text('li.job .schedule')).to.match(/Mon, Wed at 09:00/);

      // Edit: a new title and a daily schedule.
      await jobsPage.click('li.job button[data-action=edit]');
      expect(await jobsPage.evaluate(() => /** @type {HTMLInputElement} */ (document.getElementById('url')).value)).to.equal(url);
      await jobsPage.fill('#title', 'Automation year');
      await jobsPage.evaluate(() => { /** @type {HTMLSelectElement} */ (document.getElementById('repeat')).value = 'daily'; });
      await jobsPage.click('#save');
      await jobsPage.waitFor(() => document.querySelector('li.job .title')?.textContent === 'Automation year');
      [job] = await listJobs(env);
      expect(job.schedule).to.deep.include({ repeat: 'daily' });

      await jobsPage.click('li.job button[data-action=pause]');
      await jobsPage.waitFor(() => document.querySelector('li.job')?.getAttribute('data-state') === 'paused');
      await jobsPage.click('li.job button[data-action=resume]');
      await jobsPage.waitFor(() => document.querySelector('li.job')?.getAttribute('data-state') === 'pending');

      // Run now: the page opens in a background tab and the Ask run answers from it.
      await jobsPage.click('li.job button[data-action=runNow]');
      const result = await jobsPage.waitFor(() => {
        const el = document.querySelector('li.job');
        return el?.getAttribute('data-state') === 'pending' && el.querySelector('.result.completed')?.textContent;
      }, undefined, { timeout: 30_000, message: 'the run to complete and the job to be pending again' });
      expect(result).to.contain('It was automated in 1994.');
      expect(env.llm.problems).to.deep.equal([]);
      expect(env.llm.requests[0].body.messages[0].content).to.contain('Mode: Ask');
      // The background tab the job opened is closed when its run ends (settings: closeJobTabs).
      await env.control.waitFor((u) => browser.tabs.query({}).then((tabs) => !tabs.some((t) => t.url === u)), url, { message: 'the job\'s tab to close' });

      await jobsPage.evaluate(() => { window.confirm = () => true; });
      await jobsPage.click('li.job button[data-action=delete]');
      await jobsPage.waitFor(() => document.querySelectorAll('li.job').length === 0 && !document.getElementById('empty')?.hidden);
      expect(await listJobs(env)).to.deep.equal([]);
    } finally {
      await jobsPage.close();
    }
  });

  it('asked in the panel, the model schedules a task with schedule_task; it runs in a background tab', async () => {
    const { env } = ctx;
    await useMockProvider(env);
    await clearJobs(env);
    const url = `${env.site.url}/article.html`;
    const jobPrompt = 'Read the lighthouse article and say when it was automated.';
    // Two runs talk to the model at once (the panel's and the job's), so each turn looks at its own conversation.
    /** @param {any} req */
    const reply = (req) => {
      const msgs = req.body.messages;
      const user = msgs.find((/** @type {any} */ m) => m.role === 'user')?.content;
      const last = msgs.at(-1);
      if (user === jobPrompt) {
        if (last.role === 'user') return { toolCalls: [{ name: 'read_page', args: {} }] };
        if (!String(last.content).includes('1994')) throw new Error(`the job read the wrong page: ${String(last.content).slice(0, 300)}`);
        return { toolCalls: [{ name: 'done', args: { summary: 'The light was automated in 1994.' } }] };
      }
      if (last.role === 'user') {
        return { toolCalls: [{ name: 'schedule_task', args: { title: 'Automation check', prompt: jobPrompt, schedule: 'once', after_seconds: 0, target: 'url', url } }] };
      }
      if (!String(last.content).startsWith('Scheduled: "Automation check"')) throw new Error(`unexpected tool result: ${last.content}`);
      return { toolCalls: [{ name: 'done', args: { summary: 'I scheduled it; see the jobs page.' } }] };
    };
    env.llm.script([reply, reply, reply, reply]);
    const { page, panel } = await openPageWithPanel(env, 'index.html');
    try {
      await sendFromPanel(panel, 'Schedule a job that reads the lighthouse article and tells me when it was automated, starting now.', 'act');
      // A job runs later, unattended: it always asks, showing what it will do, where and when.
      const card = await panel.waitFor(() => document.querySelector('.card.confirm.pending[data-rule=future_job]')?.textContent, undefined, { message: 'the job card' });
      for (const part of ['Automation check', jobPrompt, url, 'once, in 0 s']) expect(card).to.contain(part);
      await panel.click('.card.confirm .confirm-yes');
      const items = await waitForIdle(panel);
      expect(items.filter((i) => i.tool).map((i) => i.tool)).to.deep.equal(['schedule_task', 'done']);
      const job = await env.control.waitFor(async () => {
        const r = await browser.runtime.sendMessage({ type: 'jobs.list' });
        const j = r.ok && r.data.jobs[0];
        return j && ['completed', 'failed', 'cancelled'].includes(j.state) ? j : null;
      }, undefined, { timeout: 30_000, message: 'the scheduled job to end' });
      expect(job.state, `${JSON.stringify(job.lastResult)} ${env.llm.problems.join('; ')}`).to.equal('completed');
      expect(job).to.deep.include({ title: 'Automation check', kind: 'task', target: { type: 'url', url } });
      expect(job.lastResult.text).to.equal('The light was automated in 1994.');
      expect(env.llm.problems).to.deep.equal([]);
      expect(env.llm.requests).to.have.length(4);
      // The job's background tab closed with its run.
      await env.control.waitFor((u) => browser.tabs.query({}).then((tabs) => !tabs.some((t) => t.url === u)), url, { message: 'the job\'s tab to close' });
    } finally {
      await page.close();
      await panel.close();
    }
  });

  it('a job due while its tab is busy with a panel run is deferred (queued, retried in 30 s)', async () => {
    const { env } = ctx;
    await useMockProvider(env);
    await clearJobs(env);
    // The panel's run streams slowly, so the tab is busy when the job comes due.
    env.llm.script([{ text: 'Working on it, slowly and at length.', chunkDelayMs: 1500 }]);
    const { page, panel, tabId } = await openPageWithPanel(env, 'article.html');
    try {
      await sendFromPanel(panel, 'Summarise the article.', 'ask');
      await panel.waitFor(() => document.body.dataset.running === 'true', undefined, { message: 'the panel run to start' });
      for (const deadline = Date.now() + 15_000; env.llm.requests.length < 1;) {
        if (Date.now() > deadline) throw new Error('the panel run never reached the model');
        await new Promise((r) => setTimeout(r, 50));
      }
      const before = Date.now();
      const created = await ask(env.control, { type: 'jobs.create', job: { prompt: 'Count the paragraphs.', target: { type: 'tab', tabId }, schedule: { kind: 'once', afterSeconds: 0 } } });
      expect(created.ok).to.equal(true);
      const job = await env.control.waitFor(async (id) => {
        const r = await browser.runtime.sendMessage({ type: 'jobs.list' });
        const j = r.ok && r.data.jobs.find((/** @type {any} */ x) => x.id === id);
        return j && j.state === 'queued' ? j : null;
      }, created.data.job.id, { message: 'the job to be deferred' });
      expect(job.deferrals).to.equal(1);
      // Retried 30 s after it was deferred, which happened between the two readings of the clock
      // (bracketed, so however slow the machine the bounds hold; 100 ms for clock rounding).
      expect(job.nextRunAt).to.be.within(before + 30_000 - 100, Date.now() + 30_000 + 100);
      // Only the panel's run reached the model.
      expect(env.llm.requests).to.have.length(1);
      await ask(env.control, { type: 'jobs.delete', id: job.id });
      await ask(env.control, { type: 'chat.stop', tabId });
      await panel.waitFor(() => document.body.dataset.running === 'false');
    } finally {
      await page.close();
      await panel.close();
    }
  });

  it('the background restarted while a job runs: the job runs again to completion', async () => {
    const { env, kind } = ctx;
    await useMockProvider(env);
    await clearJobs(env);
    env.llm.script([
      // The first run is still streaming this slow turn when the background goes away.
      { text: 'Let me read the page first, slowly.', toolCalls: [{ name: 'read_page', args: {} }], chunkDelayMs: 2000 },
      { toolCalls: [{ name: 'read_page', args: {} }] },
      { toolCalls: [{ name: 'done', args: { summary: 'Completed after the restart.' } }] },
    ]);
    const { page, panel, tabId } = await openPageWithPanel(env, 'article.html');
    try {
      const before = Date.now();
      const created = await ask(env.control, { type: 'jobs.create', job: { title: 'Survives restarts', prompt: 'Read the article and report.', target: { type: 'tab', tabId }, schedule: { kind: 'once', afterSeconds: 0 } } });
      expect(created.ok).to.equal(true);
      const id = created.data.job.id;
      await env.control.waitFor(() => true);
      // Wait until the run is talking to the model, then restart the background.
      const deadline = Date.now() + 15_000;
      while (env.llm.requests.length < 1) {
        if (Date.now() > deadline) throw new Error('the job never reached the model');
        await new Promise((r) => setTimeout(r, 50));
      }
      const running = (await listJobs(env)).find((j) => j.id === id);
      expect(running?.state).to.equal('running');
      // While it runs, a watchdog alarm would wake a stopped worker a minute after the run began
      // (which was between the two readings of the clock; 100 ms for clock rounding).
      const watchdog = (await alarms(env)).find((a) => a.name === 'tabwright-jobs');
      expect(watchdog?.scheduledTime).to.be.within(before + 60_000 - 100, Date.now() + 60_000 + 100);

      await restartBackground(env, kind);

      // Any event wakes the background; the jobs list request does here (the watchdog alarm would, later).
      const job = await env.control.waitFor(async (jobId) => {
        const r = await browser.runtime.sendMessage({ type: 'jobs.list' });
        const j = r.ok && r.data.jobs.find((/** @type {any} */ x) => x.id === jobId);
        return j && j.state === 'completed' ? j : null;
      }, id, { timeout: 40_000, interval: 300, message: 'the job to run again and complete' });
      expect(job.history.map((/** @type {any} */ r) => r.status)).to.deep.equal(['interrupted', 'completed']);
      expect(job.history[0].error.code).to.equal('RESTARTED');
      expect(job.lastResult.text).to.equal('Completed after the restart.');
      expect(env.llm.requests).to.have.length(3);
      expect(env.llm.problems).to.deep.equal([]);
      if (kind === 'chromium') {
        // A new worker ran the job again: the mark set on the old one is gone.
        const fresh = await Promise.all(extensionWorkers(env).map((/** @type {any} */ w) => w.evaluate(() => !(/** @type {any} */ (globalThis).__beforeRestart)).catch(() => false)));
        expect(fresh).to.include(true);
      }
      // The panel reconnected to the new background and shows the second run.
      await panel.waitFor(() => document.querySelector('.msg.assistant.final')?.textContent === 'Completed after the restart.', undefined, { message: 'the re-run in the panel' });
    } finally {
      await page.close();
      await panel.close();
    }
  });
});

/**
 * Stop the background the way the browser does, keeping the extension installed and its storage.
 * Chrome: stop the MV3 service worker over CDP (what Chrome does to an idle worker); it starts again
 * on the next event. chrome.runtime.reload() would reinstall the extension instead.
 * Firefox: reload the persistent background page, which throws away every in-memory object (the
 * run, its fetch, the sessions) and runs background.js again, as a browser restart does; the
 * add-on stays installed (runtime.reload() would reinstall a temporary add-on).
 * @param {TestEnv} env @param {'chromium' | 'firefox'} kind
 */
/** Tabwright's own service workers (pages of earlier tests may have theirs). @param {TestEnv} env @returns {any[]} */
function extensionWorkers(env) {
  return env.browser.raw.serviceWorkers().filter((/** @type {any} */ w) => String(w.url()).startsWith(env.browser.extBase));
}

async function restartBackground(env, kind) {
  if (kind === 'chromium') {
    // The extension's worker, not a page's: earlier files register service workers on their pages.
    const [sw] = extensionWorkers(env);
    await sw.evaluate(() => { /** @type {any} */ (globalThis).__beforeRestart = true; });
    const cdp = await env.browser.raw.newCDPSession(/** @type {any} */ (env.control.page));
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.stopAllWorkers');
    await cdp.detach();
  } else {
    await env.control.evaluate(async () => {
      const bg = /** @type {any} */ (await browser.runtime.getBackgroundPage());
      bg.__beforeRestart = true;
      bg.location.reload();
    });
    // The reloaded page has lost the mark: it is a new background, not the old one.
    await env.control.waitFor(async () => {
      const bg = /** @type {any} */ (await browser.runtime.getBackgroundPage());
      return bg && bg.document.readyState === 'complete' && !bg.__beforeRestart;
    }, undefined, { message: 'the background page to reload' });
  }
}
