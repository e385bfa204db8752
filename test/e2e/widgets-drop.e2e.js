// Files dropped on a drop-only zone (no <input type=file>): upload_file fires the drop a person's
// drag from the desktop fires (dragenter, dragover, drop) carrying the files, and the page sends
// them on to the server; an element that takes no drop is still refused.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { ok, openFixture, tool } from './harness/tools.js';

scenario('widgets: a drop-only zone', (ctx) => {
  /** @type {Awaited<ReturnType<typeof openFixture>>} */
  let f;
  before(async () => { f = await openFixture(ctx.env, 'widgets/dropzone.html'); });
  after(async () => { await f?.page.close(); });

  it('drops the files on the zone, the page uploads them, and a paragraph is refused', async () => {
    const { env } = ctx;
    const before = env.site.writes.length;
    const r = await ok(env, f.tabId, 'upload_file', { selector: '#zone', files: [{ name: 'logo.svg', content: '<svg/>', mime_type: 'image/svg+xml' }, { name: 'notes.txt', content: 'hello' }] });
    expect(r.data.files.map((/** @type {any} */ x) => x.name)).to.deep.equal(['logo.svg', 'notes.txt']);
    expect(r.data.dropped).to.be.a('string');
    await f.page.waitFor(() => document.querySelectorAll('#list li').length === 2, undefined, { message: 'both files listed' });
    await f.page.waitFor(() => performance.getEntriesByType('resource').filter((e) => e.name.endsWith('/api/attachments')).length === 2, undefined, { message: 'both uploads answered' });
    const sent = env.site.writes.slice(before).filter((w) => w.path === '/api/attachments').map((w) => JSON.parse(w.body));
    expect(sent).to.deep.equal([{ name: 'logo.svg', type: 'image/svg+xml', text: '<svg/>' }, { name: 'notes.txt', type: 'application/octet-stream', text: 'hello' }]);
    const refused = await tool(env, f.tabId, 'upload_file', { selector: '#plain', files: [{ name: 'x.txt', content: 'x' }] });
    expect(refused).to.include({ ok: false, code: 'NOT_FILE_INPUT' });
  });
});
