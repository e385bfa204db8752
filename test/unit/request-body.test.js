// What a held request carries onto the card: bodies as each browser hands them over.
import { expect } from 'chai';
import { parseBody, decodeBase64Chunks, bytesToText } from '../../src/chrome/agent/safety/request-body.js';
import { heldRequest } from '../../src/chrome/cdp/held-request.js';

describe('held request bodies', () => {
  it('reads form-urlencoded, JSON (nested keys dotted), multipart (files named, not read) and Firefox form data', () => {
    expect(parseBody({ text: 'payee=A.+Stranger&amount=1200.00', contentType: 'application/x-www-form-urlencoded' }).fields).to.deep.equal([['payee', 'A. Stranger'], ['amount', '1200.00']]);
    expect(parseBody({ text: '{"to":"bob","msg":{"subject":"hi","n":2}}' }).fields).to.deep.equal([['to', 'bob'], ['msg.subject', 'hi'], ['msg.n', '2']]);
    const mp = '--B\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n--B\r\nContent-Disposition: form-data; name="f"; filename="id_rsa"\r\nContent-Type: application/octet-stream\r\n\r\nKEY\r\n--B--\r\n';
    expect(parseBody({ text: mp, contentType: 'multipart/form-data; boundary=B' }).fields).to.deep.equal([['note', 'hello'], ['f', '<file id_rsa (3 bytes)>']]);
    expect(parseBody({ formData: { to: ['x@evil.example'], cc: ['a', 'b'] } })).to.deep.equal({ body: 'to=x%40evil.example&cc=a&cc=b', fields: [['to', 'x@evil.example'], ['cc', 'a'], ['cc', 'b']] });
    expect(parseBody({ text: 'just some text' })).to.deep.equal({ body: 'just some text' });
    expect(parseBody({})).to.deep.equal({});
  });

  it('decodes raw bytes as UTF-8 and caps them at 64 kB', () => {
    expect(decodeBase64Chunks([Buffer.from('a=ü&b=', 'utf8').toString('base64'), Buffer.from('2').toString('base64')])).to.equal('a=ü&b=2');
    expect(bytesToText([new Uint8Array(100_000).fill(97)])).to.have.length(65_536);
  });

  it('maps CDP Fetch.requestPaused to a HeldRequest: top-level documents, beacons, post data entries', () => {
    const nav = heldRequest({ request: { url: 'https://x.test/', method: 'GET', headers: {} }, resourceType: 'Document', frameId: 'MAIN' }, 'MAIN');
    expect(nav).to.deep.include({ kind: 'request', method: 'GET', type: 'document', topLevel: true });
    expect(heldRequest({ request: { url: 'https://x.test/f', method: 'GET' }, resourceType: 'Document', frameId: 'CHILD' }, 'MAIN').topLevel).to.equal(false);
    const beacon = heldRequest({ request: { url: 'https://x.test/b', method: 'POST', postData: 'e=1' }, resourceType: 'Ping' }, 'MAIN');
    expect(beacon).to.deep.include({ type: 'beacon', body: 'e=1' });
    const entries = heldRequest({ request: { url: 'https://x.test/api', method: 'POST', headers: { 'Content-Type': 'application/json' }, postDataEntries: [{ bytes: Buffer.from('{"item":"poster"}').toString('base64') }] }, resourceType: 'Fetch' }, 'MAIN');
    expect(entries.fields).to.deep.equal([['item', 'poster']]);
  });
});

describe('held request bodies: decoded for the card', async () => {
  const { unreadableText } = await import('../../src/chrome/agent/safety/request-body.js');
  it('decodes a form field that holds JSON, GraphQL variables sent as a string, and JSON inside multipart', () => {
    expect(parseBody({ text: 'data=%7B%22role%22%3A%22admin%22%2C%22ids%22%3A%5B1%2C2%5D%7D&x=1', contentType: 'application/x-www-form-urlencoded' }).fields)
      .to.deep.equal([['data.role', 'admin'], ['data.ids.0', '1'], ['data.ids.1', '2'], ['x', '1']]);
    expect(parseBody({ text: JSON.stringify({ query: 'mutation M { m }', variables: JSON.stringify({ to: 'eve' }) }) }).fields)
      .to.deep.equal([['query', 'mutation M { m }'], ['variables.to', 'eve']]);
    const mp = '--B\r\nContent-Disposition: form-data; name="operations"\r\n\r\n{"query":"mutation U { upload }","variables":{"file":null}}\r\n--B--\r\n';
    expect(parseBody({ text: mp, contentType: 'multipart/form-data; boundary=B' }).fields).to.deep.equal([['operations.query', 'mutation U { upload }'], ['operations.variables.file', 'null']]);
  });

  it('keeps every field of a long form (none cut at a dozen)', () => {
    const text = Array.from({ length: 60 }, (_, i) => `f${i}=v${i}`).join('&');
    expect(parseBody({ text, contentType: 'application/x-www-form-urlencoded' }).fields).to.have.length(60);
  });

  it('tells binary decoded as text (replacement and control characters) from text', () => {
    expect(unreadableText(bytesToText([new Uint8Array([0x08, 0x96, 0x01, 0x12, 0x05, 0xff, 0xfe, 0x61, 0x64, 0x6d, 0x69, 0x6e])]))).to.equal(true);
    expect(unreadableText('{"name":"Zoë","note":"tab\there\nnew line"}')).to.equal(false);
    expect(unreadableText('a=1&b=%E2%9C%93')).to.equal(false);
  });
});
