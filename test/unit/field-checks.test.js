// The field checks of a site adapter file and a skill file, one field at a time (the whole files
// are adapters.test.js's and skills.test.js's): each returns the field's value and says what to fix.
import { expect } from 'chai';
import { checkId, checkName, checkCategory, checkMatch, checkRisk, checkTools, checkLocale, checkGuidance, MAX_GUIDANCE_CHARS } from '../../src/chrome/agent/adapters/adapter-format.js';
import { checkSkillName, checkShortText, checkMode, checkPatterns, checkToolList, checkPrompt } from '../../src/chrome/agent/skills/skill-format.js';

/** A check's value and the fields it complained about. @template T @param {(err: (field: string, message: string) => void) => T} run */
function checked(run) {
  /** @type {string[]} */
  const fields = [];
  const value = run((field) => { fields.push(field); });
  return { value, fields };
}

describe('adapter fields (agent/adapters/adapter-format.js)', () => {
  it('the id is lowercase with dashes and names the file', () => {
    expect(checked((e) => checkId(' github ', 'github.md', e))).to.deep.equal({ value: 'github', fields: [] });
    expect(checked((e) => checkId('GitHub', undefined, e)).fields).to.deep.equal(['id']);
    expect(checked((e) => checkId('gitlab', 'github.md', e)).fields).to.deep.equal(['id']);
    expect(checked((e) => checkId(undefined, undefined, e))).to.deep.equal({ value: '', fields: ['id'] });
  });
  it('the name is required and short; the category one of the list', () => {
    expect(checked((e) => checkName('GitHub', e)).fields).to.deep.equal([]);
    expect(checked((e) => checkName('x'.repeat(61), e)).fields).to.deep.equal(['name']);
    expect(checked((e) => checkCategory(' code ', e))).to.deep.equal({ value: 'code', fields: [] });
    expect(checked((e) => checkCategory('games', e)).fields).to.deep.equal(['category']);
  });
  it('match needs one valid pattern at least; tools must exist; risk is normal or high', () => {
    expect(checked((e) => checkMatch(['github.com'], e))).to.deep.equal({ value: ['github.com'], fields: [] });
    expect(checked((e) => checkMatch([], e)).fields).to.deep.equal(['match']);
    expect(checked((e) => checkMatch(7, e))).to.deep.equal({ value: null, fields: ['match'] });
    expect(checked((e) => checkTools('snapshot, click', new Set(['snapshot']), e))).to.deep.equal({ value: ['snapshot', 'click'], fields: ['tools'] });
    expect(checked((e) => checkTools({}, undefined, e)).fields).to.deep.equal(['tools']);
    expect(checked((e) => checkRisk(undefined, e))).to.deep.equal({ value: 'normal', fields: [] });
    expect(checked((e) => checkRisk('low', e)).fields).to.deep.equal(['risk']);
  });
  it('the locale is a language code when given; the guidance is required and bounded', () => {
    expect(checked((e) => checkLocale('pt-BR', e))).to.deep.equal({ value: 'pt-BR', fields: [] });
    expect(checked((e) => checkLocale(undefined, e))).to.deep.equal({ value: undefined, fields: [] });
    expect(checked((e) => checkLocale('Portuguese', e))).to.deep.equal({ value: undefined, fields: ['locale'] });
    expect(checked((e) => checkGuidance('', e)).fields).to.deep.equal(['guidance']);
    expect(checked((e) => checkGuidance('x'.repeat(MAX_GUIDANCE_CHARS + 1), e)).fields).to.deep.equal(['guidance']);
  });
});

describe('skill fields (agent/skills/skill-format.js)', () => {
  it('the name is what is typed after "/" and names the file', () => {
    expect(checked((e) => checkSkillName('summarize-pr', 'summarize-pr.md', e))).to.deep.equal({ value: 'summarize-pr', fields: [] });
    expect(checked((e) => checkSkillName('Summarize', undefined, e)).fields).to.deep.equal(['name']);
    expect(checked((e) => checkSkillName('a', 'b.md', e)).fields).to.deep.equal(['name']);
  });
  it('a short text is required and bounded, said with its own field', () => {
    /** @type {[string, string][]} */
    const said = [];
    checkShortText('x'.repeat(41), 'title', 40, 'Give a title', (f, m) => { said.push([f, m]); });
    checkShortText('  ', 'description', 160, 'Describe it', (f, m) => { said.push([f, m]); });
    expect(said).to.deep.equal([['title', 'The title is 41 characters; keep it to 40.'], ['description', 'Describe it']]);
  });
  it('the mode defaults to ask; match may be empty; tools must exist', () => {
    expect(checked((e) => checkMode(undefined, e))).to.deep.equal({ value: 'ask', fields: [] });
    expect(checked((e) => checkMode('run', e)).fields).to.deep.equal(['mode']);
    expect(checked((e) => checkPatterns(undefined, e))).to.deep.equal({ value: [], fields: [] });
    expect(checked((e) => checkPatterns(['*.'], e)).fields).to.deep.equal(['match']);
    expect(checked((e) => checkToolList(['read_page'], new Set(['snapshot']), e)).fields).to.deep.equal(['tools']);
  });
  it('the prompt uses every parameter and no other', () => {
    const params = [{ name: 'repo', description: 'Which repository' }, { name: 'unused', description: 'x' }];
    expect(checked((e) => checkPrompt('Summarize {{ repo }} and {{branch}}', params, e)).fields).to.deep.equal(['prompt', 'parameters']);
    expect(checked((e) => checkPrompt('Summarize {{repo}}', [params[0]], e)).fields).to.deep.equal([]);
    expect(checked((e) => checkPrompt('', null, e)).fields).to.deep.equal(['prompt']);
  });
});
