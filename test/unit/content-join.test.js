// The content layer's joiner (scripts/content-join.mjs): modules in a temporary tree joined into one
// classic script and run in a fresh global (node:vm), as a browser runs a content script.
import { expect } from 'chai';
import { mkdtemp, mkdir, writeFile, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { joinScript, joinForTest, moduleOrder, joinAll, CONTENT_SCRIPTS } from '../../scripts/content-join.mjs';

/** @param {Record<string, string>} files path → source @returns {Promise<string>} the tree */
async function tree(files) {
  const dir = await mkdtemp(join(tmpdir(), 'tw-join-'));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

/** @param {string} script @param {Record<string, unknown>} [globals] @returns {any} the global it ran in */
function run(script, globals = {}) {
  const g = vm.createContext({ ...globals });
  vm.runInContext(script, g);
  return g;
}

describe('content join (scripts/content-join.mjs)', () => {
  it('runs each module once, after what it imports, with named, renamed and namespace imports, and leaks no global', async () => {
    const dir = await tree({
      'content/src/a.js': "import { twice as double } from './b.js';\nimport * as C from './c.js';\nglobalThis.out = [double(2), C.three, C.count()];\n",
      'content/src/b.js': "import { count } from './c.js';\nexport function twice(n) { return n * 2 + count() * 0; }\n",
      'content/src/c.js': "let runs = 0;\nruns++;\nglobalThis.log.push('c');\nconst three = 3;\nfunction count() { return runs; }\nexport { three, count };\n",
    });
    const g = run(joinScript(dir, { out: 'content/a.js', entry: 'content/src/a.js' }), { log: [] });
    expect(g.out).to.deep.equal([4, 3, 1]);
    expect(g.log).to.deep.equal(['c']);
    expect(Object.keys(g).sort()).to.deep.equal(['log', 'out']);
    expect(moduleOrder(dir, ['content/src/a.js']).map((m) => m.path)).to.deep.equal(['content/src/c.js', 'content/src/b.js', 'content/src/a.js']);
  });

  it('lets a cycle through a namespace import work at call time, keeps an exported let live, and refuses a named import from a module not run yet', async () => {
    const dir = await tree({
      'content/src/x.js': "import * as Y from './y.js';\nexport let n = 1;\nexport function bump() { n++; return Y.read(); }\n",
      'content/src/y.js': "import * as X from './x.js';\nexport function read() { return X.n; }\n",
      'content/src/main.js': "import { bump } from './x.js';\nglobalThis.seen = [bump(), bump()];\n",
      'content/src/bad.js': "import { read } from './y2.js';\nexport function f() { return read(); }\n",
      'content/src/y2.js': "import { f } from './bad.js';\nexport function read() { return f; }\n",
    });
    expect(run(joinScript(dir, { out: 'content/m.js', entry: 'content/src/main.js' })).seen).to.deep.equal([2, 3]);
    expect(() => joinScript(dir, { out: 'content/b.js', entry: 'content/src/bad.js' })).to.throw(/named import from content\/src\/bad\.js/);
  });

  it('refuses what it does not read, and skips the whole script where it ran already', async () => {
    const dir = await tree({
      'content/src/d.js': 'export default 1;\n',
      'content/src/e.js': "import x from 'somewhere';\n",
      'content/src/f.js': 'globalThis.runs = (globalThis.runs ?? 0) + 1;\nexport {};\n',
    });
    expect(() => joinScript(dir, { out: 'content/d.js', entry: 'content/src/d.js' })).to.throw(/content\/src\/d\.js:1/);
    expect(() => joinScript(dir, { out: 'content/e.js', entry: 'content/src/e.js' })).to.throw(/content\/src\/e\.js:1/);
    const script = joinScript(dir, { out: 'content/f.js', entry: 'content/src/f.js', skip: 'globalThis.runs' });
    const g = vm.createContext({});
    vm.runInContext(script, g);
    vm.runInContext(script, g);
    expect(g.runs).to.equal(1);
    expect(run(joinForTest(dir, ['content/src/f.js'], 'mods')).mods).to.have.keys(['content/src/f.js']);
  });

  it('the committed content scripts of both trees are what their modules join into', async () => {
    const src = join(dirname(fileURLToPath(import.meta.url)), '../../src');
    for (const t of ['chrome', 'firefox']) {
      const joined = joinAll(join(src, t));
      expect(joined.map((s) => s.out)).to.deep.equal(CONTENT_SCRIPTS.map((s) => s.out));
      for (const s of joined) expect(await readFile(join(src, t, s.out), 'utf8'), `${t}/${s.out}`).to.equal(s.text);
    }
  });
});
