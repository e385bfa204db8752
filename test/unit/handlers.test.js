import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { HANDLERS, REQUEST_TYPES, dispatch } from '../../src/chrome/service/handlers/index.js';

/** The request types a union of the shared types declares. @param {string} file @param {string} union */
async function declared(file, union) {
  const text = await readFile(new URL(`../../src/chrome/types/${file}`, import.meta.url), 'utf8');
  const start = text.indexOf(`export type ${union} =`);
  const body = text.slice(start, text.indexOf(';\n\n', start));
  return [...body.matchAll(/type: '([a-zA-Z.]+)'/g)].map((m) => m[1]);
}

describe('request handlers: one table, no request half-handled', () => {
  it('answers exactly the request types the shared types declare, each once', async () => {
    const types = new Set([...(await declared('messages.d.ts', 'RouterRequest')), ...(await declared('jobs.d.ts', 'JobsRequest'))]);
    expect([...REQUEST_TYPES].sort()).to.deep.equal([...types].sort());
    expect(new Set(HANDLERS.map((h) => h.type)).size).to.equal(HANDLERS.length);
  });

  it('refuses a request missing a field or with a wrong one, naming it, before the handler runs', async () => {
    let ran = 0;
    const deps = /** @type {any} */ ({ runs: { startChat: async () => { ran++; return { ok: true, data: null }; } } });
    expect(await dispatch({ type: 'chat.send', tabId: 3, text: 'hi' }, deps)).to.deep.equal({ ok: false, code: 'INVALID_REQUEST', message: 'The request was missing a field or had a wrong one; nothing was done. (chat.send: mode is missing.)' });
    expect(await dispatch({ type: 'chat.send', tabId: '3', text: 'hi', mode: 'act' }, deps)).to.deep.include({ code: 'INVALID_REQUEST', message: 'The request was missing a field or had a wrong one; nothing was done. (chat.send: tabId must be a tab id (a whole number).)' });
    expect(await dispatch({ type: 'chat.send', tabId: 3, text: 'hi', mode: 'yolo' }, deps)).to.deep.include({ code: 'INVALID_REQUEST' });
    expect(await dispatch({ type: 'confirm.answer', tabId: 3, id: 'q1', answer: 'maybe' }, deps)).to.deep.include({ code: 'INVALID_REQUEST', message: 'The request was missing a field or had a wrong one; nothing was done. (confirm.answer: answer must be one of yes, task, no.)' });
    expect(await dispatch({ type: 'plan.approve', tabId: 3, id: 'p', steps: ['a', 2] }, deps)).to.deep.include({ code: 'INVALID_REQUEST' });
    expect(await dispatch({ type: 'settings.set', settings: 'all of them' }, deps)).to.deep.include({ code: 'INVALID_REQUEST' });
    expect(ran).to.equal(0);
    expect(await dispatch({ type: 'chat.send', tabId: 3, text: 'hi', mode: 'act' }, deps)).to.deep.equal({ ok: true, data: null });
    expect(ran).to.equal(1);
  });

  it('refuses a type nobody handles', async () => {
    expect(await dispatch({ type: 'chat.explode' }, /** @type {any} */ ({}))).to.deep.include({ ok: false, code: 'UNKNOWN_REQUEST' });
  });
});
