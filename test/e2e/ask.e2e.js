// "ask": Ask mode reads and answers, streamed; a click in Ask mode is refused and the
// page stays untouched.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { openPageWithPanel, sendFromPanel, useMockProvider, waitForIdle } from './harness/env.js';
import { findRef, lastToolResult, offeredTools } from '../fixtures/llm/conversation.js';

scenario('ask', (ctx) => {
  it('answers a question about the article, streamed, then refuses a click', async () => {
    const { env } = ctx;
    await useMockProvider(env);
    const answer = 'Skerryvore lighthouse is 48 metres tall, the tallest in Scotland. It was completed in 1844.';
    env.llm.script([
      { toolCalls: [{ name: 'read_page', args: {} }] },
      (req) => {
        if (!lastToolResult(req.body).includes('48 metres')) throw new Error('read_page result lacks the article text');
        return { text: answer, chunkDelayMs: 250 };
      },
    ]);
    const { page, panel } = await openPageWithPanel(env, 'article.html');
    try {
      await sendFromPanel(panel, 'How tall is the lighthouse?', 'ask');
      // Streamed: part of the answer is visible while the message is still streaming.
      const partial = String(await panel.waitFor(() => {
        const el = document.querySelector('.msg.assistant.streaming');
        return el && el.textContent ? el.textContent : null;
      }, undefined, { message: 'a streaming assistant message' }));
      expect(answer.startsWith(partial)).to.equal(true);
      expect(partial.length).to.be.lessThan(answer.length);
      const items = await waitForIdle(panel);
      expect(items.find((i) => i.cls.includes('final'))?.text).to.equal(answer);
      expect(env.llm.requests).to.have.length(2);
      expect(offeredTools(env.llm.requests[0].body).sort()).to.deep.equal(['ask_user_which_element', 'console_logs', 'extract_data', 'fetch_url', 'get_frames', 'get_html', 'list_downloads', 'page_capabilities', 'read_page', 'read_pdf', 'screenshot', 'skills', 'snapshot', 'wait_for']);
      expect(env.llm.requests[0].body.messages[0].content).to.contain('Mode: Ask');

      // Second turn: the model tries to click the Subscribe button; the loop refuses.
      env.llm.script([
        { toolCalls: [{ name: 'snapshot', args: {} }] },
        (req) => ({ toolCalls: [{ name: 'click', args: { ref: findRef(lastToolResult(req.body), 'button', 'Subscribe') } }] }),
        (req) => {
          const refusal = lastToolResult(req.body);
          if (!refusal.includes('NOT_ALLOWED_IN_ASK_MODE')) throw new Error(`expected a refusal, got ${refusal}`);
          return { text: 'I cannot click in Ask mode. Switch to Act mode and ask again.' };
        },
      ]);
      await sendFromPanel(panel, 'Subscribe me to the newsletter', 'ask');
      const after = await waitForIdle(panel);
      expect(env.llm.problems).to.deep.equal([]);
      expect(env.llm.requests).to.have.length(3);
      expect(after.at(-1)?.text).to.contain('cannot click in Ask mode');
      const clickCard = after.filter((i) => i.tool === 'click');
      expect(clickCard).to.have.length(1);
      expect(clickCard[0].cls).to.contain('failed');
      expect(await page.evaluate(() => document.body.dataset.subscribed ?? 'no')).to.equal('no');
      expect(await page.text('#sub-status')).to.equal('');
    } finally {
      await page.close();
      await panel.close();
    }
  });
});
