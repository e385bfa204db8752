import { expect } from 'chai';
import { skillSave } from '../../../src/chrome/agent/safety/rules/skill-save.js';
import { memoryOf, call, cardOf } from './facts.js';

describe('policy rule: saving a skill', () => {
  it('always asks at high severity and shows the whole instructions and the sites they apply to', () => {
    const m = memoryOf();
    expect(skillSave.appliesTo(call({ effects: ['saves_skills'] }), m)).to.equal(true);
    expect(skillSave.appliesTo(call({ effects: ['reads_skills'] }), m)).to.equal(false);
    const card = cardOf(skillSave.decide(call({ tool: 'save_skill', args: { name: 'reorder', title: 'Reorder', prompt: 'Open orders. '.repeat(50) } }), m));
    expect(card).to.deep.include({ rule: 'skill_save', severity: 'high', action: 'Save the skill "reorder" for later runs' });
    expect(card.details.map((d) => d.label)).to.deep.equal(['title', 'used on', 'instructions']);
    expect(card.details[1].value).to.equal('shop.test');
    expect(card.details[2].value).to.have.length('Open orders. '.repeat(50).length);
    const named = cardOf(skillSave.decide(call({ args: { name: 'x', sites: ['a.test', 'b.test'] } }), m));
    expect(named.details[1].value).to.equal('a.test, b.test');
  });
});
