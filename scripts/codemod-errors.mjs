// Turns hand-written error sentences into catalogued errors (src/chrome/agent/error-codes.js), and
// says where it could not. Re-run it after merging code that still writes its own sentences:
//
//   node scripts/codemod-errors.mjs [--dry] [--skip prefix,prefix] [paths...]
//
// paths default to src/chrome, src/bridge and src/runner. What it rewrites, where the code is a
// catalog code written as a literal:
//   { ok: false, code: 'X', message: M, retryable: true }  ->  fail('X', D, { retryable: true })
//   { code: 'X', message: M }                              ->  errorOf('X', D)
//   { type: 'error', code: 'X', message: M, ... }          ->  { type: 'error', ...errorOf('X', D), ... }
//   fail('X', M) and new SomeError('X', M) (SomeError extends CatalogError)  ->  the same with D
// D, the specifics, comes from scripts/codemod-errors.details (keyed by the code and M's source, so a
// literal that moved to another file is still found); it is nothing when M is the catalog's own
// sentence, and M itself when M writes no text (a variable, err.message). Any other M is printed as a
// site to convert by hand: --skeleton prints its entry for the details file, to fill in and re-run.
// The content layer's modules (src/chrome/content/src) are scanned like the rest; the classic scripts npm run
// sync joins from them (src/chrome/content/*.js) are generated and skipped.
import { readFileSync, writeFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, dirname, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as acorn from 'acorn';
import MagicString from 'magic-string';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CATALOG = join(ROOT, 'src/chrome/agent/error-codes.js');
const DETAILS_FILE = join(ROOT, 'scripts/codemod-errors.details');
/** Files that hold a catalog. */
const CATALOGS = ['src/chrome/agent/error-codes.js', 'src/chrome/providers/errors.js', 'src/chrome/vendor/'];
/**
 * Functions (or methods) that take a code and its specifics and word the message with say():
 * fail/errorOf/say themselves, the MCP link's drop(core, code, detail), the bridge's and the policy rules'
 * refuse and the organization rules' refusal.
 */
const WORDING_CALLS = ['fail', 'errorOf', 'say', 'drop', 'refuse', 'refusal'];
/** The joined content scripts: generated from content/src/ by npm run sync, never edited. @param {string} rel */
const isJoined = (rel) => rel.startsWith('src/chrome/content/') && !rel.startsWith('src/chrome/content/src/');

/** @typedef {{ file: string, line: number, code: string, message: string, source: string, why: string }} Site */

/** @param {string} src */
export function normalize(src) {
  return src.replace(/\s+/g, ' ').trim();
}

/**
 * The details file: an entry is a line `CODE message-source` and the line under it `=> detail-source`
 * (empty: the sentence alone); lines starting with # are comments.
 * @param {string} text @returns {Map<string, string>}
 */
export function parseDetails(text) {
  const out = new Map();
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line || line.startsWith('#') || line.startsWith('=>')) continue;
    const next = (lines[i + 1] ?? '').trim();
    if (!next.startsWith('=>')) throw new Error(`${DETAILS_FILE}:${i + 2}: expected "=> detail" under the entry`);
    out.set(normalize(line), next.slice(2).trim());
  }
  return out;
}

const DETAILS = parseDetails(readFileSync(DETAILS_FILE, 'utf8'));
/** The details already written: a call that carries one is converted. */
const WRITTEN = new Set([...DETAILS.values()].filter(Boolean));

/** @param {any} node @returns {string | null} a property's name */
function keyName(node) {
  if (node.type !== 'Property' || node.computed) return null;
  return node.key.type === 'Identifier' ? node.key.name : typeof node.key.value === 'string' ? node.key.value : null;
}

/** @param {any} node */
function isString(node) {
  return (node.type === 'Literal' && typeof node.value === 'string') || node.type === 'TemplateLiteral';
}

/** @param {any} node does the expression hold a string literal anywhere (a hand-written sentence)? */
function holdsText(node) {
  if (!node || typeof node !== 'object') return false;
  if (isString(node)) return true;
  if (node.type === 'CallExpression' && node.callee.type === 'Identifier' && node.callee.name === 't') return false;
  return Object.entries(node).some(([k, v]) => k !== 'loc' && (Array.isArray(v) ? v.some(holdsText) : v && typeof v === 'object' && typeof v.type === 'string' && holdsText(v)));
}

/**
 * Does a literal read as sentences of its own (ends with a full stop, or holds two)? Specifics do not:
 * "tab 12", "the file is not JSON".
 * @param {any} node
 */
