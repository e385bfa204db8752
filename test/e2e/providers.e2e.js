// Issue #6: the sign-in scenario through each native wire format (the OpenAI run is
// sign-in.e2e.js), and a mock Ollama that refuses extension Origins, as a stock Ollama does,
// still serving the extension because the platform strips the Origin for local endpoints.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { ask, openPageWithPanel, sendFromPanel, useMockProvider, waitForIdle } from './harness/env.js';
import { firstUserText, offeredTools, signInScript, toolResults } from '../fixtures/llm/conversation.js';

/** @import { TestEnv } from './harness/env.js' */
/** @import { WireFormat } from '../fixtures/llm/server.js' */

/** What each format must have sent: path and auth header. @type {Record<Exclude<WireFormat, 'openai'>, { path: RegExp, auth: (h: Record<string, any>) => unknown }>} */
const EXPECT = {
  anthropic: { path: /^\/v1\/messages$/, auth: (h) => h['x-api-key'] },
  gemini: { path: /^\/v1beta\/models\/mock-1:streamGenerateContent$/, auth: (h) => h['x-goog-api-key'] },
  ollama: { path: /^\/api\/chat$/, auth: (h) => h.authorization },
};

/**
 * Runs the shared sign-in conversation and checks what the page and the panel show.
 * @param {TestEnv} env @param {Exclude<WireFormat, 'openai'>} format
 */
async function signIn(env, format) {
  await useMockProvider(env, { kind: format, baseUrl: env.llm.baseUrls[format] });
  env.llm.script(signInScript());
  const { page, panel } = await openPageWithPanel(env, 'login.html');
  try {
    await sendFromPanel(panel, 'Sign in as alice with password hunter2', 'act');
    const items = await waitForIdle(panel);
    expect(env.llm.problems).to.deep.equal([]);
    expect(items.filter((i) => i.cls.includes('error')).map((i) => i.text)).to.deep.equal([]);
    expect(await page.text('h1')).to.equal('Welcome, alice');
    expect(items.filter((i) => i.tool).map((i) => i.tool)).to.deep.equal(['snapshot', 'type', 'type', 'click', 'done']);
    const final = items.filter((i) => i.cls.includes('assistant') && i.cls.includes('final'));
    expect(final.map((i) => i.text).join('')).to.contain('Signed in as alice');

    const reqs = env.llm.requests;
    expect(reqs).to.have.length(5);
    for (const r of reqs) {
      expect(r.format).to.equal(format);
      expect(r.path).to.match(EXPECT[format].path);
    }
    expect(EXPECT[format].auth(reqs[0].headers)).to.equal(format === 'ollama' ? 'Bearer sk-test-123' : 'sk-test-123');
    expect(offeredTools(reqs[0].body)).to.include.members(['snapshot', 'click', 'type', 'navigate', 'done']);
    expect(firstUserText(reqs[0].body)).to.equal('Sign in as alice with password hunter2');
    // Tool results went back in the format's own shape, fenced, and never with the password.
    expect(toolResults(reqs[4].body)).to.have.length(4);
    expect(toolResults(reqs[1].body)[0]).to.match(/^<untrusted_page_content>[\s\S]*textbox "Username"/);
    expect(reqs.flatMap((r) => toolResults(r.body)).join('\n')).to.not.contain('hunter2');
    // The usage counter in the panel sums the five calls (100 in / 20 out each, scripted).
    const usage = await panel.evaluate(() => { const el = /** @type {HTMLElement} */ (document.querySelector('#usage')); return { hidden: el.hidden, input: el.dataset.input, output: el.dataset.output }; });
    expect(usage).to.deep.equal({ hidden: false, input: '500', output: '100' });
  } finally {
    await page.close();
    await panel.close();
  }
}

scenario('providers: sign-in through each native format', (ctx) => {
  it('Anthropic Messages', async () => { await signIn(ctx.env, 'anthropic'); });
  it('Google Gemini', async () => { await signIn(ctx.env, 'gemini'); });
  it('Ollama /api/chat', async () => { await signIn(ctx.env, 'ollama'); });

  it('a stock Ollama (refusing extension Origins) still serves the extension', async () => {
    const { env } = ctx;
    env.llm.rejectExtensionOrigins(true);
    try {
      // What the browser sends without our rule: an extension page's own fetch carries its
      // extension Origin, and the mock refuses it as Ollama does.
      env.llm.script([]);
      const direct = await env.control.evaluate((u) => fetch(`${u}/api/chat`, { method: 'POST', body: '{}' }).then((r) => r.status), env.llm.url);
      expect(direct).to.equal(403);
      expect(env.llm.origins.some((o) => /^(chrome|moz)-extension:\/\//.test(o ?? ''))).to.equal(true);

      await signIn(env, 'ollama');
      expect(env.llm.origins.filter((o) => /^(chrome|moz)-extension:\/\//.test(o ?? ''))).to.deep.equal([]);
      // Listing models (Settings → Test connection) goes through too.
      const models = await ask(env.control, { type: 'provider.models' });
      expect(models).to.deep.equal({ ok: true, data: ['mock-1', 'mock-2'] });
    } finally {
      env.llm.rejectExtensionOrigins(false);
    }
  });
});
