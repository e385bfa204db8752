// "bad input": malformed tool calls get tool errors and the run goes on; a 401 shows an
// error naming the provider and what to fix, and the conversation is kept.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { openPageWithPanel, sendFromPanel, useMockProvider, waitForIdle } from './harness/env.js';
import { lastToolResult } from '../fixtures/llm/conversation.js';
import { errorBody } from '../fixtures/llm/openai-wire.js';

scenario('bad input', (ctx) => {
  it('answers invalid JSON arguments and an unknown tool with tool errors, and the run continues', async () => {
    const { env } = ctx;
    await useMockProvider(env);
    env.llm.script([
      { toolCalls: [{ name: 'click', rawArgs: '{"ref": "e1",' }] },
      (req) => {
        if (!lastToolResult(req.body).includes('INVALID_ARGUMENTS')) throw new Error(`expected INVALID_ARGUMENTS, got ${lastToolResult(req.body)}`);
        return { toolCalls: [{ name: 'teleport', args: { to: 'moon' } }] };
      },
      (req) => {
        if (!lastToolResult(req.body).includes('UNKNOWN_TOOL')) throw new Error(`expected UNKNOWN_TOOL, got ${lastToolResult(req.body)}`);
        return { toolCalls: [{ name: 'done', args: { summary: 'Recovered from two bad tool calls.' } }] };
      },
    ]);
    const { page, panel } = await openPageWithPanel(env, 'login.html');
    try {
      await sendFromPanel(panel, 'Look around', 'act');
      const items = await waitForIdle(panel);
      expect(env.llm.problems).to.deep.equal([]);
      expect(env.llm.requests).to.have.length(3);
      const tools = items.filter((i) => i.tool);
      expect(tools.map((i) => i.tool)).to.deep.equal(['click', 'teleport', 'done']);
      expect(tools[0].text).to.contain('INVALID_ARGUMENTS');
      expect(tools[1].text).to.contain('UNKNOWN_TOOL');
      expect(items.at(-1)?.text).to.contain('Recovered from two bad tool calls.');
    } finally {
      await page.close();
      await panel.close();
    }
  });

  it('shows a 401 as an error naming the provider and the setting, and keeps the conversation', async () => {
    const { env } = ctx;
    await useMockProvider(env, { apiKey: 'sk-wrong' });
    env.llm.script([{ error: { status: 401, body: errorBody('Incorrect API key provided: sk-wrong.', 'invalid_request_error', 'invalid_api_key') } }]);
    const { page, panel } = await openPageWithPanel(env, 'article.html');
    try {
      await sendFromPanel(panel, 'Summarise this article', 'ask');
      const items = await waitForIdle(panel);
      const error = items.find((i) => i.cls.includes('error'));
      expect(error?.code).to.equal('AUTH_FAILED');
      // Said for people first, with the way out: the provider's own words below, the code in Details.
      expect(error?.text).to.match(/^The provider refused the API key\. Check the key in Settings\./);
      expect(await panel.evaluate(() => [...document.querySelectorAll('.msg.error .err-actions button')].map((b) => b.textContent))).to.deep.equal(['Open settings']);
      expect(error?.text).to.contain(`OpenAI-compatible (${env.llm.baseUrl})`);
      expect(error?.text).to.contain('Settings → Provider');
      expect(error?.text).to.contain('API key');
      expect(items.find((i) => i.cls.includes('user'))?.text).to.equal('Summarise this article');

      // Fix the key; the next turn carries the earlier message: nothing was lost.
      await useMockProvider(env, { apiKey: 'sk-right' });
      env.llm.script([{ text: 'It is about the Skerryvore lighthouse.' }]);
      await sendFromPanel(panel, 'Try again', 'ask');
      const after = await waitForIdle(panel);
      const users = env.llm.requests[0].body.messages.filter((/** @type {any} */ m) => m.role === 'user').map((/** @type {any} */ m) => m.content);
      expect(users).to.deep.equal(['Summarise this article', 'Try again']);
      expect(env.llm.requests[0].headers.authorization).to.equal('Bearer sk-right');
      expect(after.at(-1)?.text).to.equal('It is about the Skerryvore lighthouse.');
      expect(after.filter((i) => i.cls.includes('user'))).to.have.length(2);
    } finally {
      await page.close();
      await panel.close();
    }
  });
});
