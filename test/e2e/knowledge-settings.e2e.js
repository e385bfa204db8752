// User control: the settings page lists the site adapters and skills (search, turn off,
// view), takes the user's own in the same format (each wrong field named, nothing saved until it is
// right), lets the user's adapter override a bundled one (and the model then gets the user's text),
// and exports and imports them all or nothing.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { ask, sendFromPanel, tabIdOf, useMockProvider, waitForIdle } from './harness/env.js';
import { firstUserText } from '../fixtures/llm/conversation.js';
import { BUNDLED as ADAPTERS } from '../../src/chrome/bundled-adapters/bundled.js';
import { BUNDLED as SKILLS } from '../../src/chrome/bundled-skills/bundled.js';

/** @import { Driver } from './harness/driver.js' */

/** @param {Driver} page @param {string} id @param {unknown} data */
function chooseFile(page, id, data) {
  return page.evaluate(([sel, body]) => {
    const input = /** @type {HTMLInputElement} */ (document.querySelector(sel));
    const dt = new DataTransfer();
    dt.items.add(new File([body], 'export.json', { type: 'application/json' }));
    input.files = dt.files;
    input.dispatchEvent(new Event('change', { bubbles: true }));
  }, [id, typeof data === 'string' ? data : JSON.stringify(data)]);
}

/** The rows of a list as the user sees them. @param {Driver} page @param {string} prefix */
function rows(page, prefix) {
  return page.evaluate((p) => [...document.querySelectorAll(`#${p}-list > li`)].map((li) => ({
    key: /** @type {HTMLElement} */ (li).dataset.key, source: /** @type {HTMLElement} */ (li).dataset.source,
    on: /** @type {HTMLInputElement} */ (li.querySelector('input[type=checkbox]')).checked,
    text: li.querySelector('.label')?.textContent ?? '',
  })), prefix);
}

/** @param {Driver} page @param {string} prefix @param {string} text */
async function saveInEditor(page, prefix, text) {
  await page.evaluate((p) => { /** @type {HTMLDetailsElement} */ (document.querySelector(`#${p}-editor-box`)).open = true; }, prefix);
  await page.fill(`#${prefix}-editor`, text);
  await page.click(`#${prefix}-save`);
}

const GITLAB_MINE = `---
id: gitlab
name: GitLab (ours)
category: code
match: [gitlab.com]
---
- Our GitLab: merge requests need two approvals; never merge on Fridays.
`;

