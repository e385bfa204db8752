// Joins the content layer's ES modules (content/src/) into the classic scripts the manifests load:
// content scripts cannot be modules, and an extension loads without a build step, so the joined
// files are committed beside their sources and `npm run parity` fails when one is stale.
//
// What a source may say (anything else at the start of a line beginning with import or export is
// refused, so nothing is silently joined wrong):
//   import * as NS from './x.js';     import { a, b as c } from './x.js';     import './x.js';
//   export function f / async function / class / const / let      export { a, b as c };
// Each module becomes one function evaluated once, after what it imports (depth first, in import
// order), with its exports on a namespace object declared before all of them: a cycle works when
// its members are used at call time through a namespace import (a named import from a module not
// evaluated yet is refused). An exported let is read through a getter, so its value stays live.
// Nothing but the script's own wrapper reaches the global scope.
import { readFileSync } from 'node:fs';
import { join, dirname, relative, resolve, sep } from 'node:path';

/**
 * The loaded scripts and the module each starts from (paths relative to a tree). `skip` is the
 * condition under which the script does nothing: it was injected into this frame already.
 * @type {readonly { out: string, entry: string, skip?: string }[]}
 */
export const CONTENT_SCRIPTS = [
  { out: 'content/page-world.js', entry: 'content/src/page-world.js' },
  { out: 'content/webmcp-world.js', entry: 'content/src/webmcp-world.js' },
  { out: 'content/page-channel.js', entry: 'content/src/page-channel.js', skip: 'globalThis.Tabwright?.pageChannel' },
  { out: 'content/channel-hold.js', entry: 'content/src/channel-hold.js', skip: '!globalThis.Tabwright?.pageChannel || globalThis.Tabwright.channelHold' },
  { out: 'content/main.js', entry: 'content/src/main.js', skip: 'globalThis.Tabwright?.listening' },
  { out: 'content/reader.js', entry: 'content/src/reader.js', skip: "globalThis.Tabwright?.handlers['content.readable']" },
];

const IMPORT = /^import\s+(?:\*\s+as\s+(\w+)\s+from\s+|\{([^}]*)\}\s+from\s+)?'([^']+)';\s*$/;
const EXPORT_DECL = /^export\s+((?:async\s+)?function\*?|class|const|let)\s+(\w+)/;
const EXPORT_LIST = /^export\s+\{([^}]*)\};?\s*$/;

/**
 * @typedef {{ path: string, body: string[], deps: { path: string, ns?: string, names?: [string, string][] }[], exports: [string, string][], lets: Set<string> }} Module
 */

/** @param {string} list "a, b as c" @returns {[string, string][]} [local, exported] pairs */
function pairs(list) {
  return list.split(',').map((s) => s.trim()).filter(Boolean).map((s) => {
    const m = /^(\w+)(?:\s+as\s+(\w+))?$/.exec(s);
    if (!m) throw new Error(`cannot read "${s}"`);
    return /** @type {[string, string]} */ ([m[1], m[2] ?? m[1]]);
  });
}

/**
 * Reads one module's imports and exports; its body keeps every other line.
 * @param {string} tree @param {string} path relative to the tree @returns {Module}
 */
function readModule(tree, path) {
  const lines = readFileSync(join(tree, path), 'utf8').split('\n');
  /** @type {Module} */
  const mod = { path, body: [], deps: [], exports: [], lets: new Set() };
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i];
    // An export list may run over several lines.
    if (/^export\s+\{[^}]*$/.test(line)) {
      const first = i;
      while (i + 1 < lines.length && !line.includes('}')) line += ` ${lines[++i].trim()}`;
      for (let k = first; k < i; k++) mod.body.push('');
    }
    const where = `${path}:${i + 1}`;
    if (!/^(import|export)\b/.test(line)) { mod.body.push(line); continue; }
    const imp = IMPORT.exec(line);
    const decl = EXPORT_DECL.exec(line);
    const list = EXPORT_LIST.exec(line);
    if (imp) {
      const dep = relative('.', join(dirname(path), imp[3])).split(sep).join('/');
      if (!imp[3].startsWith('.')) throw new Error(`${where}: only relative imports can be joined`);
      mod.deps.push({ path: dep, ns: imp[1], names: imp[2] === undefined ? undefined : pairs(imp[2]) });
      mod.body.push('');
    } else if (decl) {
      mod.exports.push([decl[2], decl[2]]);
      if (decl[1] === 'let') mod.lets.add(decl[2]);
      mod.body.push(line.replace(/^export\s+/, ''));
    } else if (list) {
      mod.exports.push(...pairs(list[1]));
      mod.body.push('');
    } else throw new Error(`${where}: an import or export the joiner does not read: ${line}`);
  }
  // An exported let declared on its own line and listed in an export list is live too.
  for (const line of mod.body) {
    const m = /^let\s+(\w+)/.exec(line);
    if (m && mod.exports.some(([local]) => local === m[1])) mod.lets.add(m[1]);
  }
  return mod;
}