function looksLikeSentence(node) {
  const text = node.type === 'Literal' ? String(node.value)
    : node.type === 'TemplateLiteral' ? node.quasis.map((/** @type {any} */ q) => q.value.cooked).join('…') : '';
  return /[.!?]\s*$|[.!?]\s+[A-Z]/.test(text);
}

/** @param {any} node is it a localized string (the panel's t()), which the catalog does not word? */
function isLocalized(node) {
  let found = false;
  walk(node, (n) => { if (n.type === 'CallExpression' && n.callee.type === 'Identifier' && n.callee.name === 't') found = true; });
  return found;
}

/**
 * The specifics for a message, or why there are none to be found.
 * @param {string} code @param {any} msg the message's node @param {string} src the file's text
 * @param {Record<string, string>} catalog
 * @returns {{ detail: string | null } | { why: string }} detail null: the sentence alone
 */
export function detailFor(code, msg, src, catalog) {
  const text = normalize(src.slice(msg.start, msg.end));
  const key = `${code} ${text}`;
  if (DETAILS.has(key)) return { detail: DETAILS.get(key) || null };
  if (WRITTEN.has(text)) return { detail: text };
  if (msg.type === 'Literal' && msg.value === catalog[code]) return { detail: null };
  if (msg.type === 'MemberExpression' && /^ERROR_CODES\b/.test(text)) return { detail: null };
  if (!holdsText(msg)) return { detail: text };
  return { why: 'a hand-written sentence: give its specifics in scripts/codemod-errors.details' };
}

/**
 * Finds the error sites of one file and, unless dry, rewrites those it can.
 * @param {string} file @param {string} src @param {{ catalog: Record<string, string>, errorClasses: Set<string> }} ctx
 * @returns {{ out: string, sites: Site[], used: Set<string> }}
 */
export function convertSource(file, src, ctx) {
  const ast = acorn.parse(src, { ecmaVersion: 'latest', sourceType: 'module', locations: true });
  // A file with its own function of a helper's name gets the helper under another name.
  const own = new Set(ast.body.flatMap((/** @type {any} */ n) => n.type === 'FunctionDeclaration' ? [n.id.name]
    : n.type === 'VariableDeclaration' ? n.declarations.map((/** @type {any} */ d) => d.id.name) : []));
  const c = { ...ctx, alias: (/** @type {string} */ h) => (own.has(h) ? `catalog${h[0].toUpperCase()}${h.slice(1)}` : h) };
  const ms = new MagicString(src);
  /** @type {Site[]} */ const sites = [];
  const used = new Set();
  /** @param {any} node @param {string} code @param {any} msg @param {string} why */
  const leave = (node, code, msg, why) => {
    const source = normalize(src.slice(msg.start, msg.end));
    sites.push({ file, line: node.loc.start.line, code, message: source.slice(0, 140), source, why });
  };
  walk(ast, (node) => {
    if (node.type === 'ObjectExpression') objectSite(node, src, ms, c, used, leave);
    else if (node.type === 'CallExpression' || node.type === 'NewExpression') callSite(file, node, src, ms, c, leave);
  });
  if (used.size) addImport(join(ROOT, file), src, ast, ms, used, c.alias);
  return { out: ms.toString(), sites, used };
}

/** @param {any} node @param {(n: any) => void} visit */
function walk(node, visit) {
  if (!node || typeof node.type !== 'string') return;
  visit(node);
  for (const [k, v] of Object.entries(node)) {
    if (k === 'loc') continue;
    if (Array.isArray(v)) v.forEach((c) => walk(c, visit));
    else if (v && typeof v === 'object') walk(v, visit);
  }
}

/** @param {any} prop @param {string} src */
function argText(prop, src) {
  return src.slice(prop.start, prop.end);
}

/**
 * `{ ok: false, code: 'X', message: M, ... }` and `{ code: 'X', message: M, ... }`.
 * @param {any} node @param {string} src @param {MagicString} ms @param {{ catalog: Record<string, string>, alias: (h: string) => string }} ctx
 * @param {Set<string>} used @param {(node: any, code: string, msg: any, why: string) => void} leave
 */
