import { expect } from 'chai';
import { parseToolArgs } from '../../src/chrome/agent/tool-args.js';

const schema = {
  type: 'object',
  properties: { ref: { type: 'string' }, clear: { type: 'boolean' }, kind: { type: 'string', enum: ['a', 'b'] }, n: { type: 'integer' } },
  required: ['ref'],
};

describe('tool arguments', () => {
  it('parses a valid object', () => {
    expect(parseToolArgs('{"ref":"e1","clear":true}', schema)).to.deep.equal({ ok: true, args: { ref: 'e1', clear: true } });
  });
  it('treats empty text as an empty object', () => {
    expect(parseToolArgs('', { type: 'object', properties: {} })).to.deep.equal({ ok: true, args: {} });
  });
  it('reports invalid JSON with what to send instead', () => {
    const r = parseToolArgs('{"ref": "e1",', schema);
    expect(r).to.include({ ok: false, code: 'INVALID_ARGUMENTS', retryable: true });
    expect(/** @type {any} */ (r).message).to.match(/not valid JSON.*send one JSON object/);
  });
  it('rejects non-objects', () => {
    expect(parseToolArgs('[1,2]', schema)).to.include({ ok: false, code: 'INVALID_ARGUMENTS', message: 'The request was missing something or had a wrong value; fix the arguments and try again. (the arguments must be one JSON object)' });
    expect(parseToolArgs('"e1"', schema)).to.include({ ok: false, code: 'INVALID_ARGUMENTS' });
  });
  it('names a missing required argument', () => {
    expect(parseToolArgs('{}', schema)).to.include({ ok: false, message: 'The request was missing something or had a wrong value; fix the arguments and try again. (Missing required argument "ref".)' });
  });
  it('names a wrongly typed argument', () => {
    expect(parseToolArgs('{"ref":12}', schema)).to.include({ ok: false, message: 'The request was missing something or had a wrong value; fix the arguments and try again. (Argument "ref" must be of type string, got 12.)' });
    expect(parseToolArgs('{"ref":"e1","n":1.5}', schema)).to.include({ ok: false });
  });
  it('checks enums', () => {
    expect(parseToolArgs('{"ref":"e1","kind":"c"}', schema)).to.include({ ok: false, message: 'The request was missing something or had a wrong value; fix the arguments and try again. (Argument "kind" must be one of "a", "b".)' });
  });
});