/** @param {string} path @returns {string} the namespace's name in the joined script */
const nsName = (path) => `$${path.replace(/\.js$/, '').replace(/^content\/src\//, '').replace(/[^A-Za-z0-9]+/g, '_')}`;

/**
 * Every module the entries reach, each after what it imports.
 * @param {string} tree @param {string[]} entries @returns {Module[]}
 */
export function moduleOrder(tree, entries) {
  /** @type {Map<string, Module>} */
  const read = new Map();
  /** @type {Module[]} */
  const order = [];
  /** @type {Set<string>} */
  const visiting = new Set();
  /** @param {string} path */
  function visit(path) {
    if (read.has(path) || visiting.has(path)) return;
    visiting.add(path);
    const mod = readModule(tree, path);
    for (const d of mod.deps) visit(d.path);
    visiting.delete(path);
    read.set(path, mod);
    order.push(mod);
  }
  for (const e of entries) visit(e);
  return order;
}

/** @param {Module} mod @param {Set<string>} done modules already evaluated @returns {string[]} */
function moduleText(mod, done) {
  const head = [];
  for (const d of mod.deps) {
    if (d.ns) head.push(`const ${d.ns} = ${nsName(d.path)};`);
    if (d.names?.length) {
      if (!done.has(d.path)) throw new Error(`${mod.path}: named import from ${d.path}, which imports it back: use a namespace import`);
      head.push(`const { ${d.names.map(([a, b]) => (a === b ? a : `${a}: ${b}`)).join(', ')} } = ${nsName(d.path)};`);
    }
  }
  const props = mod.exports.map(([local, as]) => (mod.lets.has(local) ? `get ${as}() { return ${local}; }` : local === as ? local : `${as}: ${local}`));
  const body = [...mod.body];
  while (body.length && body.at(-1) === '') body.pop();
  return [
    `// ---- ${mod.path}`,
    '(($exports) => {',
    ...head,
    ...body,
    `Object.defineProperties($exports, Object.getOwnPropertyDescriptors({ ${props.join(', ')} }));`,
    `})(${nsName(mod.path)});`,
  ];
}

/**
 * One classic script: the entry and what it imports, each module once, in dependency order.
 * @param {string} tree a tree's root @param {{ out: string, entry: string, skip?: string }} script
 * @param {{ expose?: string }} [opts] expose: a global to put every module's namespace on, by path (tests, benches)
 * @returns {string}
 */
export function joinScript(tree, script, opts = {}) {
  const order = moduleOrder(tree, [script.entry]);
  return joinModules(order, `${script.entry} and what it imports`, script.skip, opts.expose);
}

/**
 * @param {Module[]} order @param {string} from what the header names @param {string} [skip] @param {string} [expose]
 * @returns {string}
 */
export function joinModules(order, from, skip, expose) {
  const done = new Set();
  const out = [
    `// GENERATED by npm run sync (scripts/content-join.mjs) from ${from}: edit those, not this file.`,
    // Not strict, as the classic scripts were: a wrapper the page world calls with no receiver
    // keeps running as it did (bundlers that wrap ES modules as one function do the same).
    '(() => {',
  ];
  if (skip) out.push(`if (${skip}) return;`);
  out.push(`const ${order.map((m) => `${nsName(m.path)} = {}`).join(', ')};`);
  for (const mod of order) {
    out.push(...moduleText(mod, done));
    done.add(mod.path);
  }
  if (expose) out.push(`globalThis.${expose} = { ${order.map((m) => `${JSON.stringify(m.path)}: ${nsName(m.path)}`).join(', ')} };`);
  out.push('})();', '');
  return out.join('\n');
}

/**
 * A script joined from several entries at once, every module's namespace on globalThis[expose]:
 * how unit tests and benches load a part of the content layer into a page.
 * @param {string} tree @param {string[]} entries @param {string} expose @returns {string}
 */
export function joinForTest(tree, entries, expose) {
  return joinModules(moduleOrder(tree, entries), entries.join(', '), undefined, expose);
}

/** @param {string} tree @returns {{ out: string, text: string }[]} every loaded script, joined */
export function joinAll(tree) {
  return CONTENT_SCRIPTS.map((s) => ({ out: s.out, text: joinScript(resolve(tree), s) }));
}
