// Browser-free helpers of the panel: images in tool results, and the token and cost counter.
import { expect } from 'chai';

const messages = /** @type {Record<string, string>} */ ({ imageShown: 'image below', usageTokens: '$1 tokens', spendEstimated: '$1 (estimated)' });
/** @type {any} */ (globalThis).browser ??= {
  i18n: { getMessage: (/** @type {string} */ k, /** @type {string[]} */ subs = []) => (messages[k] ?? '').replace('$1', subs[0] ?? '') },
};
const { splitImages, briefArgs } = await import('../../src/chrome/ui/tool-card.js');
const { formatUsage } = await import('../../src/chrome/ui/usage.js');
const { Session } = await import('../../src/chrome/service/session.js');

const PNG = 'data:image/png;base64,iVBORw0KGgo=';

describe('panel helpers', () => {
  it('takes screenshots out of a tool result, as data: URLs or image parts, and nothing remote', () => {
    const { rest, images } = splitImages({ url: 'https://x', shot: PNG, parts: [{ type: 'image', mediaType: 'image/jpeg', data: 'AAAA' }, 'https://evil.example/a.png'] });
    expect(images).to.deep.equal([PNG, 'data:image/jpeg;base64,AAAA']);
    expect(rest).to.deep.equal({ url: 'https://x', shot: '[image below]', parts: ['[image below]', 'https://evil.example/a.png'] });
    // A data URL carrying script is not an image.
    expect(splitImages('data:image/svg+xml;base64,PHN2Zz4=').images).to.deep.equal([]);
  });

  it('summarises arguments briefly', () => {
    expect(briefArgs({ ref: 'e12', text: 'hello' })).to.equal('ref="e12" text="hello"');
    expect(briefArgs({ text: 'x'.repeat(100) })).to.have.length(58);
  });

  it('counts tokens, and cost only when prices are set', () => {
    const usage = { inputTokens: 200, outputTokens: 40 };
    expect(formatUsage(usage, undefined, 'en')).to.equal('240 tokens');
    expect(formatUsage(usage, { input: 3, output: 15 }, 'en')).to.equal('240 tokens · $0.0012');
    expect(formatUsage({ inputTokens: 2_000_000, outputTokens: 100_000 }, { input: 3, output: 15 }, 'en')).to.equal('2,100,000 tokens · $7.50');
    // Tokens a provider did not report are Tabwright's estimate, and the counter says so.
    expect(formatUsage({ ...usage, estimated: true }, undefined, 'en')).to.equal('240 tokens (estimated)');
  });

  it('the session sums usage events and pushes the total to open panels', () => {
    const s = new Session(1);
    /** @type {any[]} */
    const seen = [];
    s.listeners.add((e) => seen.push(e));
    s.apply({ type: 'usage', usage: { inputTokens: 100, outputTokens: 20 } });
    s.apply({ type: 'usage', usage: { inputTokens: 50, outputTokens: 5 } });
    expect(s.usage).to.deep.equal({ inputTokens: 150, outputTokens: 25, calls: 2 });
    expect(seen.at(-1)).to.deep.equal({ type: 'usage', usage: { inputTokens: 150, outputTokens: 25, calls: 2 } });
  });
});
