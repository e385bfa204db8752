// Skills: the panel lists the skills for the page and runs one with a click (asking for its
// parameters first) or with a "/" command completed in the message box; the model sends exactly the
// skill's prompt, with only the skill's tools. The model saves a per-domain skill only after the user
// allowed it, and the next run on that site is told about it and reads it.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { ask, openPageWithPanel, useMockProvider, waitForIdle } from './harness/env.js';
import { firstUserText, lastToolResult } from '../fixtures/llm/conversation.js';
import { BUNDLED } from '../../src/chrome/bundled-skills/bundled.js';
import { createSkillCatalog } from '../../src/chrome/agent/skills/catalog.js';
import { fillSkill } from '../../src/chrome/agent/skills/skill-format.js';

const general = createSkillCatalog({ bundled: BUNDLED }).forUrl('http://127.0.0.1/').filter((s) => !s.match.length);
/** A bundled skill for any page whose parameters all have defaults, and one needing a value. */
const withDefaults = general.find((s) => s.parameters.length && s.parameters.every((p) => p.default !== undefined) && s.mode === 'ask');
const plain = general.find((s) => s !== withDefaults && s.mode === 'ask' && s.parameters.every((p) => p.default !== undefined));

/** The user message a run of a skill sends (the skill's prompt; guidance may follow it). @param {any} body */
const userText = (body) => firstUserText(body);

