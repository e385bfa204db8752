// Setup that cannot trap: in a fresh profile, choosing the OpenAI preset and pasting a key
// reaches OpenAI's address without anyone typing a URL, the key is tried at once, and the first
// message is answered. The browser resolves api.openai.com to a TLS server on 127.0.0.1 in front of
// the mock LLM (Chromium: a host-resolver rule; Firefox: an HTTPS proxy), with the tests' own
// certificate (test/fixtures/tls), which this browser alone accepts.
import { expect } from 'chai';
import https from 'node:https';
import http from 'node:http';
import net from 'node:net';
import { readFileSync } from 'node:fs';
import { browsers, getServers, tabIdOf } from './harness/env.js';
import { launchChromium, launchFirefox } from './harness/browsers.js';

/** @import { BrowserEnv } from './harness/browsers.js' */

const KEY = 'sk-proj-fresh-0123456789abcdef';
const tls = {
  key: readFileSync(new URL('../fixtures/tls/api.openai.com.key', import.meta.url)),
  cert: readFileSync(new URL('../fixtures/tls/api.openai.com.crt', import.meta.url)),
};

/**
 * https://api.openai.com in front of the mock: every request is passed to it as it came, and what
 * Host it was addressed to is kept. Also an HTTPS (CONNECT) proxy that leads to it.
 * @param {string} target the mock's http://127.0.0.1:port
 */
