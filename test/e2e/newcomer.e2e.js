// The newcomer's first hour, walked as a person walks it, in both browsers: the README's `npm start`
// (Chromium headed, Firefox through web-ext run), then only clicks and keys in the panel and the
// settings, welcome, history, jobs, workflows and trace pages. No settings written behind the UI,
// no runtime messages, no allow-listing or auto-accept flags. Models: a local Ollama found at first
// run (the harness's stand-in at localhost:11434, passed to the mock LLM in Ollama's protocol) and a
// key-based provider the person types into Settings (the mock LLM in OpenAI's protocol).
// One browser per kind, one story: each step starts where the last one left the person.
import { expect } from 'chai';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { browsers, getServers } from './harness/env.js';
import { npmStart } from './newcomer/launch.js';
import { Person } from './newcomer/person.js';
import { firefoxExtensionTab, sidePanel, tabAt } from './newcomer/tabs.js';
import { serveLocalOllama } from './newcomer/local-ollama.js';
import { pickerKeys } from './harness/headed.js';
import { probe } from './harness/ffprobe.js';
import { existsSync } from 'node:fs';
import { flowTask } from '../fixtures/llm/flow-task.js';
import { firstUserText, lastToolResult } from '../fixtures/llm/conversation.js';
import { BUNDLED } from '../../src/chrome/bundled-skills/bundled.js';
import { createSkillCatalog } from '../../src/chrome/agent/skills/catalog.js';

/** @typedef {import('puppeteer-core').Page} Page */
/** @import { RecordedRequest } from '../fixtures/llm/server.js' */

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const SHOTS = join(root, 'test-artifacts/newcomer');
const KEY = 'sk-newcomer-4242';
const PLAN = ['Find the heading of the article', 'Say what the article is about in one sentence'];
const SKILL = createSkillCatalog({ bundled: BUNDLED }).forUrl('http://127.0.0.1/')
  .find((s) => !s.match.length && s.mode === 'ask' && s.parameters.length > 0 && s.parameters.every((p) => p.default !== undefined));

/**
 * Plan mode's executor, rule-based: look at the page once, then report the step done with what
 * the page said. Reading steps only, so no step waits out the settle period of an acting run.
 * @param {RecordedRequest} req
 */
function executor(req) {
  const msgs = req.body.messages;
  const step = /Now do step \d+: (.*)$/.exec(String(msgs[1]?.content ?? ''))?.[1];
  if (!step) throw new Error('not an executor request');
  if (!msgs.some((/** @type {any} */ m) => m.role === 'tool')) return { toolCalls: [{ name: 'snapshot', args: {} }] };
  const heading = /heading "([^"]+)"/.exec(lastToolResult(req.body))?.[1] ?? 'no heading';
  return { toolCalls: [{ name: 'done', args: { summary: `${step}: ${heading}` } }] };
}

/** The panel's state of runs: how many finished answers it shows. @param {Page} panel */
const finals = (panel) => panel.evaluate(() => document.querySelectorAll('#log .msg.assistant.final').length);

