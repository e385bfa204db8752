// How each tool's calls are shown in the panel comes from the tool itself (its effects, or its own
// `shows`): no list of names beside the registry.
import { expect } from 'chai';
import { ALL_TOOLS, shownAs } from '../../src/chrome/agent/tools/index.js';

describe('a tool\'s step icon, from the tool', () => {
  it('every tool is shown as read, act, go or run', () => {
    const other = ALL_TOOLS.filter((t) => !['read', 'act', 'go', 'run'].includes(shownAs(t.name))).map((t) => t.name);
    expect(other).to.deep.equal([]);
  });
  it('reads look, actions act, moves go, run control runs', () => {
    const of = (/** @type {string[]} */ names) => names.map((n) => shownAs(n));
    expect(of(['snapshot', 'read_page', 'screenshot', 'fetch_url', 'read_pdf', 'skills', 'wait_for'])).to.deep.equal(Array(7).fill('read'));
    expect(of(['click', 'type', 'set_field', 'press_keys', 'handle_dialog', 'execute_js'])).to.deep.equal(Array(6).fill('act'));
    expect(of(['navigate', 'go_back', 'tabs'])).to.deep.equal(Array(3).fill('go'));
    expect(of(['done', 'clarify', 'schedule_task', 'save_skill'])).to.deep.equal(Array(4).fill('run'));
  });
  it('a name no tool has is shown as other', () => {
    expect(shownAs('no_such_tool')).to.equal('other');
  });
});
