// npm run package: the same sources give the same bytes, whatever the files' times on disk; the
// version comes from package.json; what the browsers never load stays out.
import { expect } from 'chai';
import { mkdtemp, mkdir, writeFile, utimes, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { buildPackage } from '../../scripts/package.mjs';

/** A small tree shaped like an extension's. */
async function tree() {
  const dir = await mkdtemp(join(tmpdir(), 'tw-pkg-test-'));
  await mkdir(join(dir, 'vendor'));
  await mkdir(join(dir, 'types'));
  await mkdir(join(dir, 'platform'));
  await writeFile(join(dir, 'manifest.json'), JSON.stringify({ manifest_version: 3, name: 'T', version: '0.0.1' }));
  for (const f of ['vendor/browser-polyfill.js', 'vendor/idb.js', 'vendor/pdf.mjs', 'background.js']) await writeFile(join(dir, f), `// ${f}\n`);
  await writeFile(join(dir, 'types/core.d.ts'), 'export {};\n');
  await writeFile(join(dir, 'vendor/idb.d.ts'), 'export {};\n');
  await writeFile(join(dir, 'platform/tsconfig.json'), '{}\n');
  return dir;
}

/** The names and the manifest inside a zip. @param {Buffer} bytes */
function contents(bytes) {
  const py = 'import sys,zipfile,io,json; z=zipfile.ZipFile(io.BytesIO(sys.stdin.buffer.read())); print(json.dumps({"names": z.namelist(), "manifest": json.loads(z.read("manifest.json"))}))';
  return JSON.parse(execFileSync('python3', ['-c', py], { input: bytes }).toString());
}

describe('npm run package', () => {
  it('builds the same bytes from the same sources, whatever the times on disk', async () => {
    const dir = await tree();
    try {
      const mtime = new Date('2026-01-01T00:00:00Z');
      const first = await buildPackage(dir, '1.2.3', mtime);
      await utimes(join(dir, 'background.js'), new Date(), new Date());
      const second = await buildPackage(dir, '1.2.3', mtime);
      expect(second.bytes.equals(first.bytes)).to.equal(true);
      await writeFile(join(dir, 'background.js'), '// changed\n');
      expect((await buildPackage(dir, '1.2.3', mtime)).bytes.equals(first.bytes)).to.equal(false);
    } finally { await rm(dir, { recursive: true, force: true }); }
  });

  it("takes the version from package.json, leaves type declarations and tsconfig out, and refuses a tree without npm install's vendor files", async () => {
    const dir = await tree();
    try {
      const built = await buildPackage(dir, '1.2.3', new Date('2026-01-01T00:00:00Z'));
      const { names, manifest } = contents(built.bytes);
      expect(manifest.version).to.equal('1.2.3');
      expect(names).to.deep.equal(['background.js', 'manifest.json', 'vendor/browser-polyfill.js', 'vendor/idb.js', 'vendor/pdf.mjs']);
      await rm(join(dir, 'vendor/idb.js'));
      let error = '';
      try { await buildPackage(dir, '1.2.3', new Date()); } catch (err) { error = String(err); }
      expect(error).to.contain('vendor/idb.js is missing: run npm install first');
    } finally { await rm(dir, { recursive: true, force: true }); }
  });
});