scenario('settings: site adapters and skills', (ctx) => {
  before(async () => { await useMockProvider(ctx.env); });

  it('lists, searches, turns off and views adapters; refuses a wrong file field by field; the user\'s override reaches the model', async () => {
    const { env } = ctx;
    const page = await env.browser.openExtensionPage('ui/options.html');
    try {
      await page.waitFor(() => document.body.dataset.ready === 'true', undefined, { message: 'the settings page' });
      expect((await rows(page, 'adapters')).length).to.equal(ADAPTERS.length);
      expect(await page.text('#adapters-count')).to.equal(`${ADAPTERS.length} of ${ADAPTERS.length}`);
      await page.fill('#adapters-search', 'chase');
      const found = await rows(page, 'adapters');
      expect(found.map((r) => r.key)).to.deep.equal(['bundled:chase']);
      expect(found[0].text).to.include('sensitive');
      // View shows the guidance; the checkbox turns the adapter off, for the catalog too.
      await page.click('#adapters-list li .ghost.small');
      expect(await page.evaluate(() => !(/** @type {HTMLElement} */ (document.querySelector('#adapters-list li .kn-body'))).hidden)).to.equal(true);
      await page.click('#adapters-list li input[type=checkbox]');
      await page.waitFor(async () => (await browser.runtime.sendMessage({ type: 'adapters.list' })).data.adapters.find((/** @type {any} */ a) => a.id === 'chase')?.enabled === false, undefined, { message: 'chase to be turned off' });
      await page.click('#adapters-list li input[type=checkbox]');
      await page.waitFor(async () => (await browser.runtime.sendMessage({ type: 'adapters.list' })).data.adapters.find((/** @type {any} */ a) => a.id === 'chase')?.enabled === true, undefined, { message: 'chase to be back on' });

      // A wrong file: every wrong field named, nothing saved.
      await page.fill('#adapters-search', '');
      await saveInEditor(page, 'adapters', '---\nid: my-wiki\nname: Wiki\ncategory: wikis\nmatch: [https://wiki.example, com]\nrisk: extreme\n---\n');
      const errors = /** @type {string[]} */ (await page.waitFor(() => {
        const li = [...document.querySelectorAll('#adapters-errors li')].map((l) => /** @type {HTMLElement} */ (l).dataset.field ?? '');
        return li.length ? li : null;
      }, undefined, { message: 'the field errors' }));
      expect([...new Set(errors)].sort()).to.deep.equal(['category', 'guidance', 'match', 'risk']);
      expect(await page.text('#adapters-result')).to.equal('Not saved: fix the fields named below.');
      expect((await ask(env.control, { type: 'adapters.list' })).data.adapters.filter((/** @type {any} */ a) => a.source === 'user')).to.deep.equal([]);

      // Edit the bundled GitLab adapter into the user's own: it replaces the bundled one.
      await page.fill('#adapters-search', 'gitlab');
      await page.click('#adapters-list li .ghost.small:nth-of-type(2)');
      expect(await page.evaluate(() => (/** @type {HTMLTextAreaElement} */ (document.querySelector('#adapters-editor'))).value)).to.match(/^---\nid: gitlab\n/);
      await saveInEditor(page, 'adapters', GITLAB_MINE);
      await page.waitFor(() => document.querySelector('#adapters-result')?.textContent === 'Saved.', undefined, { message: 'the save' });
      const listed = await rows(page, 'adapters');
      expect(listed.map((r) => `${r.key} ${r.text.includes('replaced by yours') ? 'replaced' : r.text.includes('yours') ? 'yours' : ''}`)).to.deep.equal(['user:gitlab yours', 'bundled:gitlab replaced']);
    } finally {
      await page.close();
    }

    // The model now gets the user's guidance on GitLab, not the bundled one.
    const url = `http://gitlab.com:${new URL(env.site.url).port}/adapters/repo.html`;
    const site = await env.browser.openPage(url);
    const panel = await env.browser.openExtensionPage(`ui/panel.html?tabId=${await tabIdOf(env, url)}`);
    try {
      env.llm.script([{ text: 'Two approvals.' }]);
      await panel.waitFor(() => document.body.dataset.tabId, undefined, { message: 'the panel' });
      await sendFromPanel(panel, 'What are the rules here?', 'ask');
      await waitForIdle(panel);
      const first = firstUserText(env.llm.requests[0].body);
      expect(first).to.include('never merge on Fridays');
      expect(first).to.include('site guidance for GitLab (ours)');
      const bundled = ADAPTERS.find((f) => f.file === 'gitlab.md')?.text.split('---\n')[2].trim().split('\n')[0] ?? 'x';
      expect(first).to.not.include(bundled);
    } finally {
      await site.close();
      await panel.close();
    }
  });

  it('exports the user\'s adapters and imports them back; a bad import changes nothing and names the problem', async () => {
    const { env } = ctx;
    const exported = await ask(env.control, { type: 'adapters.export' });
    expect(exported.ok && exported.data.adapters).to.have.length(1);
    expect((await ask(env.control, { type: 'adapters.remove', id: 'gitlab' })).ok).to.equal(true);
    const page = await env.browser.openExtensionPage('ui/options.html');
    try {
      await page.waitFor(() => document.body.dataset.ready === 'true', undefined, { message: 'the settings page' });
      await chooseFile(page, '#adapters-import-file', { kind: 'tabwright-adapters', adapters: [GITLAB_MINE, '---\nid: broken\n---\n'] });
      await page.waitFor(() => document.querySelector('#adapters-result')?.textContent === 'Nothing was imported: fix the entries named below.', undefined, { message: 'the refusal' });
      expect(await page.evaluate(() => [...document.querySelectorAll('#adapters-errors li')].map((l) => /** @type {HTMLElement} */ (l).dataset.field))).to.include('adapter 2 name');
      expect((await ask(env.control, { type: 'adapters.list' })).data.adapters.filter((/** @type {any} */ a) => a.source === 'user')).to.deep.equal([]);
      await chooseFile(page, '#adapters-import-file', 'not json');
      await page.waitFor(() => document.querySelector('#adapters-result')?.textContent?.startsWith('That file is not JSON'), undefined, { message: 'the JSON message' });
      await chooseFile(page, '#adapters-import-file', exported.data);
      await page.waitFor(() => document.querySelector('#adapters-result')?.textContent === 'Imported 1.', undefined, { message: 'the import' });
      expect((await rows(page, 'adapters')).filter((r) => r.source === 'user').map((r) => r.key)).to.deep.equal(['user:gitlab']);
    } finally {
      await ask(env.control, { type: 'adapters.remove', id: 'gitlab' });
      await page.close();
    }
  });

  it('turns a bundled skill off for the panel, adds the user\'s own after naming a wrong field, and deletes it', async () => {
    const { env } = ctx;
    const page = await env.browser.openExtensionPage('ui/options.html');
    const first = /** @type {string} */ (SKILLS[0].file.replace(/\.md$/, ''));
    try {
      await page.waitFor(() => document.body.dataset.ready === 'true', undefined, { message: 'the settings page' });
      expect((await rows(page, 'skills')).length).to.be.at.least(SKILLS.length);
      await page.click(`#skills-list li[data-key="${first}"] input[type=checkbox]`);
      await page.waitFor(async (n) => (await browser.runtime.sendMessage({ type: 'skills.list' })).data.skills.find((/** @type {any} */ s) => s.name === n)?.disabled === true, first, { message: 'the skill to be off' });
      const tabs = await env.control.evaluate(() => browser.tabs.query({}));
      const anyTab = /** @type {number} */ (tabs[0].id);
      const forPanel = await ask(env.control, { type: 'skills.list', tabId: anyTab });
      expect(forPanel.data.skills.map((/** @type {any} */ s) => s.name)).to.not.include(first);

      await saveInEditor(page, 'skills', '---\nname: shout\ntitle: Shout\ndescription: Says it loudly.\nparameters:\n  - name: words\n    description: What to say\n---\nSay {{what}} loudly.\n');
      const fields = await page.waitFor(() => { const l = [...document.querySelectorAll('#skills-errors li')].map((x) => /** @type {HTMLElement} */ (x).dataset.field); return l.length ? l : null; }, undefined, { message: 'the field errors' });
      expect(fields).to.deep.equal(['prompt', 'parameters']);
      await saveInEditor(page, 'skills', '---\nname: shout\ntitle: Shout\ndescription: Says it loudly.\nparameters:\n  - name: words\n    description: What to say\n---\nSay {{words}} loudly.\n');
      await page.waitFor(() => document.querySelector('#skills-result')?.textContent === 'Saved.', undefined, { message: 'the save' });
      const mine = (await rows(page, 'skills')).find((r) => r.key === 'shout');
      expect(mine).to.deep.include({ source: 'user', on: true });
      await page.click('#skills-list li[data-key="shout"] .ghost.small:nth-of-type(3)');
      await page.waitFor(() => !document.querySelector('#skills-list li[data-key="shout"]'), undefined, { message: 'the skill to go' });
      expect(await page.text('#skills-result')).to.equal('Deleted Shout (/shout).');
    } finally {
      await ask(env.control, { type: 'skills.setEnabled', name: first, enabled: true });
      await ask(env.control, { type: 'skills.remove', name: 'shout' });
      await page.close();
    }
  });
});
