// The real panel UI driven like a user: Stop while the model streams, switching mode
// (by mouse and by keyboard), safe markdown, tool cards, the token counter, history and New chat.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { ask, openPageWithPanel, sendFromPanel, transcript, useMockProvider, waitForIdle } from './harness/env.js';
import { offeredTools } from '../fixtures/llm/conversation.js';

scenario('panel', (ctx) => {
  it('stops a run from the Stop button while the model streams slowly', async () => {
    const { env } = ctx;
    await useMockProvider(env);
    const long = 'The lighthouse was built between 1838 and 1844 by Alan Stevenson, on a reef twelve miles out.';
    env.llm.script([{ text: long, chunkDelayMs: 1500 }]);
    const { page, panel } = await openPageWithPanel(env, 'article.html');
    try {
      await sendFromPanel(panel, 'Tell me the history of the lighthouse', 'act');
      await panel.waitFor(() => document.querySelector('.msg.assistant.streaming')?.textContent, undefined, { message: 'the answer to start streaming' });
      expect(await panel.evaluate(() => /** @type {HTMLElement} */ (document.querySelector('#stop')).hidden)).to.equal(false);
      await panel.click('#stop');
      const items = await waitForIdle(panel, 10_000);
      // The user's own Stop is no error: a quiet line that offers to go on.
      const stopped = items.find((i) => i.code === 'ABORTED');
      expect(stopped?.cls).to.include('stopped');
      expect(stopped?.text).to.include('Stopped. The conversation is kept.');
      expect(items.some((i) => i.cls.includes('error'))).to.equal(false);
      const partial = items.find((i) => i.cls.includes('assistant'))?.text ?? '';
      expect(long.startsWith(partial) && partial.length < long.length, `partial answer "${partial}"`).to.equal(true);
      expect(await panel.evaluate(() => ({ stop: /** @type {HTMLElement} */ (document.querySelector('#stop')).hidden, send: /** @type {HTMLButtonElement} */ (document.querySelector('#send')).disabled })))
        .to.deep.equal({ stop: true, send: false });
      expect(env.llm.requests).to.have.length(1);
      expect(env.llm.problems).to.deep.equal([]);
    } finally {
      await page.close();
      await panel.close();
    }
  });

  it('switches between Ask and Act with the mouse and the keyboard, and stops with Esc', async () => {
    const { env } = ctx;
    await useMockProvider(env);
    const { page, panel } = await openPageWithPanel(env, 'article.html');
    try {
      // Mouse: click the visible "Ask" segment (the radio itself is visually hidden).
      await panel.click('label:has(input[value=ask]) span');
      expect(await panel.evaluate(() => /** @type {HTMLInputElement} */ (document.querySelector('input[name=mode]:checked')).value)).to.equal('ask');
      env.llm.script([{ text: 'An answer in Ask mode.' }]);
      await panel.fill('#prompt', 'What is this page about?');
      await panel.click('#send');
      await panel.waitFor(() => Boolean(document.querySelector('.msg.assistant.final')), undefined, { message: 'the Ask answer' });
      expect(env.llm.requests[0].body.messages[0].content).to.contain('Mode: Ask');
      const askTools = offeredTools(env.llm.requests[0].body);
      expect(askTools).to.include.members(['read_page', 'snapshot']);
      for (const acting of ['click', 'type', 'navigate', 'set_field', 'tabs']) expect(askTools).to.not.include(acting);

      // Keyboard: focus the checked radio, arrow to the next one (Act), type, Enter sends.
      await panel.evaluate(() => /** @type {HTMLInputElement} */ (document.querySelector('input[name=mode]:checked')).focus());
      await panel.press('ArrowRight');
      expect(await panel.evaluate(() => /** @type {HTMLInputElement} */ (document.querySelector('input[name=mode]:checked')).value)).to.equal('act');
      // The choice is remembered for the next panel.
      expect(await panel.evaluate(() => browser.storage.local.get('panelMode').then((r) => r.panelMode))).to.equal('act');
      env.llm.script([{ text: 'Working on it, slowly, one word at a time, so there is time to press Escape.', chunkDelayMs: 1500 }]);
      await panel.evaluate(() => /** @type {HTMLElement} */ (document.querySelector('#prompt')).focus());
      await panel.fill('#prompt', 'Do something');
      await panel.press('Enter');
      await panel.waitFor(() => document.querySelector('.msg.assistant.streaming')?.textContent, undefined, { message: 'the Act answer to stream' });
      expect(env.llm.requests[0].body.messages[0].content).to.contain('Mode: Act');
      expect(offeredTools(env.llm.requests[0].body)).to.include('click');
      await panel.press('Escape');
      await panel.waitFor(() => document.body.dataset.running === 'false' && Boolean(document.querySelector('[data-code="ABORTED"]')), undefined, { timeout: 10_000, message: 'Esc to stop the run' });
    } finally {
      await page.close();
      await panel.close();
    }
  });

  it('renders markdown and leaves <img onerror>, <script> and javascript: links inert', async () => {
    const { env } = ctx;
    await useMockProvider(env);
    const hostile = [
      'Here is **the summary**:',
      '',
      '- first point',
      '- second with `code`',
      '',
      '[harmless looking](javascript:window.__pwned="link") and [docs](https://example.com/docs)',
      'inline <a href="https://example.com/" onclick="window.__pwned=\'onclick\'">real link</a>',
      '![tracker](http://127.0.0.1:9/leak.png?secret=1)',
      '',
      '<img src="x" onerror="window.__pwned = \'img\'">',
      '<script>window.__pwned = "script"</script>',
    ].join('\n');
    env.llm.script([{ text: hostile }]);
    const { page, panel } = await openPageWithPanel(env, 'article.html');
    try {
      await sendFromPanel(panel, 'Summarise', 'ask');
      await waitForIdle(panel);
      const r = await panel.evaluate(() => {
        const el = /** @type {HTMLElement} */ (document.querySelector('.msg.assistant.final'));
        return {
          strong: el.querySelector('strong')?.textContent,
          items: el.querySelectorAll('li').length,
          code: el.querySelector('li code')?.textContent,
          img: el.querySelectorAll('img').length,
          script: el.querySelectorAll('script').length,
          handlers: [...el.querySelectorAll('*')].flatMap((n) => [...n.attributes].map((a) => a.name)).filter((n) => n.startsWith('on')),
          hrefs: [...el.querySelectorAll('a')].map((a) => a.getAttribute('href')),
          targets: [...el.querySelectorAll('a[href]')].map((a) => `${a.getAttribute('target')} ${a.getAttribute('rel')}`),
          text: el.textContent,
        };
      });
      expect(r.strong).to.equal('the summary');
      expect(r.items).to.equal(2);
      expect(r.code).to.equal('code');
      expect(r.img).to.equal(0);
      expect(r.script).to.equal(0);
      expect(r.handlers).to.deep.equal([]);
      expect(r.hrefs.filter((h) => h && !/^https:/.test(h))).to.deep.equal([]);
      expect(r.hrefs).to.include('https://example.com/docs');
      expect(r.targets.every((t) => t === '_blank noopener noreferrer')).to.equal(true);
      // The raw HTML is shown as text, so the user sees what the model tried.
      expect(r.text).to.contain('<img src="x"');
      // Clicking the javascript: link runs nothing.
      await panel.evaluate(() => [...document.querySelectorAll('.msg.assistant a')].find((a) => a.textContent === 'harmless looking')?.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true })));
      expect(await panel.evaluate(() => /** @type {any} */ (window).__pwned ?? null)).to.equal(null);
    } finally {
      await page.close();
      await panel.close();
    }
  });

  it('shows tool calls as keyboard-operable cards, counts tokens, keeps history and starts a new chat', async () => {
    const { env } = ctx;
    await useMockProvider(env, { pricing: { input: 3, output: 15 } });
    env.llm.script([
      { toolCalls: [{ name: 'read_page', args: {} }] },
      { text: 'It is **48 metres** tall.' },
    ]);
    const { page, panel } = await openPageWithPanel(env, 'article.html');
    try {
      await sendFromPanel(panel, 'How tall is it?', 'ask');
      await waitForIdle(panel);
      // The card: closed by default, opened from the keyboard, with labelled arguments and result.
      await panel.evaluate(() => /** @type {HTMLElement} */ (document.querySelector('details.tool[data-tool=read_page] summary')).focus());
      await panel.press('Enter');
      const card = await panel.waitFor(() => {
        const d = /** @type {HTMLDetailsElement} */ (document.querySelector('details.tool[data-tool=read_page]'));
        return d.open ? {
          cls: d.className,
          sections: [...d.querySelectorAll('section h4')].map((h) => h.textContent),
          result: d.querySelector('.result pre')?.textContent ?? '',
          sr: d.querySelector('summary .sr-only')?.textContent,
        } : null;
      }, undefined, { message: 'the card to open with Enter' });
      expect(card?.cls).to.contain('ok');
      expect(card?.sections).to.deep.equal(['Arguments', 'Result']);
      expect(card?.result).to.contain('48 metres');
      expect(card?.sr).to.equal('succeeded');

      // Two model calls at 100 + 20 tokens each (the mock's usage chunk); $3 / $15 per million.
      const usage = await panel.waitFor(() => {
        const el = /** @type {HTMLElement} */ (document.querySelector('#usage'));
        return el.dataset.tokens === '240' ? { text: el.textContent, title: el.title } : null;
      }, undefined, { message: 'the token counter to reach 240' });
      expect(usage?.text).to.match(/^240 tokens · \$0\.0012$/);
      expect(usage?.title).to.contain('200 input tokens, 40 output tokens');

      // History: the run is listed (newest first) and opens read-only.
      await panel.click('#history-toggle');
      await panel.waitFor(() => Boolean(document.querySelector('#history .run-link')), undefined, { message: 'the history list' });
      const first = await panel.evaluate(() => document.querySelector('#history .run-link .title')?.textContent);
      expect(first).to.equal('The Lighthouse Keepers of Skerryvore');
      await panel.click('#history .run-link');
      const shown = await panel.waitFor(() => {
        const run = document.querySelector('#history .run');
        return run && !(/** @type {HTMLElement} */ (run)).hidden && [...run.querySelectorAll('.items > *')].map((e) => e.className.split(' ').slice(0, 2).join(' '));
      }, undefined, { message: 'the run to open' });
      expect(shown).to.deep.equal(['msg user', 'tool ok', 'msg assistant']);
      expect(await panel.evaluate(() => document.activeElement?.textContent)).to.equal('Back to history');
      // Esc leaves the history for the conversation, focus back on the History button.
      await panel.press('Escape');
      expect(await panel.evaluate(() => ({ history: /** @type {HTMLElement} */ (document.querySelector('#history')).hidden, focus: document.activeElement?.id })))
        .to.deep.equal({ history: true, focus: 'history-toggle' });

      // New chat: back to an empty conversation and counter, the history stays.
      await panel.click('#new-chat');
      await panel.waitFor(() => document.querySelectorAll('#log > *').length === 0 && !(/** @type {HTMLElement} */ (document.querySelector('#log'))).hidden, undefined, { message: 'an empty log' });
      expect(await panel.text('#usage')).to.equal('');
      const runs = await ask(env.control, { type: 'history.list' });
      expect(runs.ok && runs.data.length).to.be.greaterThan(0);
      expect(JSON.stringify(runs.data)).to.not.contain('sk-test');

      // Search and the outcome filter narrow the list; a run can be deleted on its own.
      await panel.click('#history-toggle');
      await panel.waitFor(() => Boolean(document.querySelector('#history .run-link')), undefined, { message: 'the history list again' });
      const rows = () => panel.evaluate(() => document.querySelectorAll('#history .runs .run-link').length);
      const all = await rows();
      await panel.fill('#history-search', 'no such words anywhere');
      await panel.waitFor(() => document.querySelector('#history .runs .empty')?.textContent === 'No run matches the search and filters.', undefined, { message: 'no match' });
      await panel.fill('#history-search', 'skerryvore');
      const found = await panel.waitFor(() => {
        const titles = [...document.querySelectorAll('#history .runs .run-link .title')].map((e) => e.textContent ?? '');
        return titles.length ? titles : null;
      }, undefined, { message: 'the search to find the run' });
      expect(found?.every((title) => /skerryvore/i.test(title))).to.equal(true);
      await panel.fill('#history-search', '');
      await panel.waitFor((n) => document.querySelectorAll('#history .runs .run-link').length === n, all, { message: 'every run again' });
      // The outcome filter shows only runs that ended so (other scenarios' runs share this history).
      for (const outcome of ['failed', 'done']) {
        const shownOutcomes = await panel.evaluate((o) => {
          const s = /** @type {HTMLSelectElement} */ (document.querySelector('#history-status'));
          s.value = o;
          s.dispatchEvent(new Event('change'));
          return [...document.querySelectorAll('#history .runs li[data-outcome]')].map((li) => /** @type {HTMLElement} */ (li).dataset.outcome);
        }, outcome);
        expect(shownOutcomes.every((x) => x === outcome), `${outcome}: ${shownOutcomes}`).to.equal(true);
        if (outcome === 'done') expect(shownOutcomes.length).to.be.greaterThan(0);
      }
      await panel.evaluate(() => { const s = /** @type {HTMLSelectElement} */ (document.querySelector('#history-status')); s.value = ''; s.dispatchEvent(new Event('change')); });
      expect(await rows()).to.equal(all);
      // Clear history asks for a second click, then empties the store.
      await panel.click('#history-clear');
      expect(await panel.text('#history-clear')).to.equal('Click again to clear all');
      expect((await ask(env.control, { type: 'history.list' })).data.length).to.equal(all);
      await panel.click('#history-clear');
      await panel.waitFor(() => document.querySelector('#history .runs .empty')?.textContent === 'No runs yet. Finished runs appear here.', undefined, { message: 'an empty history' });
      const cleared = await ask(env.control, { type: 'history.list' });
      expect(cleared.ok && cleared.data).to.deep.equal([]);
    } finally {
      await useMockProvider(env, { pricing: null });
      await page.close();
      await panel.close();
    }
  });

  it('labels every control for screen readers', async () => {
    const { env } = ctx;
    await useMockProvider(env);
    const { page, panel } = await openPageWithPanel(env, 'article.html');
    try {
      const unlabelled = await panel.evaluate(() => [...document.querySelectorAll('button, input, textarea, select, summary')]
        .filter((el) => !(/** @type {HTMLElement} */ (el)).closest('[hidden]'))
        .filter((el) => {
          const name = el.getAttribute('aria-label') || (el.id && document.querySelector(`label[for="${el.id}"]`)?.textContent) || el.closest('label')?.textContent || el.textContent;
          return !name?.trim();
        })
        .map((el) => el.outerHTML.slice(0, 80)));
      expect(unlabelled).to.deep.equal([]);
      expect(await panel.evaluate(() => document.querySelector('#log')?.getAttribute('aria-label'))).to.equal('Conversation');
      expect(await transcript(panel)).to.deep.equal([]);
    } finally {
      await page.close();
      await panel.close();
    }
  });
});
