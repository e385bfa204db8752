// Both manifests wire the panel's shortcut and load the on-page indicator before the message entry.
import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { moduleOrder } from '../../scripts/content-join.mjs';

const src = join(dirname(fileURLToPath(import.meta.url)), '../../src');
const manifest = async (/** @type {string} */ tree) => JSON.parse(await readFile(join(src, tree, 'manifest.json'), 'utf8'));

describe('manifests', () => {
  it('open the panel with a keyboard shortcut: the action in Chrome (side panel behaviour), the sidebar in Firefox', async () => {
    const chrome = await manifest('chrome');
    const firefox = await manifest('firefox');
    expect(chrome.commands._execute_action.suggested_key.default).to.equal('Alt+Shift+Y');
    expect(firefox.commands._execute_sidebar_action.suggested_key.default).to.equal('Alt+Shift+Y');
    expect(chrome.commands._execute_action.description).to.equal('__MSG_commandOpenPanel__');
    expect(firefox.commands._execute_sidebar_action.description).to.equal('__MSG_commandOpenPanel__');
  });

  it('load content/indicator.js in both trees, before content/main.js (joined into the script the manifests load, in the order the modules run)', async () => {
    for (const tree of ['chrome', 'firefox']) {
      const entry = (await manifest(tree)).content_scripts.find((/** @type {{ js: string[] }} */ e) => e.js.includes('content/main.js'));
      expect(entry.js, tree).to.deep.equal(['vendor/browser-polyfill.js', 'content/main.js']);
      const js = moduleOrder(join(src, tree), ['content/src/main.js']).map((m) => m.path.replace('content/src/', 'content/'));
      expect(js, tree).to.include('content/indicator.js');
      expect(js.indexOf('content/indicator.js'), tree).to.be.lessThan(js.indexOf('content/main.js'));
    }
  });
  it('load the channel hold in every frame at document_start, after the key hand-over, where the page-world helper runs (about:blank, data: and blob: frames too)', async () => {
    for (const tree of ['chrome', 'firefox']) {
      const entries = (await manifest(tree)).content_scripts;
      const at = (/** @type {string} */ file) => entries.findIndex((/** @type {{ js: string[] }} */ e) => e.js.includes(file));
      const [world, channel, hold] = ['content/page-world.js', 'content/page-channel.js', 'content/channel-hold.js'].map(at);
      expect(world, tree).to.be.below(channel);
      expect(channel, tree).to.be.below(hold);
      for (const i of [world, channel, hold]) {
        expect(entries[i], `${tree}: ${entries[i].js}`).to.include({ run_at: 'document_start', all_frames: true, match_about_blank: true, match_origin_as_fallback: true });
      }
      expect(entries[hold].world, tree).to.equal(undefined);
    }
  });
});