for (const kind of browsers()) {
  describe(`newcomer path [${kind}]`, function () {
    this.timeout(90_000);
    const person = new Person(kind);
    /** @type {Awaited<ReturnType<typeof npmStart>>} */ let started;
    /** @type {Awaited<ReturnType<typeof getServers>>} */ let servers;
    /** @type {Awaited<ReturnType<typeof serveLocalOllama>>} */ let ollama;
    /** @type {Page} */ let demo;
    /** @type {Page} */ let panel;
    /** @type {Page | null} */ let welcome = null;
    /** @type {Page | null} */ let settings = null;
    let firstAnswerActions = 0;
    let siteUrl = '';
    /** @type {Record<string, unknown>} */
    const facts = {};

    before(async function () {
      this.timeout(120_000);
      servers = await getServers();
      siteUrl = servers.site.url;
      ollama = await serveLocalOllama(servers.llm.url);
      started = await npmStart(kind);
      await mkdir(SHOTS, { recursive: true });
    });
    after(async function () {
      this.timeout(30_000);
      ollama?.off();
      await started?.stop();
      if (facts.recording) console.log(`      newcomer path [${kind}]: a recording after ${facts.recording}`);
      if (firstAnswerActions) {
        const line = `newcomer path [${kind}]: first answer after ${facts.firstAnswer}`;
        console.log(`      ${line}`);
        await writeFile(join(SHOTS, `first-answer-${kind}.txt`), `${line}\n`);
      }
    });

    /** Send what is typed with Enter and wait for the new answer; returns its text. @param {string} text */
    async function ask(text) {
      const before = await finals(panel);
      await person.type(panel, '#prompt', text, 'the message box');
      await person.press(panel, 'Enter');
      return person.look(panel).waitFor((n) => {
        const all = document.querySelectorAll('#log .msg.assistant.final');
        return all.length > n && document.body.dataset.running === 'false' ? all[all.length - 1].textContent : null;
      }, before, { timeout: 60_000, message: 'the answer' });
    }
    /** @param {'ask' | 'act' | 'plan'} mode */
    const mode = (mode) => person.click(panel, `#modes label:has(input[value=${mode}])`, `the ${mode} mode`);
    /**
     * A header button of the panel: on the bar when the panel is wide enough, else in the More menu.
     * @param {string} id @param {string} what
     */
    async function header(id, what) {
      const onBar = await panel.evaluate((i) => {
        const el = document.getElementById(i);
        return Boolean(el && el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden');
      }, id);
      if (onBar) return person.click(panel, `#${id}`, what);
      await person.click(panel, '#more', 'More');
      await person.click(panel, `#more-menu [data-for="${id}"]`, what);
    }
    /** Go to a page in the demo tab, then back to the panel. @param {string} path */
    async function onDemo(path) {
      const url = `${siteUrl}/${path}`;
      await person.goTo(demo, url);
      // The person looks at the page they asked for: it is there, loaded (a look retries across navigations).
      await person.look(demo).waitFor((u) => location.href === u && document.readyState === 'complete', url, { message: `${path} in the demo tab` });
      if (kind === 'chromium') await toDemo(); else await person.show(panel);
    }
    /** Bring the demo tab to the front (Chrome's side panel follows the active tab). */
    async function toDemo() {
      // Firefox: the panel stands in for the sidebar and is pinned to the demo tab, which stays in view.
      if (kind === 'firefox') return;
      // What the person sees in the tab strip: which tab is in front. (The page's own visibilityState
      // cannot tell: Tabwright emulates focus for a tab it acts in, so a background run never stalls.)
      const front = panel
        ? await panel.evaluate(() => browser.tabs.query({ active: true, lastFocusedWindow: true }).then((tabs) => tabs[0]?.url ?? '')).catch(() => null)
        : null;
      const inFront = front === null
        ? (await person.look(demo).waitFor(() => ({ visible: document.visibilityState === 'visible' }), undefined, { message: 'the demo tab' })).visible
        : front === demo.url();
      if (!inFront) await person.switchTo(demo, 'the demo tab');
    }
    /**
     * The shop's own answer to an order: after the POST it was waiting for, the form page goes to
     * done.html. The person sees it before moving on; a page still on its way would otherwise land
     * on top of the next address typed into the tab (the CI failure of the Plan step).
     */
    const shopAnswered = () => person.look(demo).waitFor(() => location.pathname.endsWith('/flow/done.html') && document.readyState === 'complete', undefined, { timeout: 60_000, message: 'the shop\'s confirmation page' });

    /** @type {string | null} the first story step that failed: the later ones build on it */
    let failed = null;
    /** A step of the story: it starts where the previous one left the person. @param {string} title @param {() => Promise<void>} fn */
    const step = (title, fn) => it(title, async () => {
      if (failed) throw new Error(`not walked: the earlier step "${failed}" failed`);
      try { await fn(); } catch (err) { failed = title; throw err; }
    });

    afterEach(async function () {
      if (this.currentTest?.state !== 'failed' || !panel) return;
      const log = await panel.evaluate(() => [...document.querySelectorAll('#log > *')].map((el) => `[${el.className}] ${(el.textContent ?? '').replace(/\s+/g, ' ').slice(0, 160)}`).join('\n')).catch(() => '(panel gone)');
      console.log(`      [${kind}] the panel showed:\n${log}`);
      // What the person saw when the story stopped, beside the other screenshots (CI keeps test-artifacts/).
      await panel.screenshot({ path: join(SHOTS, `failed-${kind}-panel.png`) }).catch(() => {});
    });

    step('npm start opens the demo page and the welcome tab', async () => {
      // The person waits for npm start to say it is done (Chromium: it opened the tabs once Tabwright
      // loaded; Firefox: web-ext installed the add-on), which on a loaded machine takes a while.
      const done = kind === 'chromium' ? /welcome page: |Tabwright did not load|could not open/ : /as a temporary add-on/;
      for (let tries = 0; tries < 800 && !done.test(started.output); tries++) await new Promise((r) => setTimeout(r, 100));
      // Were the demo page missing, the person would open a tab (Ctrl+T) and type the address npm
      // start printed. Reported by the check at the end.
      const opened = await tabAt(started.browser, '/demo.html', 30_000).catch(() => null);
      facts.demoTabOpened = Boolean(opened);
      if (opened) demo = opened;
      else {
        demo = await started.browser.newPage();
        person.keys++; person.did.push('press Control+T');
        await person.goTo(demo, started.demoUrl);
      }
      // Chromium loads a background tab of its start-up only once it is shown: read after the switch.
      if (kind === 'firefox') expect(await person.look(demo).waitFor(() => document.readyState === 'complete' && document.querySelector('h1')?.textContent, undefined, { message: 'the demo page' })).to.equal('Try Tabwright on these pages');
      // Chromium: npm start opens it once the extension has loaded; Firefox: the add-on, at its install.
      // A hang guard, not a time limit: on a loaded machine Firefox's background page starts a while after web-ext's install.
      welcome = await tabAt(started.browser, '/ui/welcome.html', 90_000);
      facts.welcomeLoaded = await person.look(welcome).waitFor(() => document.readyState === 'complete' && (document.querySelector('h1')?.textContent || document.title), undefined, { message: 'the welcome tab to settle' });
    });

    step('a first answer with the local model the first run found', async () => {
      const { llm } = servers;
      llm.script([{ text: 'This page lists four things to try with Tabwright.' }]);
      if (kind === 'chromium') {
        const w = /** @type {Page} */ (welcome);
        if (await w.evaluate(() => document.visibilityState !== 'visible')) await person.switchTo(w, 'the welcome tab');
        // Where the welcome tab failed to load, the person types its address again (it then loads).
        if (facts.welcomeLoaded !== 'Welcome to Tabwright') await person.goTo(w, w.target().url());
        await person.click(w, '#open-panel', 'Open the Tabwright panel');
        expect(await person.look(w).waitFor(() => document.getElementById('open-result')?.textContent || null)).to.equal('Opened.');
        panel = await sidePanel(started.browser);
      } else {
        // Firefox opens the sidebar by itself when the add-on is installed. WebDriver BiDi cannot reach
        // the sidebar's document, so the same panel page is driven in a tab pinned to the demo tab.
        // The welcome tab the add-on opened is an extension page: it can ask which tab shows the demo.
        const w = /** @type {Page} */ (welcome);
        const { tabId, sidebars } = await w.evaluate(async (u) => ({
          tabId: (await browser.tabs.query({})).find((t) => t.url === u)?.id,
          sidebars: browser.extension.getViews({ type: 'sidebar' }).length,
        }), demo.url());
        facts.sidebarOpenAtStart = sidebars > 0;
        if (!sidebars) { person.clicks++; person.did.push('click the toolbar button (counted: the sidebar is out of BiDi\'s reach)'); }
        if (!tabId) throw new Error('no tab at the demo page');
        // The sidebar answers about the tab in front: were the welcome tab there, the person would click the demo tab.
        if (await demo.evaluate(() => document.visibilityState !== 'visible')) await person.switchTo(demo, 'the demo tab');
        panel = await firefoxExtensionTab(started.browser, `ui/panel.html?tabId=${tabId}`);
        await panel.setViewport({ width: 420, height: 860 });
      }
      const look = person.look(panel);
      await look.waitFor(() => Boolean(document.querySelector('#welcome li[data-candidate=ollama][data-found=true] button.use')), undefined, { message: 'the first-run card offering the local Ollama' });
      await person.click(panel, '#welcome li[data-candidate=ollama] button.use', 'Use this (Ollama)');
      await look.waitFor(() => /** @type {HTMLElement} */ (document.querySelector('#welcome')).hidden, undefined, { message: 'the first-run card to go' });
      // The first run suggests Ask and the person left it: the panel starts in Ask (automation is opted into).
      facts.startMode = await panel.evaluate(() => /** @type {HTMLInputElement | null} */ (document.querySelector('input[name=mode]:checked'))?.value);
      await toDemo();
      const heading = () => person.look(demo).waitFor(() => document.readyState === 'complete' && document.querySelector('h1')?.textContent, undefined, { timeout: 30_000, message: 'the demo page' });
      // Now and then the demo tab of Chromium's start-up stays blank: the person types its address.
      const shown = await heading().catch(() => null);
      if (!shown) { facts.demoTabOpened = false; await person.goTo(demo, started.demoUrl); }
      expect(shown ?? await heading()).to.equal('Try Tabwright on these pages');
      await look.waitFor(() => document.body.dataset.tabId && !document.querySelector('#send')?.hasAttribute('disabled'), undefined, { message: 'the panel on the demo tab' });
      const answer = await ask('What can I try here?');
      firstAnswerActions = person.actions;
      facts.firstAnswer = person.summary();
      expect(answer).to.contain('four things to try');
      expect(llm.problems).to.deep.equal([]);
      expect(llm.requests).to.have.length(1);
      // It went to the local server, and the demo page's text went with it.
      expect(ollama.seen.filter((s) => /chat/.test(s))).to.have.length(1);
      expect(JSON.stringify(llm.requests[0].body), 'the request names the demo tab').to.contain('/demo.html');
    });

    step('Settings, opened from the panel\'s gear, lists the local model', async () => {
      await header('open-settings', 'Settings');
      settings = await tabAt(started.browser, '/ui/options.html');
      const look = person.look(settings);
      await look.waitFor(() => document.body.dataset.ready === 'true', undefined, { message: 'the settings page' });
      facts.localKind = await settings.evaluate(() => {
        const active = document.querySelector('fieldset.provider input[name=active]:checked')?.closest('fieldset');
        const sel = /** @type {HTMLSelectElement | null} */ (active?.querySelector('select.kind') ?? null);
        return sel ? sel.selectedOptions[0]?.textContent : null;
      });
      expect(facts.localKind).to.be.a('string');
      // Firefox cannot record a tab: its settings do not title a section with recording.
      const legend = kind === 'firefox' ? 'Developer tools' : 'Developer tools and recording';
      await look.waitFor((want) => document.querySelector('#devtools-fieldset > legend')?.textContent === want, legend, { message: `the section "${legend}"` });
    });

    step('a first answer with a key typed into Settings', async () => {
      const { llm } = servers;
      const page = /** @type {Page} */ (settings);
      const look = person.look(page);
      await look.waitFor(() => document.body.dataset.ready === 'true', undefined, { message: 'the settings page' });
      const before = await page.evaluate(() => document.querySelectorAll('fieldset.provider').length);
      await person.click(page, '#add-provider', 'Add provider');
      const card = `fieldset.provider:nth-of-type(${before + 1})`;
      await person.choose(page, `${card} select.kind`, 'openai');
      await person.type(page, `${card} .name`, 'My OpenAI-compatible server');
      await person.type(page, `${card} .baseUrl`, llm.baseUrl);
      await person.type(page, `${card} .apiKey`, KEY);
      await person.type(page, `${card} .model`, 'mock-2');
      await person.click(page, `${card} input[name=active]`, 'Active');
      await person.click(page, '#save', 'Save');
      await look.waitFor(() => document.querySelector('#result')?.textContent === 'Saved.', undefined, { message: 'Saved.' });
      await page.screenshot({ path: join(SHOTS, `options-${kind}.png`), fullPage: false });
      llm.script([{ text: 'Three bullet points:\n\n- four tasks\n- on pages of this computer\n- nothing leaves but to your model' }]);
      await toDemo();
      if (kind === 'firefox') await person.show(panel);
      await mode('ask');
      const answer = await ask('Summarise this page in three bullet points.');
      expect(answer).to.contain('four tasks');
      expect(llm.requests).to.have.length(1);
      expect(llm.requests[0].path).to.equal('/v1/chat/completions');
      expect(llm.requests[0].headers.authorization).to.equal(`Bearer ${KEY}`);
      expect(llm.requests[0].body.model).to.equal('mock-2');
    });

    step('an Act task whose write waits for the person\'s click on its card', async () => {
      const { llm, site } = servers;
      llm.script(flowTask());
      await onDemo('flow/list.html');
      await mode('act');
      const writes = site.writes.length;
      const before = await finals(panel);
      await person.type(panel, '#prompt', 'Order the Paper floor lamp for Ada Lovelace (ada@example.com), 2 of them, express delivery.', 'the message box');
      await person.press(panel, 'Enter');
      const look = person.look(panel);
      const card = await look.waitFor(() => document.querySelector('.card.confirm.pending')?.textContent, undefined, { timeout: 60_000, message: 'the confirmation card' });
      expect(card).to.contain('Ada Lovelace');
      // Nothing left before the click.
      expect(site.writes.length).to.equal(writes);
      await panel.screenshot({ path: join(SHOTS, `panel-${kind}-confirm.png`) });
      await person.click(panel, '.card.confirm.pending .confirm-yes', 'Allow');
      await look.waitFor((n) => document.querySelectorAll('#log .msg.assistant.final').length > n && document.body.dataset.running === 'false', before, { timeout: 60_000, message: 'the run to finish' });
      await shopAnswered();
      expect(llm.problems).to.deep.equal([]);
      expect(site.writes.slice(writes).map((w) => JSON.parse(w.body))).to.deep.equal([{ item: 'paper', name: 'Ada Lovelace', email: 'ada@example.com', qty: '2', delivery: 'Express' }]);
      await panel.screenshot({ path: join(SHOTS, `panel-${kind}-act.png`) });
    });

    step('History shows the runs; one opens, with its trace', async () => {
      await header('history-toggle', 'History');
      const look = person.look(panel);
      const tasks = await look.waitFor(() => {
        const items = [...document.querySelectorAll('#history .runs li')].map((li) => li.textContent ?? '');
        return items.length >= 3 ? items : null;
      }, undefined, { message: 'three runs in History' });
      expect((tasks ?? []).join('\n')).to.contain('Order the Paper floor lamp').and.to.contain('Summarise this page').and.to.contain('What can I try here?');
      await person.click(panel, '#history .runs li:first-child .run-link', 'the order run');
      await person.click(panel, '.run-actions .open-trace', 'Open trace');
      const trace = await tabAt(started.browser, '/ui/traces.html');
      const shown = await person.look(trace).waitFor(() => {
        const task = document.querySelector('.trace-task')?.textContent;
        return task ? { task, calls: document.querySelector('.trace-totals')?.getAttribute('data-model-calls') } : null;
      }, undefined, { message: 'the trace' });
      expect(shown?.task).to.contain('Order the Paper floor lamp');
      expect(shown?.calls).to.equal('6');
      await trace.close();
    });

    step('the run saved as a workflow, then replayed with no model call and the same card', async () => {
      const { llm, site } = servers;
      if (kind === 'chromium') await toDemo(); else await person.show(panel);
      await person.click(panel, '.run-actions .save-workflow', 'Save as workflow');
      const review = await tabAt(started.browser, '/ui/workflows.html');
      const look = person.look(review);
      await look.waitFor(() => document.querySelectorAll('#wf-steps > li').length === 7, undefined, { message: 'the workflow draft' });
      await person.type(review, '#wf-name', 'Order a lamp');
      await person.click(review, '#wf-save', 'Save workflow');
      await look.waitFor(() => document.querySelector('#workflows li[data-workflow]')?.textContent, undefined, { message: 'the saved workflow listed' });
      await review.close();
      llm.script([]);
      await onDemo('flow/list.html');
      const lookP = person.look(panel);
      const writes = site.writes.length;
      const before = Number(await panel.evaluate(() => document.body.dataset.runs ?? 0));
      await person.click(panel, '#workflows .chip.workflow', 'the workflow button');
      await lookP.waitFor(() => !(/** @type {HTMLElement} */ (document.getElementById('workflow-params'))).hidden);
      await person.type(panel, '#workflow-params input[name="full_name"]', 'Grace Hopper');
      await person.click(panel, '#workflow-params button[type=submit]', 'Run');
      await lookP.waitFor(() => Boolean(document.querySelector('.card.confirm.pending')), undefined, { timeout: 60_000, message: 'the replayed write\'s card' });
      await person.click(panel, '.card.confirm.pending .confirm-yes', 'Allow');
      await lookP.waitFor((n) => Number(document.body.dataset.runs ?? 0) > n && document.body.dataset.running === 'false', before, { timeout: 60_000, message: 'the replay to finish' });
      await shopAnswered();
      expect(llm.requests).to.have.length(0);
      const sent = site.writes.slice(writes).map((w) => JSON.parse(w.body));
      expect(sent).to.have.length(1);
      expect(sent[0]).to.include({ item: 'paper', name: 'Grace Hopper' });
    });

    step('a Plan, approved by a click, runs its steps', async () => {
      const { llm } = servers;
      llm.script([{ text: 'Two steps.', toolCalls: [{ name: 'propose_plan', args: { steps: PLAN } }] }, ...Array(4).fill(executor)]);
      await onDemo('article.html');
      await mode('plan');
      const before = await finals(panel);
      await person.type(panel, '#prompt', 'Tell me what this article is about', 'the message box');
      await person.press(panel, 'Enter');
      const look = person.look(panel);
      const steps = await look.waitFor(() => {
        const card = document.querySelector('.card.plan.pending');
        return card && [...card.querySelectorAll('textarea')].map((t) => /** @type {HTMLTextAreaElement} */ (t).value);
      }, undefined, { message: 'the plan waiting for approval' });
      expect(steps).to.deep.equal(PLAN);
      // Nothing runs before the click.
      expect(llm.requests).to.have.length(1);
      facts.planStatus = await panel.evaluate(() => document.querySelector('#status:not([hidden])')?.textContent ?? '');
      await person.click(panel, '.card.plan.pending .plan-approve', 'Approve');
      // The plan's card says when it is over (done, or a failed step): an answer the planner gave
      // with its plan must not pass for the end of the run.
      const answer = await look.waitFor((n) => {
        const all = document.querySelectorAll('#log .msg.assistant.final');
        const status = /** @type {HTMLElement | null} */ (document.querySelector('.card.plan'))?.dataset.status ?? '';
        return ['done', 'failed', 'rejected'].includes(status) && all.length > n && document.body.dataset.running === 'false' ? all[all.length - 1].textContent : null;
      }, before, { timeout: 60_000, message: 'the plan to finish' });
      expect(llm.problems).to.deep.equal([]);
      expect(llm.requests).to.have.length(5);
      const card = await panel.evaluate(() => {
        const c = /** @type {HTMLElement} */ (document.querySelector('.card.plan'));
        return { status: c.dataset.status, steps: [...c.querySelectorAll('li')].map((li) => /** @type {HTMLElement} */ (li).dataset.status) };
      });
      expect(card).to.deep.equal({ status: 'done', steps: ['ok', 'ok'] });
      expect(answer).to.contain('Plan completed (2 steps)');
    });

    step('a skill from the page\'s skill buttons', async () => {
      const { llm } = servers;
      if (!SKILL) throw new Error('no bundled Ask skill with default parameters');
      llm.script([{ text: 'Skill answer: the article in brief.' }]);
      const look = person.look(panel);
      const before = await finals(panel);
      await person.click(panel, `#skills .chip[data-skill="${SKILL.name}"]`, `the ${SKILL.name} skill`);
      await look.waitFor(() => !(/** @type {HTMLElement} */ (document.querySelector('#skill-params'))).hidden, undefined, { message: 'the skill\'s form' });
      await person.click(panel, '#skill-params button[type=submit]', 'Run');
      const answer = await look.waitFor((n) => {
        const all = document.querySelectorAll('#log .msg.assistant.final');
        return all.length > n && document.body.dataset.running === 'false' ? all[all.length - 1].textContent : null;
      }, before, { timeout: 60_000, message: 'the skill\'s answer' });
      expect(answer).to.contain('Skill answer');
      expect(llm.requests).to.have.length(1);
      expect(firstUserText(llm.requests[0].body)).to.not.equal('');
      expect(await panel.evaluate(() => [...document.querySelectorAll('#log .msg.user')].pop()?.textContent)).to.contain(`/${SKILL.name}`);
    });

    step('a job scheduled from the panel and the jobs page runs at its time', async () => {
      const { llm } = servers;
      llm.script([{ text: 'The lighthouse is 48 metres tall.' }]);
      await mode('ask');
      await person.type(panel, '#prompt', 'How tall is the lighthouse?', 'the message box');
      await header('open-jobs', 'Jobs');
      const jobs = await tabAt(started.browser, '/ui/jobs.html');
      const look = person.look(jobs);
      await look.waitFor(() => /** @type {HTMLTextAreaElement} */ (document.getElementById('prompt'))?.value, undefined, { message: 'the jobs page with the task' });
      await person.type(jobs, '#title', 'Lighthouse height');
      await person.type(jobs, '#afterSeconds', '3');
      await person.click(jobs, '#save', 'Create job');
      const done = await look.waitFor(() => {
        const el = /** @type {HTMLElement | null} */ (document.querySelector('li.job'));
        return el?.dataset.state === 'completed' ? el.textContent : null;
      }, undefined, { timeout: 60_000, message: 'the job to run and complete' });
      expect(done).to.contain('Lighthouse height').and.to.contain('48 metres');
      expect(llm.requests).to.have.length(1);
      await jobs.close();
    });

    step('a recording from the panel\'s click alone: Chrome\'s share picker, the tab picked with keys, a worker stop loses nothing, the pill stops it, ffprobe reads the WebM (Chrome); no Record in Firefox', async () => {
      if (kind === 'firefox') {
        // Firefox has no tab capture: the panel offers no Record, on its bar or in More.
        await person.show(panel);
        expect(await panel.evaluate(() => ({ bar: !(/** @type {HTMLElement} */ (document.getElementById('record'))).hidden, more: !(/** @type {HTMLElement} */ (document.getElementById('record-item'))).hidden })))
          .to.deep.equal({ bar: false, more: false });
        return;
      }
      const look = person.look(panel);
      await onDemo('counter.html');
      const from = { clicks: person.clicks, keys: person.keys, typed: person.typed, did: person.did.length };
      await look.waitFor(() => !(/** @type {HTMLElement} */ (document.getElementById('record-item'))).hidden, undefined, { message: 'Record this tab offered' });
      const tall = await demo.evaluate(() => innerHeight);
      await header('record', 'Record this tab');
      // The panel was opened from the welcome tab, so Tabwright was never invoked on this tab: Chrome
      // refuses tab capture, and the same click opens Chrome's own share picker. It is browser UI (only
      // the X server's keys reach it), tabs first, the tab in front at the top, Cancel focused:
      // Shift+Tab to the list, Down to its first tab, Enter shares it.
      await pickerKeys(['shift+Tab', 'Down', 'Return'], started.display);
      person.keys += 3; person.did.push('in Chrome\'s share picker: Shift+Tab, Down (the Counter tab), Enter (Share)');
      await look.waitFor(() => !(/** @type {HTMLElement} */ (document.getElementById('rec-pill'))).hidden, undefined, { message: 'the recording pill' });
      // The tab picked is the demo tab: Chrome's "Sharing this tab to Tabwright" bar sits above its page.
      await person.look(demo).waitFor((h) => innerHeight < h, tall, { message: 'Chrome\'s sharing bar over the demo tab' });
      // Chrome may stop Tabwright's worker at any time: the recording goes on (the panel records, the
      // offscreen document keeps what it sends), and the next worker stops and saves it.
      await look.waitFor(() => /^0:0[1-9]/.test(document.getElementById('rec-time')?.textContent ?? ''), undefined, { message: 'a second recorded' });
      const cdp = await demo.createCDPSession();
      await cdp.send('ServiceWorker.enable');
      await cdp.send('ServiceWorker.stopAllWorkers');
      await cdp.detach().catch(() => {});
      await person.click(demo, '#add', 'Add one');
      await person.click(demo, '#add', 'Add one');
      expect(await demo.evaluate(() => document.getElementById('count')?.textContent)).to.equal('Count: 2');
      // Two more seconds on the pill's clock after the worker stopped, then the person stops.
      await look.waitFor(() => /^0:0[3-9]|^0:[1-5]/.test(document.getElementById('rec-time')?.textContent ?? ''), undefined, { message: 'three seconds recorded' });
      await person.click(panel, '#rec-pill', 'the recording pill (Stop)');
      const note = await look.waitFor(() => [...document.querySelectorAll('#log .notice')].map((e) => e.textContent ?? '').find((t) => /Recording saved/.test(t)) ?? null, undefined, { message: 'where the recording went' });
      const name = /as (Tabwright\/.+?\.webm)/.exec(note ?? '')?.[1];
      expect(name, note ?? '').to.be.a('string');
      facts.recording = `${person.clicks - from.clicks + person.keys - from.keys + person.typed - from.typed} actions: ${person.did.slice(from.did).join('; ')}`;
      await panel.screenshot({ path: join(SHOTS, `panel-${kind}-recording.png`) });
      // The file in the person's downloads folder, once Chromium has finished writing it.
      const file = join(started.downloads, /** @type {string} */ (name));
      for (let tries = 0; tries < 300 && !existsSync(file); tries++) await new Promise((r) => setTimeout(r, 100));
      const probed = await probe(file);
      expect(probed.format).to.contain('webm');
      // Longer than the second before the worker stopped: what came after it was kept.
      expect(probed.seconds).to.be.greaterThan(2);
      expect(probed.frames).to.be.greaterThan(0);
    });

    step('the panel\'s History lists every run of the hour', async () => {
      if (kind === 'chromium') await toDemo(); else await person.show(panel);
      const look = person.look(panel);
      const open = await panel.evaluate(() => !(/** @type {HTMLElement} */ (document.getElementById('history'))).hidden);
      if (!open) await header('history-toggle', 'History');
      const items = await look.waitFor(() => {
        const t = [...document.querySelectorAll('#history .runs li')].map((li) => li.textContent ?? '');
        return t.length >= 6 ? t : null;
      }, undefined, { message: 'the runs in History' });
      const all = (items ?? []).join('\n');
      for (const task of ['What can I try here?', 'Summarise this page', 'Order the Paper floor lamp', 'Tell me what this article is about', 'How tall is the lighthouse?']) expect(all).to.contain(task);
      facts.historyOverflow = await panel.evaluate(() => {
        const runs = /** @type {HTMLElement} */ (document.querySelector('#history'));
        return runs.scrollWidth - runs.clientWidth;
      });
      await panel.screenshot({ path: join(SHOTS, `panel-${kind}-history.png`) });
    });

    // What the person met on the way that is wrong, checked after the story so the story still runs.
    it('the welcome tab had loaded', function () {
      expect(facts.welcomeLoaded, 'the welcome tab').to.equal('Welcome to Tabwright');
    });
    it('npm start opened the demo page', () => {
      expect(facts.demoTabOpened, 'a tab showing the demo page').to.equal(true);
    });
    it('History fits the panel\'s width', () => {
      expect(facts.historyOverflow, 'pixels History scrolls sideways').to.equal(0);
    });
    it('while the plan waits for approval the panel does not say it is working', () => {
      expect(facts.planStatus, 'the status line under the plan').to.be.a('string').and.not.match(/^Working/);
    });
    it('the panel starts in Ask when the person keeps the first run\'s suggestion', () => {
      expect(facts.startMode, 'the mode checked after the first run').to.equal('ask');
    });
    it('the local Ollama chosen at first run is kept as Ollama', () => {
      expect(facts.localKind, 'the provider kind Settings shows for it').to.match(/Ollama/);
    });
  });
}