scenario('skills', (ctx) => {
  before(async () => {
    await useMockProvider(ctx.env);
    if (!withDefaults || !plain) throw new Error('the bundled skills lack an Ask skill with default parameters');
  });

  it('lists the page\'s skills as buttons and runs one after its parameter form, with the skill\'s prompt and tools', async () => {
    const { env } = ctx;
    const skill = /** @type {import('../../src/chrome/types/knowledge').Skill} */ (withDefaults);
    env.llm.script([{ text: 'Here is the summary.' }]);
    const { page, panel } = await openPageWithPanel(env, 'article.html');
    try {
      await panel.waitFor(() => document.querySelectorAll('#skills .chip').length > 0, undefined, { message: 'the skill buttons' });
      const chips = await panel.evaluate(() => [...document.querySelectorAll('#skills .chip')].map((b) => /** @type {HTMLElement} */ (b).dataset.skill));
      expect(chips).to.include(skill.name);
      await panel.click(`#skills .chip[data-skill="${skill.name}"]`);
      await panel.waitFor((n) => !(/** @type {HTMLElement} */ (document.querySelector('#skill-params'))).hidden && document.querySelector('#skill-params')?.getAttribute('data-skill') === n, skill.name, { message: 'the parameter form' });
      const inputs = await panel.evaluate(() => [...document.querySelectorAll('#skill-params input')].map((i) => ({ name: /** @type {HTMLInputElement} */ (i).name, placeholder: /** @type {HTMLInputElement} */ (i).placeholder })));
      expect(inputs).to.deep.equal(skill.parameters.map((p) => ({ name: p.name, placeholder: p.default })));
      await panel.click('#skill-params button[type=submit]');
      const items = await waitForIdle(panel);
      expect(env.llm.problems).to.deep.equal([]);
      const filled = fillSkill(skill, {});
      if (!filled.ok) throw new Error('fill');
      const body = env.llm.requests[0].body;
      expect(userText(body).startsWith(filled.text)).to.equal(true);
      // A skill that names its tools is offered those (that its mode allows) and nothing else.
      const offered = body.tools.map((/** @type {any} */ t) => t.function.name);
      if (skill.tools.length) for (const t of offered) expect([...skill.tools, 'done', 'clarify'], t).to.include(t);
      expect(items[0].text.startsWith(`/${skill.name}`)).to.equal(true);
      expect(items.at(-1)?.text).to.equal('Here is the summary.');
      expect(await panel.evaluate(() => (/** @type {HTMLElement} */ (document.querySelector('#skill-params'))).hidden)).to.equal(true);
    } finally {
      await page.close();
      await panel.close();
    }
  });

  it('completes a "/" command in the message box and runs it; an unknown one says so and sends nothing', async () => {
    const { env } = ctx;
    const skill = /** @type {import('../../src/chrome/types/knowledge').Skill} */ (plain);
    env.llm.script([{ text: 'Done with the command.' }]);
    const { page, panel } = await openPageWithPanel(env, 'article.html');
    try {
      await panel.waitFor(() => document.querySelectorAll('#skills .chip').length > 0, undefined, { message: 'the skills to load' });
      await panel.evaluate(() => document.querySelector('input[name=mode][value=ask]')?.dispatchEvent(new MouseEvent('click')));
      await panel.fill('#prompt', '/nope-not-a-skill');
      await panel.press('Escape');
      await panel.click('#send');
      await panel.waitFor(() => document.querySelector('#status')?.textContent?.includes('/nope-not-a-skill'), undefined, { message: 'the unknown-command message' });
      expect(env.llm.requests).to.have.length(0);

      const prefix = skill.name.slice(0, 3);
      await panel.fill('#prompt', `/${prefix}`);
      const options = /** @type {string[]} */ (await panel.waitFor(() => {
        const m = /** @type {HTMLElement} */ (document.querySelector('#slash'));
        return !m.hidden && [...m.querySelectorAll('[role=option]')].map((o) => /** @type {HTMLElement} */ (o).dataset.skill ?? '');
      }, undefined, { message: 'the completion list' }));
      expect(options).to.include(skill.name);
      expect(options.every((o) => o.includes(prefix))).to.equal(true);
      // Arrow down to the skill, Tab completes it, Enter runs it (its parameters have defaults... but
      // the form is offered when it has any; Enter in the form runs it).
      for (let i = 0; i < options.indexOf(skill.name); i++) await panel.press('ArrowDown');
      await panel.press('Tab');
      expect(await panel.evaluate(() => (/** @type {HTMLTextAreaElement} */ (document.querySelector('#prompt'))).value)).to.equal(`/${skill.name} `);
      await panel.press('Enter');
      if (skill.parameters.length) {
        await panel.waitFor(() => !(/** @type {HTMLElement} */ (document.querySelector('#skill-params'))).hidden, undefined, { message: 'the parameter form' });
        await panel.press('Enter');
      }
      await waitForIdle(panel);
      expect(env.llm.problems).to.deep.equal([]);
      const filled = fillSkill(skill, {});
      if (!filled.ok) throw new Error('fill');
      expect(userText(env.llm.requests[0].body).startsWith(filled.text)).to.equal(true);
      expect(await panel.evaluate(() => (/** @type {HTMLTextAreaElement} */ (document.querySelector('#prompt'))).value)).to.equal('');
    } finally {
      await page.close();
      await panel.close();
    }
  });

  it('the model saves a skill for this site only after the user allows it, and the next run is told about it and reads it', async () => {
    const { env } = ctx;
    const name = `star-project-${ctx.kind}`;
    const prompt = 'On the project page, click Star once, then check that the button says Unstar.';
    env.llm.script([
      { toolCalls: [{ name: 'save_skill', args: { name, title: 'Star the project', description: 'Stars the open project.', prompt } }] },
      (req) => {
        if (!lastToolResult(req.body).startsWith('Saved the skill')) throw new Error(`save failed: ${lastToolResult(req.body)}`);
        return { text: 'I saved it.' };
      },
    ]);
    const { page, panel, url } = await openPageWithPanel(env, 'counter.html');
    const host = new URL(url).hostname;
    try {
      await ask(env.control, { type: 'skills.remove', name });
      await panel.evaluate(() => (/** @type {HTMLElement} */ (document.querySelector('input[name=mode][value=act]'))).click());
      await panel.fill('#prompt', 'Remember how to star a project here.');
      await panel.click('#send');
      const card = /** @type {{ rule: string, details: string[] }} */ (await panel.waitFor(() => {
        const c = /** @type {HTMLElement | null} */ (document.querySelector('.card.confirm.pending'));
        return c && { rule: c.dataset.rule, details: [...c.querySelectorAll('dt')].map((d) => `${d.textContent}=${d.nextElementSibling?.textContent}`) };
      }, undefined, { message: 'the confirmation card' }));
      expect(card.rule).to.equal('skill_save');
      expect(card.details).to.deep.equal(['title=Star the project', `used on=${host}`, `instructions=${prompt}`]);
      // Nothing is saved while the card waits.
      const before = await ask(env.control, { type: 'skills.list' });
      expect(before.ok && before.data.skills.map((/** @type {any} */ s) => s.name)).to.not.include(name);
      await panel.click('.card.confirm .confirm-yes');
      await panel.waitFor(() => document.body.dataset.running === 'false', undefined, { message: 'the run to end' });
      expect(env.llm.problems).to.deep.equal([]);
      const after = await ask(env.control, { type: 'skills.list' });
      const saved = after.ok && after.data.skills.find((/** @type {any} */ s) => s.name === name);
      expect(saved).to.deep.include({ source: 'agent', mode: 'act', match: [host], body: prompt });

      // The next run on this site: told in its first message, it reads the skill.
      env.llm.script([
        (req) => {
          const first = firstUserText(req.body);
          if (!first.includes(`- ${name}: Stars the open project.`)) throw new Error(`the skill was not listed: ${first.slice(-400)}`);
          return { toolCalls: [{ name: 'skills', args: { action: 'read', name } }] };
        },
        (req) => {
          if (!lastToolResult(req.body).includes(prompt)) throw new Error(`the skill was not read: ${lastToolResult(req.body)}`);
          return { text: 'I know how to star it.' };
        },
      ]);
      await panel.click('#new-chat');
      await panel.waitFor(() => document.querySelectorAll('#log > *').length === 0, undefined, { message: 'a new chat' });
      await panel.fill('#prompt', 'Star this project.');
      await panel.click('#send');
      await panel.waitFor(() => Boolean(document.querySelector('#log .marker.guidance')), undefined, { message: 'the guidance line' });
      await panel.waitFor(() => [...document.querySelectorAll('.msg.assistant')].some((m) => m.textContent?.includes('I know how to star it.')), undefined, { message: 'the answer' });
      expect(env.llm.problems).to.deep.equal([]);
      expect(await panel.evaluate(() => document.querySelector('#log .marker.guidance summary')?.textContent)).to.equal(`Skills saved for ${host}`);
    } finally {
      await ask(env.control, { type: 'skills.remove', name });
      await page.close();
      await panel.close();
    }
  });
});