function objectSite(node, src, ms, ctx, used, leave) {
  const props = new Map(node.properties.map((/** @type {any} */ p) => [keyName(p), p]));
  const code = props.get('code'); const msg = props.get('message');
  if (!code || !msg || code.value.type !== 'Literal' || typeof code.value.value !== 'string') return;
  const name = code.value.value;
  if (isLocalized(msg.value) || !/^[A-Z][A-Z0-9_]+$/.test(name)) return;
  if (!Object.hasOwn(ctx.catalog, name)) {
    // A notice is not an error: it tells what Tabwright did, and has no catalog entry to act on.
    const type = props.get('type');
    if (type?.value.type === 'Literal' && type.value.value === 'notice') return;
    return leave(node, name, msg.value, 'a code missing from the catalog: add it to agent/error-codes.js');
  }
  const found = detailFor(name, msg.value, src, ctx.catalog);
  if ('why' in found) return leave(node, name, msg.value, found.why);
  const ok = props.get('ok'); const retry = props.get('retryable');
  const failed = ok && ok.value.type === 'Literal' && ok.value.value === false;
  const retryable = retry && retry.value.type === 'Literal' && retry.value.value === true;
  const rest = node.properties.filter((/** @type {any} */ p) => ![code, msg, failed ? ok : null, retryable ? retry : null].includes(p));
  const d = found.detail === null ? '' : `, ${found.detail}`;
  const helper = failed ? 'fail' : 'errorOf';
  const args = `'${name}'${retryable ? `${d || ', undefined'}, { retryable: true }` : d}`;
  const call = `${ctx.alias(helper)}(${args})`;
  used.add(helper);
  if (!rest.length) { overwriteCast(node, src, ms, call); return; }
  const kept = node.properties.map((/** @type {any} */ p) => (p === code ? `...${call}` : rest.includes(p) ? argText(p, src) : null)).filter(Boolean);
  ms.overwrite(node.start, node.end, `{ ${kept.join(', ')} }`);
}

/**
 * Replaces an object, with the `/** @type {const} *\/ (…)` cast around it if any: the helpers' return
 * types are already narrow, and a cast on a call does not compile.
 * @param {any} node @param {string} src @param {MagicString} ms @param {string} text
 */
function overwriteCast(node, src, ms, text) {
  const before = /\/\*\*\s*@type\s*\{const\}\s*\*\/\s*\(\s*$/.exec(src.slice(Math.max(0, node.start - 40), node.start));
  const after = /^\s*\)/.exec(src.slice(node.end));
  if (before && after) ms.overwrite(node.start - before[0].length, node.end + after[0].length, text);
  else ms.overwrite(node.start, node.end, text);
}

/**
 * `fail('X', M)` and `new SomeError('X', M)` where SomeError words its message from the catalog; a
 * ProviderError worded outside the provider catalog is left for a person.
 * @param {string} file @param {any} node @param {string} src @param {MagicString} ms @param {{ catalog: Record<string, string>, errorClasses: Set<string> }} ctx
 * @param {(node: any, code: string, msg: any, why: string) => void} leave
 */
function callSite(file, node, src, ms, ctx, leave) {
  const callee = node.callee.type === 'Identifier' ? node.callee.name
    : node.callee.type === 'MemberExpression' && !node.callee.computed ? node.callee.property.name : null;
  const at = node.arguments.findIndex((/** @type {any} */ a) => a.type === 'Literal' && typeof a.value === 'string' && Object.hasOwn(ctx.catalog, a.value));
  if (!callee || at < 0 || node.arguments.length < at + 2) return;
  const code = node.arguments[at]; const msg = node.arguments[at + 1];
  if (callee === 'ProviderError' && code.type === 'Literal' && !/providers\/errors\.js$/.test(file)) {
    return leave(node, String(code.value), msg, 'a provider sentence outside providers/errors.js: word it in a function there');
  }
  if (code.type !== 'Literal' || typeof code.value !== 'string' || !Object.hasOwn(ctx.catalog, code.value)) return;
  const known = node.type === 'CallExpression' ? WORDING_CALLS.includes(callee) : ctx.errorClasses.has(callee);
  if (!known && !looksLikeSentence(msg)) return;
  if (node.type === 'NewExpression' && !known && /Error$/.test(callee)) {
    return leave(node, code.value, msg, `${callee} does not extend CatalogError (agent/error-codes.js): make it, then re-run`);
  }
  if (!known) return leave(node, code.value, msg, `${callee}() is given a sentence with a code: have it word the message with say(code, detail) and list it in WORDING_CALLS`);
  if (msg.type === 'Identifier' && msg.name === 'undefined') return;
  const found = detailFor(code.value, msg, src, ctx.catalog);
  // Given to a wording call, text that does not read as sentences is already the specifics.
  if ('why' in found && !looksLikeSentence(msg)) return;
  if ('why' in found) return leave(node, code.value, msg, found.why);
  if (normalize(argText(msg, src)) === found.detail) return;
  if (found.detail === null && node.arguments.length === at + 2) ms.remove(code.end, msg.end);
  else ms.overwrite(msg.start, msg.end, found.detail ?? 'undefined');
}

