// Accessibility: axe-core runs on every extension page, in light and in dark, in both
// browsers, and finds nothing: one h1 per page, every control inside a landmark, names, contrast.
// axe is injected by the test only (node_modules/axe-core); the extension ships none of it.
import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { scenario } from './harness/scenario.js';
import { ask, openPageWithPanel, sendFromPanel, useMockProvider, waitForIdle } from './harness/env.js';
import { findRef, lastToolResult } from '../fixtures/llm/conversation.js';

/** @import { Driver } from './harness/driver.js' */

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const UI = fileURLToPath(new URL('../../src/chrome/ui/', import.meta.url));

/**
 * The extension pages that need no set-up beyond opening them. A new page is one more line here;
 * the trace viewer joins by itself once src/chrome/ui/traces.html exists.
 */
const PAGES = [
  'ui/options.html',
  'ui/jobs.html',
  'ui/welcome.html',
  ...(existsSync(`${UI}traces.html`) ? ['ui/traces.html'] : []),
  'ui/workflows.html',
];

/** Each page and state is set up once and audited in light, then in dark (harness/driver.js colorScheme). */
const SCHEMES = /** @type {const} */ (['light', 'dark']);

/** WCAG 2.0/2.1/2.2 A and AA, plus the landmark and heading rules from axe's best practices. */
const AXE_OPTIONS = {
  runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
  // aria-dialog-name is a best practice in axe, but an unnamed dialog (the confirmation card) is read
  // out as "alert dialog" with nothing else, so it is held to it here.
  rules: { 'landmark-one-main': { enabled: true }, region: { enabled: true }, 'page-has-heading-one': { enabled: true }, 'aria-dialog-name': { enabled: true } },
  resultTypes: ['violations'],
};
const MUST_RUN = ['landmark-one-main', 'region', 'page-has-heading-one', 'color-contrast', 'button-name', 'label', 'aria-dialog-name'];

/**
 * Run axe on what the page shows now; returns the violations as readable lines, the h1 count and
 * which rules ran. @param {Driver} d
 */
async function axeOnce(d) {
  if (!(await d.evaluate(() => 'axe' in window))) {
    // Evaluated through the debugging protocol (CDP, WebDriver BiDi), so the extension's CSP does not apply.
    await /** @type {any} */ (d.page).evaluate(`${AXE}\n;void 0`);
  }
  return d.evaluate(async (opts) => {
    const r = await /** @type {any} */ (window).axe.run(document, opts);
    /** @param {any[]} list */
    const ids = (list) => list.map((x) => x.id);
    return {
      dark: matchMedia('(prefers-color-scheme: dark)').matches,
      h1: document.querySelectorAll('h1, [role=heading][aria-level="1"]').length,
      ran: [...ids(r.violations), ...ids(r.passes), ...ids(r.incomplete), ...ids(r.inapplicable)],
      violations: r.violations.map((/** @type {any} */ v) => `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((/** @type {any} */ n) => `      ${n.target.join(' ')}  ${String(n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 220)}`).join('\n')}`),
    };
  }, AXE_OPTIONS);
}

/**
 * axe in light, then in dark (one state audited in both: harness/driver.js colorScheme), the page
 * back in the system's scheme after; fails with every violation's rule, impact, help and targets.
 * @param {Driver} d @param {string} label
 */
async function audit(d, label) {
  try {
    for (const scheme of SCHEMES) {
      await d.colorScheme(scheme);
      const r = await axeOnce(d);
      expect(r.dark, `${label}: the ${scheme} scheme is in force`).to.equal(scheme === 'dark');
      expect(r.ran, `${label}: axe ran the rules`).to.include.members(MUST_RUN);
      const problems = [...(r.h1 === 1 ? [] : [`${r.h1} h1 elements (one expected)`]), ...r.violations];
      expect(problems, `${d.kind}, ${scheme}, ${label}:\n  ${problems.join('\n  ')}\n`).to.deep.equal([]);
    }
  } finally {
    await d.colorScheme(null).catch(() => {});
  }
}

