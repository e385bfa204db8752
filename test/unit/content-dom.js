// Loads the content layer into a jsdom window, the way the browser loads it into a page: the
// separately injected scripts (the page world's helpers, the page channel, the channel hold) as the
// classic scripts npm run sync joined, and the modules a test names joined into one script with
// their imports (scripts/content-join.mjs), each module's exports on window.Tabwright under the
// name the content layer's types give it (dom.js → tw.dom, page-events.js → tw.events).
import { JSDOM } from 'jsdom';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { joinForTest } from '../../scripts/content-join.mjs';

const tree = join(dirname(fileURLToPath(import.meta.url)), '../../src/chrome');
/** The scripts injected on their own: loaded as the browser loads them, joined. */
const SCRIPTS = new Set(['page-world.js', 'webmcp-world.js', 'page-channel.js', 'channel-hold.js']);
/** Modules whose name on Tabwright is not their file's name in camel case. */
const KEYS = /** @type {Record<string, string>} */ ({ 'content/src/page-events.js': 'events', 'agent/safety/secret-patterns.js': 'secretPatterns' });
/** Modules that add to tw.input, as the classic scripts did. */
const INPUT = ['content/src/input.js', 'content/src/pointer.js', 'content/src/keys.js'];
const EXPOSE = '__tabwrightModules';

/** @param {string} file a name as the tests give it @returns {string} the module's path in the tree */
const modulePath = (file) => (file === 'secret-patterns.js' ? 'agent/safety/secret-patterns.js' : `content/src/${file}`);
/** @param {string} path @returns {string} */
const keyOf = (path) => KEYS[path] ?? path.replace(/^.*\//, '').replace(/\.js$/, '').replace(/-(\w)/g, (_, c) => c.toUpperCase());

/** @type {Map<string, string>} joined scripts by their module list: joining reads the sources once per list */
const joined = new Map();
/** @param {string[]} paths @returns {string} */
function joinedFor(paths) {
  const key = paths.join(',');
  if (!joined.has(key)) joined.set(key, joinForTest(tree, paths, EXPOSE));
  return /** @type {string} */ (joined.get(key));
}

/**
 * jsdom computes no pseudo-element styles (and says so on its console at every call): a
 * pseudo-element has no generated content here.
 * @param {any} window
 */
function noPseudoStyles(window) {
  const computed = window.getComputedStyle.bind(window);
  window.getComputedStyle = (/** @type {Element} */ el, /** @type {string | undefined} */ pseudo) => (pseudo ? { content: 'none', getPropertyValue: () => '' } : computed(el));
}

/**
 * jsdom has no MessageChannel, which the input module's task scheduling takes at load: a timer
 * stands in (as test/unit/action-content.test.js shims it; a test may put its own in its setup).
 * @param {any} window
 */
function messageChannel(window) {
  window.MessageChannel ??= class {
    constructor() {
      /** @type {{ onmessage: null | (() => void) }} */
      this.port1 = { onmessage: null };
      this.port2 = { postMessage: () => setTimeout(() => this.port1.onmessage?.()) };
    }
  };
}

/** @param {any} window @param {string} text the joined modules */
function evalModules(window, text) {
  window.eval(text);
  const modules = window[EXPOSE];
  delete window[EXPOSE];
  const tw = window.Tabwright = window.Tabwright ?? { handlers: {} };
  for (const [path, ns] of Object.entries(modules)) {
    if (INPUT.includes(path)) tw.input = Object.assign(tw.input ?? {}, ns);
    else tw[keyOf(path)] = ns;
  }
}

/**
 * @param {string} html the body's HTML
 * @param {string[]} [files] what to load, in order: the injected scripts by their name, the modules
 *   by their file name in content/src/ (with what they import; secret-patterns.js is agent/safety's)
 * @param {(window: any) => void} [setup]
 * @returns {{ window: any, document: Document, tw: any }}
 */
export function loadContent(html, files = ['dom.js', 'roles.js', 'accname.js'], setup = undefined) {
  const dom = new JSDOM(`<!doctype html><html><head></head><body>${html}</body></html>`, { runScripts: 'outside-only', pretendToBeVisual: true, url: 'http://127.0.0.1/' });
  const { window } = dom;
  noPseudoStyles(window);
  messageChannel(window);
  setup?.(window);
  injectContent(window, files);
  return { window, document: window.document, tw: window.Tabwright };
}

/**
 * Loads the scripts and modules into a window as loadContent does (again, for a test of re-injection).
 * @param {any} window @param {string[]} files as loadContent's
 */
export function injectContent(window, files) {
  const modules = files.filter((f) => !SCRIPTS.has(f)).map(modulePath);
  // The page channel (document_start) comes before every isolated script that talks to the page world.
  const list = modules.length && !files.includes('page-channel.js') ? ['page-channel.js', ...files] : files;
  let loaded = false;
  for (const f of list) {
    if (SCRIPTS.has(f)) window.eval(readFileSync(join(tree, 'content', f), 'utf8'));
    else if (!loaded) { evalModules(window, joinedFor(modules)); loaded = true; }
  }
}
