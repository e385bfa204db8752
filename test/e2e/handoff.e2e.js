// The person's turn (agent/handoff/): a run that meets a CAPTCHA-like challenge, a sign-in wall
// with a TOTP second factor, and a session that expires mid-task in a scheduled job pauses with
// the "Your turn" card; the test plays the person with trusted clicks and keys in the page; the run
// goes on only on evidence (a failed sign-in keeps the pause) and completes. Across all of it, no
// password or code reaches the model, a trace, the history or storage.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { ask, openPageWithPanel, historyRecords, sendFromPanel, useMockProvider, waitForIdle } from './harness/env.js';
import { findRef, firstUserText, lastToolResult, toolResults } from '../fixtures/llm/conversation.js';
import { CHALLENGE_WORD, GATE_PASSWORD, GATE_USER, totp } from '../fixtures/site/gate.js';

const WRONG_PASSWORD = 'wrong-horse-17';
const NOTE = '[Tabwright, not the page] The page needed the person';

scenario('the person\'s turn: sign-in, second factor, challenge', (ctx) => {
  /** Every code the person typed, to look for afterwards. @type {string[]} */
  const codes = [];
  /** What the model was sent in each scenario (the mock's record starts again with each script). @type {string[]} */
  const modelSent = [];
  before(async () => { await useMockProvider(ctx.env); });
  afterEach(() => { modelSent.push(JSON.stringify(ctx.env.llm.requests.map((r) => r.body))); });

  /** The person's trusted typing into a field of the page. @param {import('./harness/driver.js').Driver} page @param {string} selector @param {string} text */
  async function personTypes(page, selector, text) {
    await page.click(selector);
    await /** @type {any} */ (page.page).keyboard.type(text);
  }

  /** The person signs in (password, then the TOTP) on the page the run waits on. @param {import('./harness/driver.js').Driver} page @param {string} password */
  async function personSignsIn(page, password) {
    await page.waitFor(() => document.querySelector('input[name=pass]') !== null, undefined, { message: 'the sign-in form' });
    await personTypes(page, 'input[name=user]', GATE_USER);
    await personTypes(page, 'input[name=pass]', password);
    await page.click('form button');
  }

  /** @param {import('./harness/driver.js').Driver} page */
  async function personEntersCode(page) {
    await page.waitFor(() => document.querySelector('input[name=code]') !== null, undefined, { message: 'the code form' });
    const code = totp();
    codes.push(code);
    await personTypes(page, 'input[name=code]', code);
    await page.click('form button');
  }

  /** The card waiting for the person, by kind. @param {import('./harness/driver.js').Driver} panel @param {string} kind */
  function turnCard(panel, kind) {
    return panel.waitFor((k) => document.querySelector(`.card.handoff.pending[data-kind="${k}"]`)?.textContent, kind, { message: `the Your turn card (${kind})` });
  }

  it('a challenge only a person passes: the run waits, the person passes it, the run goes on and completes', async () => {
    const { env } = ctx;
    env.llm.script([
      { toolCalls: [{ name: 'snapshot', args: {} }] },
      (req) => {
        if (!lastToolResult(req.body).includes(NOTE)) throw new Error(`no handoff note: ${lastToolResult(req.body).slice(-300)}`);
        return { toolCalls: [{ name: 'snapshot', args: {} }] };
      },
      { toolCalls: [{ name: 'done', args: { summary: 'The page says "Harbor lamp: 49 €".' } }] },
    ]);
    const { page, panel } = await openPageWithPanel(env, 'gate/shop');
    try {
      await sendFromPanel(panel, 'What does the harbor lamp cost?', 'act');
      const card = await turnCard(panel, 'captcha');
      expect(card).to.contain(new URL(env.site.url).host);
      // The run waits: the model was asked once, and the run holds the tab.
      expect(env.llm.requests).to.have.length(1);
      expect(await panel.evaluate(() => document.body.dataset.running)).to.equal('true');
      // The person: a trusted click on the box, the word typed with trusted keys, Verify.
      await page.click('#human');
      await personTypes(page, '#word', CHALLENGE_WORD);
      await page.click('#verify');
      const items = await waitForIdle(panel);
      expect(env.llm.problems).to.deep.equal([]);
      expect(await page.text('h1')).to.equal('Lamps');
      expect(await panel.evaluate(() => /** @type {HTMLElement} */ (document.querySelector('.card.handoff'))?.dataset.status)).to.equal('resumed');
      expect(await panel.text('.card.handoff .handoff-status')).to.contain('the challenge is gone');
      expect(items.filter((i) => i.cls.includes('final')).map((i) => i.text).join('')).to.contain('49 €');
    } finally {
      await page.close();
      await panel.close();
    }
  });

  it('a sign-in wall with a second factor: a wrong password keeps the pause and says so; the code too; then the run completes', async () => {
    const { env } = ctx;
    env.llm.script([
      { toolCalls: [{ name: 'snapshot', args: {} }] },
      (req) => {
        if (!lastToolResult(req.body).includes(NOTE)) throw new Error(`no handoff note: ${lastToolResult(req.body).slice(-300)}`);
        return { toolCalls: [{ name: 'snapshot', args: {} }] };
      },
      (req) => ({ toolCalls: [{ name: 'click', args: { ref: findRef(lastToolResult(req.body), 'link', 'Open the report') } }] }),
      { toolCalls: [{ name: 'done', args: { summary: 'The report says "Report total: 4,211 visitors".' } }] },
    ]);
    const page = await env.browser.openPage(`${env.site.url}/gate/app`);
    const tabId = await env.control.waitFor((u) => browser.tabs.query({}).then((tabs) => tabs.find((t) => t.url?.startsWith(u))?.id), `${env.site.url}/gate/login?next=`, { message: 'the tab sent to the sign-in' });
    const panel = await env.browser.openExtensionPage(`ui/panel.html?tabId=${tabId}`);
    try {
      await panel.waitFor(() => document.body.dataset.tabId, undefined, { message: 'the panel to attach' });
      await sendFromPanel(panel, 'Open the report and tell me its total', 'act');
      expect(await turnCard(panel, 'sign_in')).to.contain('Sign in on');

      await personSignsIn(page, WRONG_PASSWORD);
      const failed = await panel.waitFor(() => document.querySelector('.card.handoff.pending .handoff-failed')?.textContent, undefined, { message: 'the failed attempt on the card' });
      expect(failed).to.contain('401');
      expect(env.llm.requests).to.have.length(1);
      expect(env.site.gate.posts.at(-1)).to.deep.include({ path: '/gate/login', status: 401 });

      await personSignsIn(page, GATE_PASSWORD);
      // The password was accepted; the site asks for the code: the same pause, for the second factor.
      expect(await turnCard(panel, 'second_factor')).to.contain('verification code');
      expect(env.llm.requests).to.have.length(1);
      await personEntersCode(page);

      const items = await waitForIdle(panel, 60_000);
      expect(env.llm.problems).to.deep.equal([]);
      expect(env.llm.requests).to.have.length(4);
      expect(await page.text('h1')).to.equal('Quarterly report');
      const status = await panel.text('.card.handoff[data-status=resumed] .handoff-status');
      expect(status).to.contain('POST').and.contain('/gate/2fa');
      expect(items.filter((i) => i.cls.includes('final')).map((i) => i.text).join('')).to.contain('4,211');
      expect(env.site.gate.posts.map((p) => `${p.path} ${p.status}`)).to.include.members(['/gate/login 401', '/gate/login 303', '/gate/2fa 303']);
    } finally {
      await page.close();
      await panel.close();
    }
  });

  it('a job whose session expires mid-task waits as needs_user_input with the reason, then resumes where it paused and completes', async () => {
    const { env } = ctx;
    for (const job of (await ask(env.control, { type: 'jobs.list' })).data.jobs) await ask(env.control, { type: 'jobs.delete', id: job.id });
    env.llm.script([
      { toolCalls: [{ name: 'snapshot', args: {} }] },
      (req) => {
        // The site signs everyone out while the run works.
        env.site.gate.expire();
        return { toolCalls: [{ name: 'click', args: { ref: findRef(lastToolResult(req.body), 'link', 'Open the report') } }] };
      },
      (req) => {
        if (!lastToolResult(req.body).includes(NOTE)) throw new Error(`no handoff note: ${lastToolResult(req.body).slice(-300)}`);
        return { toolCalls: [{ name: 'done', args: { summary: 'The report says "Report total: 4,211 visitors".' } }] };
      },
    ]);
    // Signed in from the test before: the job starts inside the site.
    const { page, panel, tabId } = await openPageWithPanel(env, 'gate/app');
    try {
      expect(await page.text('h1')).to.equal(`Welcome, ${GATE_USER}`);
      const created = await ask(env.control, { type: 'jobs.create', job: { title: 'Report total', prompt: 'Open the report and tell me its total', mode: 'act', target: { type: 'tab', tabId }, schedule: { kind: 'once', afterSeconds: 0 } } });
      expect(created.ok, created.message).to.equal(true);
      const id = created.data.job.id;
      /** @param {string} state */
      const jobIn = (state) => env.control.waitFor(async ({ id, state }) => {
        const r = await browser.runtime.sendMessage({ type: 'jobs.list' });
        const j = r.ok && r.data.jobs.find((/** @type {any} */ x) => x.id === id);
        return j && j.state === state ? j : null;
      }, { id, state }, { timeout: 45_000, message: `the job to be ${state}` });

      const waiting = await jobIn('needs_user_input');
      expect(waiting.waitingFor).to.deep.equal({ kind: 'session_expired', site: new URL(env.site.url).host });
      expect(await turnCard(panel, 'session_expired')).to.contain('session');
      // The jobs page says why the job waits.
      const jobsPage = await env.browser.openExtensionPage('ui/jobs.html');
      try {
        const line = await jobsPage.waitFor((jid) => document.getElementById(jid)?.querySelector('.waiting-for')?.textContent, id, { message: 'the reason on the jobs page' });
        expect(line).to.contain('session').and.contain(new URL(env.site.url).host);
      } finally { await jobsPage.close(); }

      await personSignsIn(page, GATE_PASSWORD);
      await turnCard(panel, 'second_factor');
      await personEntersCode(page);
      const done = await jobIn('completed');
      expect(done.waitingFor).to.equal(undefined);
      expect(done.history.at(-1)).to.deep.include({ status: 'completed' });
      expect(await page.text('h1')).to.equal('Quarterly report');
      expect(env.llm.problems).to.deep.equal([]);
      expect(env.llm.requests).to.have.length(3);
    } finally {
      await page.close();
      await panel.close();
    }
  });

  it('a password the person writes is a secret: the model sees its name, it is typed only into the password field; the code the person types into the card goes only into the code field', async () => {
    const { env } = ctx;
    env.llm.script([
      { toolCalls: [{ name: 'snapshot', args: {} }] },
      (req) => {
        if (!firstUserText(req.body).includes('password [secret 1]')) throw new Error(`the model saw: ${firstUserText(req.body)}`);
        return { toolCalls: [{ name: 'type', args: { ref: findRef(lastToolResult(req.body), 'textbox', 'User name'), text: GATE_USER } }] };
      },
      (req) => ({ toolCalls: [{ name: 'type', args: { ref: findRef(toolResults(req.body)[0], 'textbox', 'Password'), text: '[secret 1]' } }] }),
      (req) => ({ toolCalls: [{ name: 'click', args: { ref: findRef(toolResults(req.body)[0], 'button', 'Sign in') } }] }),
      (req) => {
        if (!lastToolResult(req.body).includes(NOTE)) throw new Error(`no handoff note: ${lastToolResult(req.body).slice(-300)}`);
        return { toolCalls: [{ name: 'done', args: { summary: 'Signed in: the page says "Welcome, alice".' } }] };
      },
    ]);
    env.site.gate.expire();
    const page = await env.browser.openPage(`${env.site.url}/gate/app`);
    const tabId = await env.control.waitFor((u) => browser.tabs.query({}).then((tabs) => tabs.find((t) => t.url?.startsWith(u))?.id), `${env.site.url}/gate/login?next=`, { message: 'the tab sent to the sign-in' });
    const panel = await env.browser.openExtensionPage(`ui/panel.html?tabId=${tabId}`);
    try {
      await panel.waitFor(() => document.body.dataset.tabId, undefined, { message: 'the panel to attach' });
      await sendFromPanel(panel, `Sign in as ${GATE_USER} with the password ${GATE_PASSWORD}`, 'act');
      // The panel shows the message with the secret's name, and suggests the handoff for next time.
      const said = await panel.waitFor(() => document.querySelector('.msg.user:last-of-type')?.textContent, undefined, { message: 'the message in the panel' });
      expect(said).to.equal(`Sign in as ${GATE_USER} with the password [secret 1]`);
      expect(await panel.waitFor(() => document.querySelector('.notice.info')?.textContent, undefined, { message: 'the suggestion' })).to.contain('hands you the tab');
      // The sign-in form's POST waits for the person's word; its card masks the password.
      const card = await panel.waitFor(() => document.querySelector('.card.confirm.pending')?.textContent, undefined, { message: 'the sign-in write card' });
      expect(card).to.contain('/gate/login').and.not.contain(GATE_PASSWORD);
      await panel.click('.card.confirm .confirm-yes');
      expect(await turnCard(panel, 'second_factor')).to.contain('verification code');
      // This time the person types the code into the card: Tabwright fills it into the page's code field only.
      const code = totp();
      codes.push(code);
      await panel.fill('.card.handoff.pending .handoff-code', code);
      await panel.click('.card.handoff.pending .handoff-fill');
      const items = await waitForIdle(panel, 60_000);
      expect(env.llm.problems).to.deep.equal([]);
      expect(await page.text('h1')).to.equal(`Welcome, ${GATE_USER}`);
      expect(env.site.gate.posts.at(-1)).to.deep.include({ path: '/gate/2fa', status: 303 });
      expect(env.site.gate.posts.at(-1)?.fields.code).to.equal(code);
      expect(await panel.evaluate((c) => document.body.innerText.includes(c), code)).to.equal(false);
      expect(env.site.gate.posts.at(-2)).to.deep.include({ path: '/gate/login', status: 303 });
      expect(env.site.gate.posts.at(-2)?.fields.pass).to.equal(GATE_PASSWORD);
      expect(items.filter((i) => i.tool).map((i) => i.tool)).to.deep.equal(['snapshot', 'type', 'type', 'click', 'done']);
    } finally {
      await page.close();
      await panel.close();
    }
  });

  it('no password or code reached the model, a trace, the history or storage', async () => {
    const { env } = ctx;
    const secrets = [GATE_PASSWORD, WRONG_PASSWORD, ...codes];
    expect(codes.length).to.equal(3);
    const sent = modelSent.join('\n');
    expect(sent).to.contain('Open the report');
    const history = JSON.stringify(await historyRecords(env, 20));
    const traces = await env.control.evaluate(async () => {
      const list = await browser.runtime.sendMessage({ type: 'traces.list' });
      const out = [];
      for (const t of (list.ok ? list.data : []).slice(0, 20)) out.push(await browser.runtime.sendMessage({ type: 'traces.get', id: t.id }));
      return JSON.stringify({ list, out });
    });
    const storage = await env.control.evaluate(async () => JSON.stringify([await browser.storage.session.get(null), await browser.storage.local.get(null)]));
    expect(history).to.contain('4,211');
    expect(traces.length).to.be.above(100);
    for (const where of [['model requests', sent], ['history', history], ['traces', traces], ['storage', storage]]) {
      for (const s of secrets) expect(where[1].includes(s), `${s} in ${where[0]}`).to.equal(false);
    }
  });
});