async function openaiFront(target) {
  /** @type {string[]} */
  const hosts = [];
  const front = https.createServer(tls, (req, res) => {
    hosts.push(String(req.headers.host));
    const up = http.request(`${target}${req.url}`, { method: req.method, headers: req.headers }, (r) => { res.writeHead(r.statusCode ?? 502, r.headers); r.pipe(res); });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise((r) => front.listen(0, '127.0.0.1', () => r(undefined)));
  const port = /** @type {import('node:net').AddressInfo} */ (front.address()).port;
  const proxy = http.createServer();
  proxy.on('connect', (req, client, head) => {
    const s = net.connect(port, '127.0.0.1', () => { client.write('HTTP/1.1 200 Connection Established\r\n\r\n'); s.write(head); s.pipe(client); client.pipe(s); });
    s.on('error', () => client.destroy());
    client.on('error', () => s.destroy());
  });
  await new Promise((r) => proxy.listen(0, '127.0.0.1', () => r(undefined)));
  const proxyPort = /** @type {import('node:net').AddressInfo} */ (proxy.address()).port;
  return { port, proxyPort, hosts, close: () => { front.close(); proxy.close(); front.closeAllConnections?.(); } };
}

for (const kind of browsers()) {
  describe(`fresh profile [${kind}]`, function () {
    this.timeout(120_000);
    /** @type {BrowserEnv} */
    let browser;
    /** @type {Awaited<ReturnType<typeof openaiFront>>} */
    let front;
    /** @type {Awaited<ReturnType<typeof getServers>>} */
    let servers;
    before(async () => {
      servers = await getServers();
      front = await openaiFront(servers.llm.url);
      browser = kind === 'chromium'
        ? await launchChromium({ hostRules: [`MAP api.openai.com 127.0.0.1:${front.port}`], args: ['--ignore-certificate-errors'] })
        : await launchFirefox({ acceptInsecureCerts: true, prefs: { 'network.proxy.type': 1, 'network.proxy.ssl': '127.0.0.1', 'network.proxy.ssl_port': front.proxyPort } });
    });
    after(async () => {
      servers.llm.requireKey(null);
      await browser?.close();
      front?.close();
    });

    it('the OpenAI preset and a pasted key reach OpenAI\'s address without typing a URL, and the first message is answered', async () => {
      const { llm, site } = servers;
      llm.requireKey(KEY);
      llm.script([{ text: 'Hello from the preset.' }]);
      const options = await browser.openExtensionPage('ui/options.html');
      await options.waitFor(() => document.body.dataset.ready === 'true', undefined, { message: 'the settings page' });
      // A fresh profile: one provider, a local Ollama, its kind, URL and model agreeing.
      expect(await options.evaluate(() => [...document.querySelectorAll('fieldset.provider')].map((c) => [(/** @type {HTMLSelectElement} */ (c.querySelector('.kind'))).value, (/** @type {HTMLInputElement} */ (c.querySelector('.baseUrl'))).value]))).to.deep.equal([['ollama', 'http://localhost:11434']]);
      // Choose the OpenAI preset: URL and model come with it.
      await options.evaluate(() => {
        const kind = /** @type {HTMLSelectElement} */ (document.querySelector('fieldset.provider .kind'));
        kind.value = 'openai';
        kind.dispatchEvent(new Event('change', { bubbles: true }));
      });
      expect(await options.evaluate(() => (/** @type {HTMLInputElement} */ (document.querySelector('fieldset.provider .baseUrl'))).value)).to.equal('https://api.openai.com/v1');
      // Paste the key: it is tried at once, with a clear result.
      await options.fill('fieldset.provider .apiKey', KEY);
      await options.waitFor(() => document.querySelector('fieldset.provider .test-result')?.textContent?.startsWith('Connected'), undefined, { message: 'the key to be tested', timeout: 20_000 });
      expect(await options.text('fieldset.provider .test-result')).to.equal('Connected: 2 models available.');
      await options.click('#save');
      await options.waitFor(() => document.querySelector('#result')?.textContent === 'Saved.', undefined, { message: 'the save' });
      await options.close();

      const url = `${site.url}/article.html`;
      const page = await browser.openPage(url);
      const control = await browser.openExtensionPage('ui/jobs.html');
      const tabId = await tabIdOf(/** @type {any} */ ({ control }), url);
      const panel = await browser.openExtensionPage(`ui/panel.html?tabId=${tabId}`);
      try {
        await panel.waitFor(() => document.body.dataset.tabId, undefined, { message: 'the panel' });
        expect(await panel.evaluate(() => (/** @type {HTMLElement} */ (document.querySelector('#welcome'))).hidden)).to.equal(true);
        await panel.evaluate(() => (/** @type {HTMLElement} */ (document.querySelector('input[name=mode][value=ask]'))).click());
        await panel.fill('#prompt', 'Hello?');
        await panel.click('#send');
        await panel.waitFor(() => [...document.querySelectorAll('.msg.assistant')].some((m) => m.textContent === 'Hello from the preset.'), undefined, { message: 'the answer' });
        expect(llm.problems).to.deep.equal([]);
        const [req] = llm.requests;
        expect(req.path).to.equal('/v1/chat/completions');
        expect(req.headers.authorization).to.equal(`Bearer ${KEY}`);
        expect(req.body.model).to.equal('gpt-4.1-mini');
        // The key test and the message both went to api.openai.com (Firefox's own background traffic may pass the proxy too).
        expect(front.hosts.filter((h) => h === 'api.openai.com').length).to.be.at.least(2);
      } finally {
        await page.close();
        await control.close();
        await panel.close();
      }
    });

    it('from the panel\'s first-run card: a hosted model in at most 7 actions, counted (README)', async () => {
      const { llm, site } = servers;
      llm.requireKey(KEY);
      llm.script([{ text: 'Hello from the card.' }]);
      const url = `${site.url}/article.html`;
      const page = await browser.openPage(url);
      const control = await browser.openExtensionPage('ui/jobs.html');
      // Back to a first run: no provider chosen yet.
      await control.evaluate(() => /** @type {any} */ (globalThis).browser.runtime.sendMessage({ type: 'settings.set', settings: { onboarded: false, provider: { kind: 'ollama', baseUrl: 'http://localhost:11434', model: 'llama3.1', apiKey: '' } } }));
      const tabId = await tabIdOf(/** @type {any} */ ({ control }), url);
      // Action 1: open the panel (the toolbar button, the shortcut, or the welcome tab's button).
      let actions = 1;
      const panel = await browser.openExtensionPage(`ui/panel.html?tabId=${tabId}`);
      try {
        await panel.waitFor(() => !(/** @type {HTMLElement} */ (document.querySelector('#welcome'))).hidden, undefined, { message: 'the first-run card' });
        // OpenAI is the card's first provider, so choosing it takes no action; paste the key (2), Use this key (3).
        await panel.waitFor(() => (/** @type {HTMLSelectElement} */ (document.querySelector('#fr-kind'))).value === 'openai', undefined, { message: 'OpenAI chosen in the card' });
        await panel.fill('#fr-key', KEY); actions++;
        await panel.click('.use-this-key'); actions++;
        await panel.waitFor(() => (/** @type {HTMLElement} */ (document.querySelector('#welcome'))).hidden, undefined, { message: 'the card to go once the key works', timeout: 20_000 });
        // Type the question (4) and send it (5).
        await panel.fill('#prompt', 'Hello?'); actions++;
        await panel.press('Enter'); actions++;
        await panel.waitFor(() => [...document.querySelectorAll('.msg.assistant')].some((m) => m.textContent === 'Hello from the card.'), undefined, { message: 'the answer' });
        expect(actions).to.equal(5);
        expect(llm.problems).to.deep.equal([]);
        const saved = await control.evaluate(() => /** @type {any} */ (globalThis).browser.runtime.sendMessage({ type: 'settings.get' }));
        // The preset's model when the key's list has it, else the first listed (the mock lists mock-1 and mock-2).
        expect(saved.data.provider).to.include({ kind: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'mock-1' });
        expect(llm.requests.at(-1)?.body.model).to.equal('mock-1');
        expect(saved.data.onboarded).to.equal(true);
      } finally {
        await page.close();
        await control.close();
        await panel.close();
      }
    });
  });
}
