// The duplicated trees must stay identical outside the tree-specific paths.
import { expect } from 'chai';
import { mkdtemp, cp, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findDrift } from '../../scripts/sync.mjs';
import { isTreeSpecific } from '../../scripts/trees.mjs';

describe('tree parity', () => {
  it('src/chrome and src/firefox hold identical shared files', async () => {
    expect(await findDrift()).to.deep.equal([]);
  });
  it('detects a drifted, a missing and an extra file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tw-parity-'));
    try {
      await cp('src/chrome/agent', join(dir, 'a/agent'), { recursive: true });
      await cp('src/chrome/agent', join(dir, 'b/agent'), { recursive: true });
      await writeFile(join(dir, 'b/agent/loop.js'), '// changed\n');
      await rm(join(dir, 'b/agent/prompts.js'));
      await writeFile(join(dir, 'b/agent/extra.js'), '');
      const drift = await findDrift(join(dir, 'a'), join(dir, 'b'));
      expect(drift).to.deep.include.members([
        { file: 'agent/loop.js', problem: 'differs' },
        { file: 'agent/prompts.js', problem: 'missing in src/firefox' },
        { file: 'agent/extra.js', problem: 'only in src/firefox' },
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
  it('lists the platform layer as tree-specific and nothing shared', () => {
    for (const p of ['manifest.json', 'background.js', 'platform/index.js', 'cdp/client.js', 'offscreen/x.html', 'vendor/idb.js']) expect(isTreeSpecific(p), p).to.equal(true);
    for (const p of ['agent/loop.js', 'ui/panel.js', 'content/outline.js', 'providers/openai.js']) expect(isTreeSpecific(p), p).to.equal(false);
  });
});
