// What a tool is, for the code that treats tools alike, is the tool's own fact (types/core.d.ts Tool):
// how a saved workflow replays it (replay, replayOutput, entersData, typedArg) and whether a run always
// offers it (alwaysOffered). The facts agree with what each tool is, and the code that reads them keeps
// no list of tool names beside the registry.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { ALL_TOOLS } from '../../src/chrome/agent/tools/index.js';
import { PAGE_TOOLS } from '../../src/chrome/agent/tools/webmcp.js';
import { onlyReads } from '../../src/chrome/agent/safety/effects.js';
import { REPLAYABLE } from '../../src/chrome/agent/workflows/compile.js';

const TOOLS = [...ALL_TOOLS, ...PAGE_TOOLS];
/** @param {import('../../src/chrome/types/core').Tool} tool */
const props = (tool) => Object.keys(tool.parameters.properties ?? {});
const names = (/** @type {(t: import('../../src/chrome/types/core').Tool) => boolean} */ pick) => TOOLS.filter(pick).map((t) => t.name);

describe('a tool\'s replay facts (types/core.d.ts Tool.replay)', () => {
  it('says one of the known ways, and a workflow step may use exactly the tools that replay', () => {
    expect(names((t) => t.replay !== undefined && !['targeted', 'target-optional', 'page', 'silent'].includes(t.replay))).to.deep.equal([]);
    expect([...REPLAYABLE].sort()).to.deep.equal(names((t) => t.replay !== undefined && t.replay !== 'silent').sort());
  });
  it('a tool acting on an element (or that may) takes a ref and a selector; a page step takes no ref', () => {
    expect(names((t) => (t.replay === 'targeted' || t.replay === 'target-optional') && !(props(t).includes('ref') && props(t).includes('selector')))).to.deep.equal([]);
    expect(names((t) => t.replay === 'page' && props(t).includes('ref'))).to.deep.equal([]);
  });
  it('the model\'s own reading and bookkeeping (silent) neither acts nor navigates', () => {
    expect(names((t) => t.replay === 'silent' && t.effects.some((e) => e === 'acts_on_page' || e === 'navigates'))).to.deep.equal([]);
  });
  it('a step whose result is the replay\'s output only reads, and is replayed', () => {
    expect(names((t) => t.replayOutput === true && !onlyReads(t))).to.deep.equal([]);
    expect(names((t) => t.replayOutput === true && !REPLAYABLE.has(t.name))).to.deep.equal([]);
    expect(names((t) => t.replayOutput === true)).to.include.members(['read_page', 'extract_data', 'page_capabilities', 'get_html']);
  });
  it('a tool that enters data acts on the page; what it types is one of its arguments', () => {
    expect(names((t) => t.entersData === true && !t.effects.includes('acts_on_page'))).to.deep.equal([]);
    expect(names((t) => t.typedArg !== undefined && !(props(t).includes(String(t.typedArg)) && t.entersData === true))).to.deep.equal([]);
    expect(names((t) => t.typedArg !== undefined)).to.deep.equal(['type', 'set_field']);
  });
});

describe('the facts a run reads off its tools', () => {
  it('always offers the tools that let a run finish and ask, whatever a skill limits it to; they only steer the run', () => {
    expect(names((t) => t.alwaysOffered === true)).to.deep.equal(['done', 'clarify']);
    expect(names((t) => t.alwaysOffered === true && t.effects.some((e) => e !== 'controls_run'))).to.deep.equal([]);
  });
  it('the code that treats tools alike names no tool of its own (it asks the tool)', () => {
    const tool = `'(${TOOLS.map((t) => t.name).join('|')})'`;
    // A comparison, a case or a list with a tool's name in it (a status 'done' is not one).
    const quoted = new RegExp(`(===|!==|case|\\[|,|\\()\\s*${tool}`);
    const files = ['workflows/compile.js', 'workflows/replay.js', 'workflows/replay-outcome.js', 'workflows/repair.js',
      'run/prepare.js', 'safety/rules/destination.js', 'tool-call/facts.js'];
    for (const file of files) {
      const text = readFileSync(new URL(`../../src/chrome/agent/${file}`, import.meta.url), 'utf8');
      expect(text.split('\n').filter((line) => quoted.test(line)), file).to.deep.equal([]);
    }
  });
});