/**
 * Adds the helpers used to the file's import from the catalog, or a new import after the last one.
 * @param {string} file @param {string} src @param {any} ast @param {MagicString} ms @param {Set<string>} used
 * @param {(h: string) => string} alias
 */
function addImport(file, src, ast, ms, used, alias) {
  const spec = (/** @type {string} */ h) => (alias(h) === h ? h : `${h} as ${alias(h)}`);
  const imports = ast.body.filter((/** @type {any} */ n) => n.type === 'ImportDeclaration');
  const existing = imports.find((/** @type {any} */ n) => /\/error-codes\.js$/.test(n.source.value));
  if (existing) {
    const have = new Set(existing.specifiers.map((/** @type {any} */ s) => s.local.name));
    const add = [...used].filter((u) => !have.has(alias(u))).map(spec);
    if (!add.length) return;
    const names = [...existing.specifiers.map((/** @type {any} */ s) => src.slice(s.start, s.end)), ...add];
    ms.overwrite(existing.start, existing.end, `import { ${names.join(', ')} } from '${existing.source.value}';`);
    return;
  }
  let rel = relative(dirname(file), CATALOG).split(sep).join('/');
  if (!rel.startsWith('.')) rel = `./${rel}`;
  const line = `import { ${[...used].sort().map(spec).join(', ')} } from '${rel}';\n`;
  if (imports.length) ms.appendRight(imports[imports.length - 1].end, `\n${line.trimEnd()}`);
  else ms.prepend(line);
}

/** @param {string} dir @returns {string[]} */
function jsFiles(dir) {
  if (statSync(dir).isFile()) return dir.endsWith('.js') ? [dir] : [];
  return readdirSync(dir).flatMap((n) => jsFiles(join(dir, n)));
}

/** The classes whose constructor words its message from the catalog: they extend CatalogError. */
function catalogErrorClasses(/** @type {string[]} */ files) {
  const names = new Set(['CatalogError']);
  for (const f of files) for (const m of readFileSync(f, 'utf8').matchAll(/class (\w+) extends CatalogError\b/g)) names.add(m[1]);
  return names;
}

/**
 * Scans (and unless dry, rewrites) the files; returns the sites left to convert by hand.
 * @param {{ paths?: string[], skip?: string[], dry?: boolean, classic?: boolean }} [opts] classic: kept for old callers; the content modules are always scanned
 */
export async function run(opts = {}) {
  const { ERROR_CODES } = await import(pathToFileURL(CATALOG).href);
  const paths = (opts.paths?.length ? opts.paths : ['src/chrome', 'src/bridge', 'src/runner']).map((p) => join(ROOT, p));
  const all = paths.flatMap(jsFiles);
  const skip = [...CATALOGS, ...(opts.skip ?? [])];
  const rel = (/** @type {string} */ f) => relative(ROOT, f).split(sep).join('/');
  const files = all.filter((f) => !isJoined(rel(f)) && !skip.some((s) => rel(f).startsWith(s)));
  const ctx = { catalog: ERROR_CODES, errorClasses: catalogErrorClasses(all) };
  /** @type {Site[]} */ const left = [];
  /** @type {string[]} */ const convertible = [];
  for (const f of files) {
    const src = readFileSync(f, 'utf8');
    const rel = relative(ROOT, f).split(sep).join('/');
    const { out, sites } = convertSource(rel, src, ctx);
    left.push(...sites);
    if (out !== src) { convertible.push(rel); if (!opts.dry) writeFileSync(f, out); }
  }
  return { left, changed: convertible.length, convertible, files: files.length };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const skeleton = args.includes('--skeleton');
  const dry = args.includes('--dry') || skeleton;
  const at = args.indexOf('--skip');
  const skip = at >= 0 ? args[at + 1].split(',') : [];
  const paths = args.filter((a, i) => !a.startsWith('--') && (at < 0 || i !== at + 1));
  const { left, changed, files } = await run({ paths, skip, dry });
  if (skeleton) for (const s of left) console.log(`# ${s.file}:${s.line}\n${s.code} ${s.source}\n=> ?\n`);
  else for (const s of left) console.log(`${s.file}:${s.line} ${s.code} ${s.message}\n    ${s.why}`);
  console.log(`${files} files scanned, ${changed} ${dry ? 'would change' : 'changed'}, ${left.length} sites left to convert by hand.`);
  if (!dry && changed) console.log('Now run: npm run sync && npm run typecheck');
}
