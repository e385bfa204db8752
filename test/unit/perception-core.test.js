// The browser-free side of perception: refs, outline diffs, frame splicing, frame routing, and
// which tools the model is offered.
import { expect } from 'chai';
import { parseRef, formatRef } from '../../src/chrome/agent/refs.js';
import { diffOutlines, renderDiff } from '../../src/chrome/agent/outline-diff.js';
import { spliceFrames } from '../../src/chrome/agent/frame-outline.js';
import { toolsForMode, findTool } from '../../src/chrome/agent/tools/index.js';
import { outlineChanges, pageOutline } from '../../src/chrome/agent/tools/perception.js';
import { fakeBrowser } from './fake-browser.js';

describe('refs (agent/refs.js)', () => {
  it('parses top-frame and frame-qualified refs and formats them back', () => {
    expect(parseRef('e12')).to.deep.equal({ frameId: 0, n: 12 });
    expect(parseRef('f7:e3')).to.deep.equal({ frameId: 7, n: 3 });
    expect(parseRef(' e5 ')).to.deep.equal({ frameId: 0, n: 5 });
    expect(parseRef('ref_12')).to.equal(null);
    expect(parseRef('f:e1')).to.equal(null);
    expect(formatRef(0, 12)).to.equal('e12');
    expect(formatRef(7, 3)).to.equal('f7:e3');
  });
});

describe('outline diffs (agent/outline-diff.js)', () => {
  const before = ['- main', '  - checkbox "Agree" [e1]', '  - button "Send" [disabled] [e2]', '  Nothing yet', '  - link "Gone" [e3]'].join('\n');
  const after = ['- main', '  - checkbox "Agree" [checked] [e1]', '  - button "Send" [e2]', '  Thanks!', '  - dialog "Confirm"', '    - button "OK" [e4]'].join('\n');

  it('matches lines by ref and plain lines by text', () => {
    const d = diffOutlines(before, after);
    expect(d.changed).to.deep.equal(['  - checkbox "Agree" [checked] [e1]', '  - button "Send" [e2]']);
    expect(d.added).to.deep.equal(['  Thanks!', '  - dialog "Confirm"', '    - button "OK" [e4]']);
    expect(d.removed).to.deep.equal(['  Nothing yet', '  - link "Gone" [e3]']);
    expect(d.dialog).to.equal(true);
  });

  it('renders a short text, and null when nothing changed', () => {
    const text = renderDiff(diffOutlines(before, after));
    expect(text).to.match(/^A dialog opened\.\nOutline changes: 3 added, 2 removed, 2 changed\.\n~ - checkbox "Agree" \[checked\] \[e1\]/);
    expect(text).to.contain('+     - button "OK" [e4]');
    expect(text).to.contain('- - link "Gone" [e3]');
    expect(renderDiff(diffOutlines(before, before))).to.equal(null);
  });

  it('takes a ref only from a role line, and its last one', () => {
    const d = diffOutlines('Say [e1] here\n- button "x [e1]" [e2]', 'Say [e1] here\n- button "x [e1]" [pressed] [e2]');
    expect(d).to.deep.include({ added: [], removed: [], changed: ['- button "x [e1]" [pressed] [e2]'] });
  });

  it('counts repeated plain lines', () => {
    const d = diffOutlines('a\na\nb', 'a\nb\nb');
    expect(d.added).to.deep.equal(['b']);
    expect(d.removed).to.deep.equal(['a']);
  });
});

describe('frame splicing (agent/frame-outline.js)', () => {
  it('indents each cross-origin frame under its placeholder, nested frames too', async () => {
    /** @type {Record<number, string>} */
    const frames = { 7: 'Inside\n- button "Go" [f7:e1]\n- iframe "Ad" [frame=9]', 9: '- link "Buy" [f9:e1]' };
    const out = await spliceFrames('- main\n  - iframe "Pay" [frame=7]\n  - button "Top" [e1]', async (id) => frames[id] ?? null);
    expect(out).to.equal(['- main', '  - iframe "Pay" [frame=7]', '    Inside', '    - button "Go" [f7:e1]', '    - iframe "Ad" [frame=9]', '      - link "Buy" [f9:e1]', '  - button "Top" [e1]'].join('\n'));
  });

  it('says when a frame cannot be read', async () => {
    expect(await spliceFrames('- iframe "X" [frame=3]', async () => null)).to.equal('- iframe "X" [frame=3]\n  (this frame could not be read)');
  });
});

describe('perception tools', () => {
  it('never offers describe_ref to the model, in either mode, but the runner finds it', () => {
    for (const mode of /** @type {const} */ (['ask', 'act'])) expect(toolsForMode(mode).map((t) => t.name)).to.not.include('describe_ref');
    expect(findTool('describe_ref')?.runnerOnly).to.equal(true);
    expect(toolsForMode('ask').map((t) => t.name)).to.include.members(['snapshot', 'read_page', 'page_capabilities', 'extract_data']);
  });

  it('introduces frames, then splices each cross-origin frame asked by frameId', async () => {
    const browser = fakeBrowser((msg) => {
      if (msg.type === 'content.frameHello') return { ok: true, data: {} };
      if (msg.type === 'content.snapshot' && msg.frameId === 0) return { ok: true, data: { text: '- iframe "Pay" [frame=5]', url: 'u', title: 't', refs: 0, truncated: false } };
      if (msg.type === 'content.snapshot' && msg.frameId === 5) return { ok: true, data: { text: '- button "Pay" [f5:e1]', url: 'u2', title: 't2', refs: 1, truncated: false } };
      return { ok: false, code: 'NOT_FOUND', message: 'unexpected' };
    });
    browser.listFrames = async () => [{ frameId: 0, parentFrameId: -1, url: 'u' }, { frameId: 5, parentFrameId: 0, url: 'u2' }];
    const r = await pageOutline({ tabId: 1, browser });
    expect(r.ok && r.data.text).to.equal('- iframe "Pay" [frame=5]\n  - button "Pay" [f5:e1]');
    expect(r.ok && r.data.refs).to.equal(1);
    const hello = browser.sent.find((m) => m.type === 'content.frameHello');
    const top = browser.sent.find((m) => m.type === 'content.snapshot');
    expect(hello && 'nonce' in hello && top && 'nonce' in top && hello.nonce === top.nonce).to.equal(true);
  });

  it('reports changes after an action against the last outline of the same tab', async () => {
    let text = '- checkbox "Agree" [e1]\n' + 'Some long unchanged text line\n'.repeat(20);
    const browser = fakeBrowser((msg) => (msg.type === 'content.snapshot' ? { ok: true, data: { text, url: 'u', title: 't', refs: 1, truncated: false } } : { ok: true, data: {} }));
    const ctx = { tabId: 42, browser };
    expect(await outlineChanges(ctx)).to.equal(null);
    text = text.replace('[e1]', '[checked] [e1]');
    expect(await outlineChanges(ctx)).to.deep.equal({ changes: 'Outline changes: 0 added, 0 removed, 1 changed.\n~ - checkbox "Agree" [checked] [e1]' });
    expect(await outlineChanges(ctx)).to.deep.equal({ changes: 'The outline did not change.' });
  });
});
