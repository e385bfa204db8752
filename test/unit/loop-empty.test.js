import { expect } from 'chai';
import { runAgent } from '../../src/chrome/agent/loop.js';
import { fakeProvider, say } from './fake-provider.js';
import { fakeBrowser } from './fake-browser.js';

/** @import { AgentEvent, ChatMessage } from '../../src/chrome/types/core' */

/** @param {Parameters<typeof fakeProvider>[0]} turns */
async function run(turns) {
  const provider = fakeProvider(turns);
  /** @type {AgentEvent[]} */
  const events = [];
  /** @type {ChatMessage[]} */
  const messages = [{ role: 'system', content: 'sys' }, { role: 'user', content: 'task' }];
  const outcome = await runAgent({ provider, mode: 'act', messages, toolContext: { tabId: 1, browser: fakeBrowser() }, emit: (e) => events.push(e) });
  return { outcome, events, messages, provider };
}

describe('agent loop: empty answers', () => {
  it('asks once more after an empty answer, and goes on with the second', async () => {
    const { outcome, messages, provider } = await run([[{ type: 'finish', reason: 'stop' }], say('Here it is.')]);
    expect(outcome).to.include({ status: 'answered', text: 'Here it is.' });
    expect(provider.requests).to.have.length(2);
    // The empty turn left nothing in the conversation.
    expect(messages.filter((m) => m.role === 'assistant')).to.deep.equal([{ role: 'assistant', content: 'Here it is.' }]);
  });

  it('ends the run with EMPTY_COMPLETION after a second empty (or whitespace) answer, never a blank answer', async () => {
    const { outcome, events, provider } = await run([say(''), say('  \n ')]);
    expect(outcome.status).to.equal('error');
    expect(outcome.error?.code).to.equal('EMPTY_COMPLETION');
    expect(provider.requests).to.have.length(2);
    const error = events.find((e) => e.type === 'error');
    expect(error).to.deep.include({ code: 'EMPTY_COMPLETION' });
    expect(/** @type {any} */ (error).message).to.match(/answered with nothing, twice/);
    expect(events.some((e) => e.type === 'final')).to.equal(false);
  });
});
