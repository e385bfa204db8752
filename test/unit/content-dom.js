// Loads the classic content scripts into a jsdom window, the way the browser loads them into a
// page: each file evaluated in order in the window's global scope.
import { JSDOM } from 'jsdom';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const contentDir = join(dirname(fileURLToPath(import.meta.url)), '../../src/chrome/content');

/**
 * @param {string} html the body's HTML
 * @param {string[]} [files] content scripts to load, in manifest order
 * @param {(window: any) => void} [setup] runs before the scripts (shims for what jsdom lacks)
 * @returns {{ window: any, document: Document, tw: any }}
 */
export function loadContent(html, files = ['dom.js', 'roles.js', 'accname.js'], setup = undefined) {
  const dom = new JSDOM(`<!doctype html><html><head></head><body>${html}</body></html>`, { runScripts: 'outside-only', pretendToBeVisual: true, url: 'http://127.0.0.1/' });
  const { window } = dom;
  setup?.(window);
  // The secret rules, the budget, the ref rule, the select options and the line states come before the outline, as in the manifests: add them when a list leaves them out.
  const before = ['secret-patterns.js', 'secrets.js', 'outline-budget.js', 'ref-rule.js', 'select-options.js', 'line-states.js'].filter((f) => !files.includes(f));
  const withBudget = files.includes('outline.js') ? files.flatMap((f) => (f === 'outline.js' ? [...before, f] : [f])) : files;
  // The page channel (document_start) comes before every isolated script that talks to the page world.
  const list = withBudget.includes('page-channel.js') ? withBudget : withBudget.flatMap((f) => (f === 'dom.js' ? ['page-channel.js', f] : [f]));
  for (const f of list) window.eval(readFileSync(join(contentDir, f), 'utf8'));
  return { window, document: window.document, tw: window.Tabwright };
}
