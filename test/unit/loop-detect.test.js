import { expect } from 'chai';
import { createLoopDetector } from '../../src/chrome/agent/loop-detect.js';

/** @import { ToolResult } from '../../src/chrome/types/core' */
/** @type {ToolResult} */
const OK = { ok: true, data: { clicked: 'e1' } };

describe('loop detection', () => {
  describe('(a) repeats of name + arguments + outcome', () => {
    it('nudges on the third identical call', () => {
      const d = createLoopDetector();
      expect(d.record({ name: 'click', args: { ref: 'e1' }, result: OK })).to.deep.equal([]);
      expect(d.record({ name: 'click', args: { ref: 'e1' }, result: OK })).to.deep.equal([]);
      const v = d.record({ name: 'click', args: { ref: 'e1' }, result: OK });
      expect(v).to.have.length(1);
      expect(v[0]).to.include({ kind: 'nudge', detector: 'repeat' });
      expect(v[0].message).to.contain('three times');
    });
    it('nudges on an ABAB alternation', () => {
      const d = createLoopDetector();
      const a = { name: 'click', args: { ref: 'e1' }, result: OK };
      const b = { name: 'snapshot', args: {}, result: /** @type {ToolResult} */ ({ ok: true, data: 'same page' }) };
      d.record(a); d.record(b); d.record(a);
      const v = d.record(b);
      expect(v.map((x) => x.detector)).to.deep.equal(['repeat']);
      expect(v[0].message).to.contain('alternating');
    });
    it('stays quiet when the arguments or the outcome change (a healthy run)', () => {
      const d = createLoopDetector();
      for (let i = 0; i < 30; i++) {
        expect(d.record({ name: 'type', args: { ref: 'e1', text: `entry ${i}` }, result: OK })).to.deep.equal([]);
        expect(d.record({ name: 'snapshot', args: {}, result: { ok: true, data: `page with ${i} entries` } })).to.deep.equal([]);
      }
      // Same call, different outcome each time: the page is changing, so it is progress.
      for (let i = 0; i < 5; i++) expect(d.record({ name: 'click', args: { ref: 'next' }, result: { ok: true, data: { page: i } } })).to.deep.equal([]);
    });
    it('treats argument key order as the same call', () => {
      const d = createLoopDetector();
      d.record({ name: 'type', args: { ref: 'e1', text: 'x' }, result: OK });
      d.record({ name: 'type', args: { text: 'x', ref: 'e1' }, result: OK });
      expect(d.record({ name: 'type', args: { ref: 'e1', text: 'x' }, result: OK })).to.have.length(1);
    });
    it('stops after repeated nudges without healthy calls, and healthy calls forgive', () => {
      const d = createLoopDetector({ stopAfterNudges: 3 });
      const same = { name: 'click', args: { ref: 'e1' }, result: OK };
      d.record(same); d.record(same);
      expect(d.record(same)[0].kind).to.equal('nudge');
      expect(d.record(same)[0].kind).to.equal('nudge');
      // Two healthy calls in a row reset the count.
      d.record({ name: 'snapshot', args: {}, result: { ok: true, data: 'a' } });
      d.record({ name: 'read_page', args: {}, result: { ok: true, data: 'b' } });
      d.record(same); d.record(same);
      expect(d.record(same).map((v) => v.kind)).to.deep.equal(['nudge']);
      expect(d.record(same).map((v) => v.kind)).to.deep.equal(['nudge']);
      const last = d.record(same);
      expect(last.map((v) => v.kind)).to.deep.equal(['nudge', 'stop']);
      expect(last[1].message).to.contain('going in circles');
    });
  });

  describe('(b) clicks in the same 5-pixel bucket', () => {
    it('nudges at the fifth click in one bucket and stops at the eighth', () => {
      const d = createLoopDetector({ stopAfterNudges: 100 });
      const kinds = [];
      for (let i = 0; i < 8; i++) {
        // Jitter inside the bucket and a changing outcome, so only the click detector can fire.
        const v = d.record({ name: 'click_at', args: { x: 101 + (i % 3), y: 52 + (i % 2) }, result: { ok: true, data: { n: i } }, urlBefore: 'https://app.test/board' });
        kinds.push(v.filter((x) => x.detector === 'click').map((x) => x.kind).join() || 'ok');
      }
      expect(kinds).to.deep.equal(['ok', 'ok', 'ok', 'ok', 'nudge', 'nudge', 'nudge', 'stop']);
    });
    it('reads the point from the result and stays quiet when clicks move around', () => {
      const d = createLoopDetector();
      for (let i = 0; i < 20; i++) {
        const v = d.record({ name: 'click', args: { ref: `e${i}` }, result: { ok: true, data: { point: { x: 10 + i * 7, y: 300 } } }, urlBefore: 'https://app.test/' });
        expect(v).to.deep.equal([]);
      }
    });
    it('counts the same spot on different pages separately', () => {
      const d = createLoopDetector();
      for (let i = 0; i < 8; i++) {
        const v = d.record({ name: 'click_at', args: { x: 20, y: 20 }, result: { ok: true, data: i }, urlBefore: `https://app.test/page/${i}` });
        expect(v).to.deep.equal([]);
      }
    });
  });

  describe('(c) navigation check', () => {
    it('notes when navigate lands somewhere other than asked', () => {
      const d = createLoopDetector();
      const v = d.record({ name: 'navigate', args: { url: 'https://app.test/admin' }, result: { ok: true, data: {} }, urlBefore: 'https://app.test/', urlAfter: 'https://app.test/login?next=%2Fadmin' });
      expect(v).to.have.length(1);
      expect(v[0]).to.include({ detector: 'navigation', kind: 'nudge' });
      expect(v[0].message).to.contain('sign-in wall');
    });
    it('catches returning to the same resource through URL variants', () => {
      const d = createLoopDetector();
      const urls = [
        'https://github.com/acme/tool/blob/main/README.md',
        'https://raw.githubusercontent.com/acme/tool/main/README.md',
        'https://github.com/acme/tool/blob/main/README.md?utm_source=x',
      ];
      const verdicts = urls.map((u, i) => d.record({ name: 'navigate', args: { url: u }, result: { ok: true, data: { i } }, urlBefore: 'https://start.test/', urlAfter: u }));
      expect(verdicts[0]).to.deep.equal([]);
      expect(verdicts[1]).to.deep.equal([]);
      expect(verdicts[2].map((v) => v.detector)).to.deep.equal(['navigation']);
      expect(verdicts[2][0].message).to.contain('visit 3');
    });
    it('stays quiet on a run that moves forward through pages', () => {
      const d = createLoopDetector();
      for (let i = 0; i < 10; i++) {
        const u = `https://shop.test/list?page=${i + 1}`;
        expect(d.record({ name: 'click', args: { ref: `next${i}` }, result: { ok: true, data: {} }, urlBefore: `https://shop.test/list?page=${i}`, urlAfter: u })).to.deep.equal([]);
        expect(d.record({ name: 'navigate', args: { url: `https://shop.test/item/${i}` }, result: { ok: true, data: {} }, urlBefore: u, urlAfter: `https://shop.test/item/${i}` })).to.deep.equal([]);
      }
      // A click that does not navigate is not an arrival.
      for (let i = 0; i < 5; i++) expect(d.record({ name: 'click', args: { ref: `tab${i}` }, result: { ok: true, data: {} }, urlBefore: 'https://shop.test/x', urlAfter: 'https://shop.test/x' })).to.deep.equal([]);
    });
  });
});
