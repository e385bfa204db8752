// Every extension page fits a narrow window. At 380 px (Chrome's side panel) and 240 px
// (Firefox's narrowest sidebar) the settings, jobs, welcome, trace viewer and workflows pages never
// scroll sideways: scrollWidth ≤ clientWidth for the document (the panel itself: panel-layout.e2e.js).
// The workflows page lists one whose start address and name have no place to break (such a row once
// made the page 269 px wide at 240 px).
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { ask } from './harness/env.js';
import { trackerWorkflowExport } from '../fixtures/apps/tracker-workflow.js';

const PAGES = ['ui/options.html', 'ui/jobs.html', 'ui/welcome.html', 'ui/traces.html', 'ui/workflows.html'];

scenario('every extension page fits a narrow window', (ctx) => {
  for (const path of PAGES) {
    it(`${path} at 380 and 240 px: nothing scrolls sideways`, async () => {
      const long = path === 'ui/workflows.html' ? { ...trackerWorkflowExport('http://127.0.0.1:9/an-address-with-no-place-to-break-0123456789abcdefghijklmnopqrstuvwxyz').workflows[0], id: 'wf-pages-fit', name: 'File-an-issue-in-the-tracker-with-a-name-that-never-breaks' } : null;
      if (long) expect((await ask(ctx.env.control, { type: 'workflows.import', data: long })).ok).to.equal(true);
      const page = await ctx.env.browser.openExtensionPage(path);
      try {
        if (long) await page.waitFor(() => document.querySelectorAll('#workflows > li').length > 0, undefined, { message: 'the workflow in the list' });
        for (const width of [380, 240]) {
          await page.viewport(width, 800);
          await page.waitFor((w) => innerWidth === w, width, { message: `width ${width}` });
          // Open every disclosure, so what hides inside is measured too.
          const wide = await page.evaluate(() => {
            for (const d of document.querySelectorAll('details')) /** @type {HTMLDetailsElement} */ (d).open = true;
            const d = document.documentElement;
            const over = [...document.querySelectorAll('body *')].filter((el) => {
              const r = el.getBoundingClientRect();
              return r.width > 0 && r.right > innerWidth + 1 && getComputedStyle(el).position !== 'fixed' && !el.closest('pre, table, .sr-only, [hidden]');
            }).slice(0, 5).map((el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className && typeof el.className === 'string' ? `.${el.className.split(' ')[0]}` : ''} (${Math.round(el.getBoundingClientRect().right)})`);
            return { fits: d.scrollWidth <= d.clientWidth + 1, scrollWidth: d.scrollWidth, clientWidth: d.clientWidth, over };
          });
          expect(wide.fits, `${path} at ${width}px: ${wide.scrollWidth} > ${wide.clientWidth}; ${wide.over.join(', ')}`).to.equal(true);
        }
      } finally {
        await page.close();
        if (long) await ask(ctx.env.control, { type: 'workflows.delete', id: long.id });
      }
    });
  }
});
