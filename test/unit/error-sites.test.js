// Error sentences live once, in the catalog (src/chrome/agent/error-codes.js; provider errors in
// providers/errors.js): a call site names the code and gives only the specifics. This scans the code
// with the codemod that converts the sites (scripts/codemod-errors.mjs, in dry mode) and fails on a
// hand-written sentence beside a catalog code outside the files listed below.
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { run, convertSource } from '../../scripts/codemod-errors.mjs';
import { ERROR_CODES, errorOf, fail, say, CatalogError } from '../../src/chrome/agent/error-codes.js';

/**
 * Files that still write their own sentences: code merged from a branch that wrote its own is listed
 * here until it is converted (node scripts/codemod-errors.mjs), then leaves the list. It only shrinks,
 * and is empty now.
 * @type {string[]}
 */
const NOT_YET_CONVERTED = [];

/** @param {string} file */
const tolerated = (file) => NOT_YET_CONVERTED.some((p) => file.startsWith(p));

describe('error sentences come from the catalog', function () {
  this.timeout(60_000);
  /** @type {Awaited<ReturnType<typeof run>>} */
  let scan;
  before(async () => { scan = await run({ paths: ['src/chrome', 'src/bridge', 'src/runner'], dry: true, classic: true }); });

  it('no file outside the list writes its own sentence beside a catalog code', () => {
    const offending = [...scan.left.map((s) => `${s.file}:${s.line} ${s.code} ${s.message}`), ...scan.convertible.map((f) => `${f}: convertible, run node scripts/codemod-errors.mjs`)]
      .filter((line) => !tolerated(line.split(':')[0]));
    expect(offending, 'hand-written error sentences').to.deep.equal([]);
  });

  it('the list of files not yet converted only names files that still have sites', () => {
    const files = [...scan.left.map((s) => s.file), ...scan.convertible];
    const stale = NOT_YET_CONVERTED.filter((p) => !files.some((f) => f.startsWith(p)));
    expect(stale, 'converted: remove from NOT_YET_CONVERTED').to.deep.equal([]);
  });

  it('a detail written as a literal is specifics, not a sentence of its own', () => {
    // A detail ends without a full stop ("tab 12", "the file is not JSON"); a sentence is the catalog's job.
    const sentence = /\b(?:fail|errorOf|say|Error)\('([A-Z_]+)', '(?:[^'\\]|\\.)*\.'/g;
    const found = [];
    for (const dir of ['src/chrome', 'src/bridge', 'src/runner']) {
      for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
        const rel = `${dir}/${file}`;
        if (!rel.endsWith('.js') || tolerated(rel) || rel.includes('/vendor/')) continue;
        for (const m of readFileSync(rel, 'utf8').matchAll(sentence)) found.push(`${rel}: ${m[0]}`);
      }
    }
    expect(found).to.deep.equal([]);
  });

  it('words every error as the catalog sentence, then the specifics', () => {
    expect(say('TAB_GONE')).to.equal(ERROR_CODES.TAB_GONE);
    expect(say('NO_SUCH_TAB', 'tab 12')).to.equal(`${ERROR_CODES.NO_SUCH_TAB} (tab 12)`);
    expect(say('NO_SUCH_TAB', say('NO_SUCH_TAB', 'tab 12')), 'a worded message passed on').to.equal(`${ERROR_CODES.NO_SUCH_TAB} (tab 12)`);
    expect(fail('FETCH_FAILED', 'https://a.test/: timeout', { retryable: true })).to.deep.equal({ ok: false, code: 'FETCH_FAILED', message: `${ERROR_CODES.FETCH_FAILED} (https://a.test/: timeout)`, retryable: true });
    expect(errorOf('ABORTED')).to.deep.equal({ code: 'ABORTED', message: ERROR_CODES.ABORTED });
    const err = new CatalogError('RECORDING_BUSY', 'of another tab');
    expect([err.code, err.message, err.detail]).to.deep.equal(['RECORDING_BUSY', `${ERROR_CODES.RECORDING_BUSY} (of another tab)`, 'of another tab']);
    expect(CatalogError.passOn('NOT_RECORDING', 'already worded').message).to.equal('already worded');
  });

  it('the codemod rewrites the literal forms and leaves a hand-written sentence for a person', () => {
    const src = [
      "import { x } from './x.js';",
      "export const a = () => ({ ok: false, code: 'TAB_GONE', message: 'The tab was closed.' });",
      "export const b = (e) => ({ ok: false, code: 'INTERNAL_ERROR', message: e.message, retryable: true });",
      "export const c = () => /** @type {const} */ ({ ok: false, code: 'NO_HISTORY', message: `There is no page to go ${which} to.` });",
      "export const d = () => ({ type: 'error', code: 'ABORTED', message: 'Stopped.' });",
      "export const e = () => ({ ok: false, code: 'NO_SUCH_TAB', message: 'A sentence nobody catalogued.' });",
    ].join('\n');
    const { out, sites } = convertSource('src/chrome/service/example.js', src, { catalog: ERROR_CODES, errorClasses: new Set(['CatalogError']) });
    expect(out).to.include("import { errorOf, fail } from '../agent/error-codes.js';");
    expect(out).to.include("export const a = () => (fail('TAB_GONE'));");
    expect(out).to.include("export const b = (e) => (fail('INTERNAL_ERROR', e.message, { retryable: true }));");
    expect(out).to.include("export const c = () => fail('NO_HISTORY', which);");
    expect(out).to.include("export const d = () => ({ type: 'error', ...errorOf('ABORTED') });");
    expect(sites.map((s) => [s.line, s.code])).to.deep.equal([[6, 'NO_SUCH_TAB']]);
  });
});
