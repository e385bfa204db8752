// Run lifecycle: New chat leaves the panel attached to the tab's session, so the next run
// shows live and Stop works; New chat in the middle of a run ends it cleanly; a run that cannot
// start (a provider kind Tabwright does not know, as an old settings file could hold) fails with a
// message, keeps the conversation, and the next message runs.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { ask, openPageWithPanel, sendFromPanel, transcript, useMockProvider, waitForIdle } from './harness/env.js';

scenario('run lifecycle', (ctx) => {
  before(async () => { await useMockProvider(ctx.env); });

  it('New chat, then a run: the panel shows it live and Stop ends it', async () => {
    const { env } = ctx;
    env.llm.script([{ text: 'The first answer.' }]);
    const { page, panel } = await openPageWithPanel(env, 'article.html');
    try {
      await sendFromPanel(panel, 'First question', 'ask');
      expect((await waitForIdle(panel)).at(-1)?.text).to.equal('The first answer.');
      await panel.click('#new-chat');
      await panel.waitFor(() => document.querySelectorAll('#log > *').length === 0, undefined, { message: 'the transcript to empty' });

      const answer = 'A long answer that arrives slowly, word by word, so that there is time to watch it and to stop it.';
      env.llm.script([{ text: answer, chunkDelayMs: 1_500 }]);
      await sendFromPanel(panel, 'Second question', 'ask');
      // Live: the message, the streaming answer and the Stop button show without reopening the panel.
      await panel.waitFor(() => document.querySelector('.msg.assistant.streaming')?.textContent, undefined, { message: 'the new run to stream into the panel' });
      expect(await panel.evaluate(() => document.body.dataset.running)).to.equal('true');
      expect(await panel.evaluate(() => !(/** @type {HTMLButtonElement} */ (document.querySelector('#stop'))).hidden)).to.equal(true);
      const shown = await transcript(panel);
      expect(shown[0].text).to.include('Second question');
      expect(shown.some((i) => i.text.includes('First question'))).to.equal(false);
      await panel.click('#stop');
      await panel.waitFor(() => document.body.dataset.running === 'false', undefined, { message: 'the run to stop' });
      const items = await transcript(panel);
      expect(items.some((i) => i.code === 'ABORTED')).to.equal(true);
      // The tab is free again: one more message runs.
      env.llm.script([{ text: 'Third answer.' }]);
      await sendFromPanel(panel, 'Third question', 'ask');
      expect((await waitForIdle(panel)).at(-1)?.text).to.equal('Third answer.');
    } finally {
      await page.close();
      await panel.close();
    }
  });

  it('New chat during a run ends it: nothing of it reaches the new conversation, and the next run is shown', async () => {
    const { env } = ctx;
    env.llm.script([{ text: 'An answer that would take a long time to finish arriving in the panel.', chunkDelayMs: 1_500 }]);
    const { page, panel } = await openPageWithPanel(env, 'article.html');
    try {
      await sendFromPanel(panel, 'Old task', 'ask');
      await panel.waitFor(() => document.querySelector('.msg.assistant.streaming')?.textContent, undefined, { message: 'the answer to start streaming' });
      await panel.click('#new-chat');
      await panel.waitFor(() => document.body.dataset.running === 'false' && document.querySelectorAll('#log > *').length === 0, undefined, { message: 'the old run to end and the transcript to empty' });
      await new Promise((r) => setTimeout(r, 500));
      expect(await transcript(panel)).to.deep.equal([]);

      env.llm.script([{ text: 'The new answer.' }]);
      await sendFromPanel(panel, 'New task', 'ask');
      const items = await waitForIdle(panel);
      expect(items).to.have.length(2);
      expect(items[0].text).to.include('New task');
      expect(items[1].text).to.equal('The new answer.');
      expect(items.some((i) => i.text.includes('Old task'))).to.equal(false);
      // The model saw only the new conversation.
      const last = env.llm.requests.at(-1);
      expect(JSON.stringify(last?.body.messages)).to.not.include('Old task');
    } finally {
      await page.close();
      await panel.close();
    }
  });

  it('a run that cannot start fails with a message, keeps the conversation, and the next message runs', async () => {
    const { env } = ctx;
    // As an old or hand-edited settings file could leave it: a provider kind Tabwright does not know.
    await env.control.evaluate(async () => {
      const { settings } = await browser.storage.local.get('settings');
      await browser.storage.local.set({ settings: { ...settings, provider: { ...settings.provider, kind: 'no-such-kind' } } });
    });
    const { page, panel } = await openPageWithPanel(env, 'article.html');
    try {
      const requestsBefore = env.llm.requests.length;
      await sendFromPanel(panel, 'Summarise this page', 'act');
      const items = await waitForIdle(panel);
      const error = items.find((i) => i.cls.includes('error'));
      expect(error?.code).to.equal('RUN_NOT_STARTED');
      expect(error?.text).to.include('no-such-kind');
      expect(await panel.evaluate(() => document.body.dataset.running)).to.equal('false');
      expect(env.llm.requests.length).to.equal(requestsBefore);
      // The indicator never showed: no border left on the page.
      const tabId = Number(await panel.evaluate(() => document.body.dataset.tabId));
      const indicator = await env.control.evaluate((id) => browser.tabs.sendMessage(id, { type: 'content.indicatorState' }, { frameId: 0 }).then((r) => r.data), tabId);
      expect(indicator.shown).to.equal(false);

      await useMockProvider(env);
      env.llm.script([{ text: 'Here is the summary.' }]);
      await sendFromPanel(panel, 'Summarise this page', 'ask');
      const after = await waitForIdle(panel);
      expect(after.at(-1)?.text).to.equal('Here is the summary.');
      // The conversation was kept: the first message is still in the transcript and went to the model.
      expect(after.filter((i) => i.text.includes('Summarise this page'))).to.have.length(2);
      const reply = await ask(env.control, { type: 'chat.state', tabId });
      expect(reply.ok && reply.data.running).to.equal(false);
    } finally {
      await useMockProvider(env);
      await page.close();
      await panel.close();
    }
  });

  it('closing the tab mid-run ends the run as closed, not as stopped', async () => {
    const { env } = ctx;
    env.llm.script([{ text: 'Reading the article slowly, so that there is time to close its tab.', chunkDelayMs: 1_500 }]);
    const { page, panel } = await openPageWithPanel(env, 'article.html');
    try {
      await sendFromPanel(panel, 'Summarise the article', 'act');
      await panel.waitFor(() => document.querySelector('.msg.assistant.streaming')?.textContent, undefined, { message: 'the answer to start streaming' });
      await page.close();
      const error = await panel.waitFor(() => [...document.querySelectorAll('#log > [data-code]')].map((e) => `${/** @type {HTMLElement} */ (e).dataset.code}: ${e.textContent}`).join(' | '), undefined, { message: 'the run to end' });
      expect(error).to.match(/^TAB_CLOSED: The tab was closed, and the run ended with it\./);
      expect(error).to.not.match(/ABORTED|Stopped/);
      expect(await panel.evaluate(() => document.body.dataset.running)).to.equal('false');
    } finally {
      await panel.close();
    }
  });
});
