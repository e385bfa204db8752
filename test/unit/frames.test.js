// Frames: which frame an action target names, the request routing, the frame offset summed
// up the parent chain for Chrome's trusted input, and get_frames' listing; with a BrowserOps double.
import { expect } from 'chai';
import { targetOf } from '../../src/chrome/agent/tools/act.js';
import { frameOfTarget, frameOffset, toTopPoint, getFrames } from '../../src/chrome/agent/tools/frames.js';
import { frameOf } from '../../src/chrome/service/content-channel.js';
import { fakeBrowser } from './fake-browser.js';

/** @import { ContentRequest } from '../../src/chrome/types/core' */

/** A tab: top frame 0, frame 3 in it at (50, 100), frame 7 inside frame 3 at (10, 20). */
function nested() {
  const browser = fakeBrowser((/** @type {ContentRequest} */ msg) => {
    const m = /** @type {any} */ (msg);
    if (m.type === 'content.frameBox') {
      const box = m.child === 3 ? { x: 50, y: 100 } : m.child === 7 ? { x: 10, y: 20 } : null;
      return box ? { ok: true, data: { ...box, viewport: m.frameId === 0 ? { width: 800, height: 600 } : { width: 400, height: 300 } } } : { ok: false, code: 'FRAME_UNKNOWN', message: 'gone' };
    }
    if (m.type === 'content.frameInfo') return { ok: true, data: { title: `Frame ${m.frameId}`, name: m.frameId === 7 ? 'inner' : '' } };
    return { ok: true, data: null };
  });
  browser.listFrames = async () => [
    { frameId: 0, parentFrameId: -1, url: 'https://shop.example/' },
    { frameId: 3, parentFrameId: 0, url: 'https://shop.example/frame.html' },
    { frameId: 7, parentFrameId: 3, url: 'https://pay.example/card' },
    { frameId: 9, parentFrameId: 3, url: 'about:blank' },
    { frameId: 11, parentFrameId: 7, url: 'about:blank' },
  ];
  return browser;
}

describe('frames', () => {
  it('takes the frame from a frame ref, else from frame_id, else the top frame', () => {
    expect(frameOfTarget({ ref: 'f7:e3' })).to.equal(7);
    expect(frameOfTarget({ ref: 'e3' })).to.equal(0);
    expect(targetOf({ selector: '#user', frame_id: 7 })).to.deep.equal({ selector: '#user', frameId: 7 });
    // A ref names its own frame: frame_id beside it is ignored.
    expect(targetOf({ ref: 'f3:e1', frame_id: 7 })).to.deep.equal({ ref: 'f3:e1' });
    expect(frameOfTarget(targetOf({ text: 'Sign in', frame_id: 7 }) ?? undefined)).to.equal(7);
    expect(frameOfTarget(undefined)).to.equal(0);
  });

  it('routes a content request to the frame its target names', () => {
    expect(frameOf({ type: 'content.click', target: { ref: 'f7:e3' } })).to.equal(7);
    expect(frameOf({ type: 'content.click', target: { selector: '#a', frameId: 7 } })).to.equal(7);
    expect(frameOf({ type: 'content.dragPrepare', from: { text: 'Item', frameId: 3 }, to: { x: 1, y: 2 } })).to.equal(3);
    expect(frameOf({ type: 'content.frameBox', frameId: 3 })).to.equal(3);
    expect(frameOf({ type: 'content.click', target: { text: 'Go' } })).to.equal(0);
  });

  it('sums the frame offsets up the parent chain and maps a frame point into the top viewport', async () => {
    const browser = nested();
    const ctx = { tabId: 1, browser };
    expect(await frameOffset(ctx, 7)).to.deep.equal({ x: 60, y: 120, viewport: { width: 800, height: 600 } });
    expect(await toTopPoint(ctx, 7, { x: 5, y: 5 })).to.deep.equal({ x: 65, y: 125 });
    expect(await toTopPoint(ctx, 0, { x: 5, y: 5 })).to.deep.equal({ x: 5, y: 5 });
    // Each child introduces itself to its parent before the parent measures it.
    const kinds = browser.sent.map((m) => `${m.type}:${/** @type {any} */ (m).frameId}`);
    expect(kinds.slice(0, 4)).to.deep.equal(['content.frameHello:7', 'content.frameBox:3', 'content.frameHello:3', 'content.frameBox:0']);
  });

  it('gives up on the offset (synthetic events in the frame) when it cannot be measured or lies off screen', async () => {
    const ctx = { tabId: 1, browser: nested() };
    expect(await frameOffset(ctx, 9)).to.equal(null);
    expect(await frameOffset(ctx, 42)).to.equal(null);
    expect(await toTopPoint(ctx, 7, { x: 790, y: 10 })).to.equal(null);
  });

  it('lists frames with parent, URL, origin, title and name', async () => {
    const r = await getFrames.run({}, { tabId: 1, browser: nested() });
    expect(r.ok).to.equal(true);
    expect(/** @type {any} */ (r).data.frames).to.deep.equal([
      { frameId: 0, parentFrameId: -1, url: 'https://shop.example/', origin: 'top', title: 'Frame 0', name: null, state: 'readable' },
      { frameId: 3, parentFrameId: 0, url: 'https://shop.example/frame.html', origin: 'same-origin', title: 'Frame 3', name: null, state: 'readable' },
      { frameId: 7, parentFrameId: 3, url: 'https://pay.example/card', origin: 'cross-origin', title: 'Frame 7', name: 'inner', state: 'readable' },
      { frameId: 9, parentFrameId: 3, url: 'about:blank', origin: 'same-origin', title: 'Frame 9', name: null, state: 'readable' },
      // about:blank takes its parent's origin: inside the cross-origin frame it is cross-origin too.
      { frameId: 11, parentFrameId: 7, url: 'about:blank', origin: 'cross-origin', title: 'Frame 11', name: null, state: 'readable' },
    ]);
    const none = fakeBrowser();
    expect(await getFrames.run({}, { tabId: 1, browser: none })).to.include({ ok: false, code: 'PAGE_NOT_SCRIPTABLE' });
  });
});