scenario('accessibility', (ctx) => {
  // Every state is set up once and audited in light, then in dark.
  const pass = SCHEMES.join(' and ');
  for (const path of PAGES) {
    it(`${path} has no axe violations (${pass})`, async () => {
      const { env } = ctx;
      await useMockProvider(env);
      /** @type {string | null} */
      let jobId = null;
      if (path === 'ui/jobs.html') {
        // A job in the list, so its row, its state and its buttons are audited too; weekly, so it does not run now.
        const created = await ask(env.control, { type: 'jobs.create', job: { title: 'Weekly report', prompt: 'Summarise the article.', target: { type: 'url', url: `${env.site.url}/article.html` }, schedule: { kind: 'interval', minutes: 10_080 } } });
        expect(created.ok, JSON.stringify(created)).to.equal(true);
        jobId = created.ok ? /** @type {any} */ (created.data).id : null;
      }
      const page = await env.browser.openExtensionPage(path);
      try {
        if (jobId) await page.waitFor(() => document.querySelectorAll('#jobs > li').length > 0, undefined, { message: 'the job in the list' });
        if (path === 'ui/options.html') await page.waitFor(() => document.body.dataset.ready === 'true', undefined, { message: 'the settings page' });
        if (path === 'ui/workflows.html') {
          // Never a blank page: what a workflow is, and with none saved, how to make one.
          const shown = await page.waitFor(() => document.body.dataset.ready !== 'true' ? null : {
            intro: /** @type {HTMLElement} */ (document.querySelector('#list-view > .hint')).offsetHeight > 0,
            none: document.querySelectorAll('#workflows > li').length === 0,
            empty: /** @type {HTMLElement} */ (document.querySelector('#empty')).offsetHeight > 0 ? document.querySelector('#empty')?.textContent : null,
          }, undefined, { message: 'the workflows page' });
          expect(shown?.intro, 'the intro shows').to.equal(true);
          if (shown?.none) expect(shown.empty).to.contain('Save as workflow');
          else expect(shown?.empty).to.equal(null);
        }
        // What folds away is audited too: every disclosure open.
        await page.evaluate(() => { for (const d of document.querySelectorAll('details')) /** @type {HTMLDetailsElement} */ (d).open = true; });
        await audit(page, path);
      } finally {
        await page.close();
        if (jobId) await ask(env.control, { type: 'jobs.delete', id: jobId });
      }
    });
  }

  it(`ui/panel.html: the first-run card has no axe violations (${pass})`, async () => {
    const { env } = ctx;
    await useMockProvider(env);
    const set = await ask(env.control, { type: 'settings.set', settings: { onboarded: false } });
    expect(set.ok).to.equal(true);
    const { page, panel } = await openPageWithPanel(env, 'article.html');
    try {
      await panel.waitFor(() => {
        const w = /** @type {HTMLElement} */ (document.querySelector('#welcome'));
        return !w.hidden && w.dataset.detected;
      }, undefined, { message: 'the first-run card with its detection result' });
      await audit(panel, 'panel, first run');
    } finally {
      await ask(env.control, { type: 'settings.set', settings: { onboarded: true } });
      await page.close();
      await panel.close();
    }
  });

  it(`ui/panel.html: a plan waiting for approval, a question from the agent and an error have no axe violations (${pass})`, async () => {
    const { env } = ctx;
    await useMockProvider(env);
    env.llm.script([
      { text: 'Two steps.', toolCalls: [{ name: 'propose_plan', args: { steps: ['Open the cart', 'Place the order'] } }] },
      { toolCalls: [{ name: 'clarify', args: { question: 'Which size of poster?' } }] },
      { text: 'Fine.' },
      // A key the provider refuses: the run ends with an error card (401 is not retried).
      { error: { status: 401 } },
    ]);
    const { page, panel } = await openPageWithPanel(env, 'checkout.html');
    try {
      await sendFromPanel(panel, 'Buy what is in my cart', 'plan');
      await panel.waitFor(() => Boolean(document.querySelector('.card.plan.pending textarea')), undefined, { message: 'the plan card' });
      // The run waits for the person, and the status line says so (not "Working…").
      const waiting = 'Waiting for you: answer the card above.';
      expect(await panel.waitFor((w) => document.querySelector('#status')?.textContent === w, waiting, { message: 'the waiting status' })).to.equal(true);
      await audit(panel, 'panel with a plan waiting for approval');
      await panel.click('.card.plan .plan-reject');
      await waitForIdle(panel);
      await sendFromPanel(panel, 'Buy what is in my cart', 'act');
      await panel.waitFor(() => Boolean(document.querySelector('.card.clarify.pending input')), undefined, { message: 'the question card' });
      expect(await panel.waitFor((w) => document.querySelector('#status')?.textContent === w, waiting, { message: 'the waiting status' })).to.equal(true);
      await audit(panel, 'panel with a question from the agent');
      await panel.fill('.card.clarify .clarify-input', 'A3');
      await panel.click('.card.clarify .clarify-send');
      await waitForIdle(panel);
      await sendFromPanel(panel, 'And the receipt?', 'ask');
      await panel.waitFor(() => Boolean(document.querySelector('#log .card.error')), undefined, { message: 'the error card' });
      await waitForIdle(panel);
      // The error card with the answered question and the declined plan above it.
      await audit(panel, 'panel with an error, an answered question and a declined plan');
      expect(env.llm.problems).to.deep.equal([]);
    } finally {
      await page.close();
      await panel.close();
    }
  });

  it(`ui/panel.html: the person's turn at a challenge ("Your turn") has no axe violations (${pass})`, async () => {
    const { env } = ctx;
    await useMockProvider(env);
    env.llm.script([{ toolCalls: [{ name: 'snapshot', args: {} }] }]);
    const { page, panel } = await openPageWithPanel(env, 'gate/shop');
    try {
      await sendFromPanel(panel, 'What does the harbor lamp cost?', 'act');
      await panel.waitFor(() => Boolean(document.querySelector('.card.handoff.pending .handoff-done')), undefined, { message: 'the Your turn card' });
      const waiting = 'Waiting for you: answer the card above.';
      expect(await panel.waitFor((w) => document.querySelector('#status')?.textContent === w, waiting, { message: 'the waiting status' })).to.equal(true);
      await audit(panel, 'panel with the person\'s turn at a challenge');
      await panel.click('.card.handoff .handoff-cancel');
      await waitForIdle(panel);
      expect(env.llm.problems).to.deep.equal([]);
    } finally {
      await page.close();
      await panel.close();
    }
  });

  it(`ui/panel.html: chat, a confirmation, a finished run and History have no axe violations (${pass})`, async () => {
    const { env } = ctx;
    await useMockProvider(env);
    // snapshot, click "Place order" (held for confirmation), then done: tool cards, a card, an answer.
    env.llm.script([
      { toolCalls: [{ name: 'snapshot', args: {} }] },
      (req) => ({ toolCalls: [{ name: 'click', args: { ref: findRef(lastToolResult(req.body), 'button', 'Place order') } }] }),
      { toolCalls: [{ name: 'done', args: { summary: 'Ordered the **poster**. The page says "Thank you! Order #1001 is placed."' } }] },
    ]);
    const { page, panel } = await openPageWithPanel(env, 'checkout.html');
    try {
      await audit(panel, 'panel, empty chat');

      // A side panel's own width: the header folds its actions into the "more" menu.
      await panel.viewport(400, 760);
      await panel.click('#more');
      await panel.waitFor(() => !(/** @type {HTMLElement} */ (document.querySelector('#more-menu')).hidden), undefined, { message: 'the more menu' });
      await audit(panel, 'panel at 400 px with the more menu open');
      await panel.press('Escape');
      await panel.viewport(1000, 760);

      await sendFromPanel(panel, 'Buy what is in my cart', 'act');
      await panel.waitFor(() => Boolean(document.querySelector('.card.confirm.pending')), undefined, { message: 'the confirmation card' });
      await audit(panel, 'panel with a pending confirmation and Stop');

      await panel.click('.card.confirm .confirm-yes');
      await waitForIdle(panel);
      expect(env.llm.problems).to.deep.equal([]);
      await panel.evaluate(() => { for (const d of document.querySelectorAll('details.tool')) /** @type {HTMLDetailsElement} */ (d).open = true; });
      await audit(panel, 'panel after a finished run (tool cards opened, answer)');

      await panel.click('#history-toggle');
      await panel.waitFor(() => document.querySelectorAll('#history .runs .run-link').length > 0, undefined, { message: 'the History list' });
      await audit(panel, 'panel History');

      await panel.click('#history .runs .run-link');
      await panel.waitFor(() => !(/** @type {HTMLElement} */ (document.querySelector('#history .run')).hidden) && document.querySelector('#history .run .items')?.childElementCount, undefined, { message: 'a run from History' });
      await audit(panel, 'panel History, one run');
    } finally {
      await page.close();
      await panel.close();
    }
  });
});
