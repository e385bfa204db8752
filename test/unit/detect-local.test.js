import { expect } from 'chai';
import { detectLocalModels, LOCAL_SERVERS } from '../../src/chrome/ui/detect-local.js';

/** A fetch that answers for some URLs and refuses every other, recording what was asked. */
function fakeFetch(/** @type {Record<string, { status: number, body?: unknown }>} */ answers) {
  /** @type {string[]} */
  const asked = [];
  const f = async (/** @type {any} */ url) => {
    asked.push(String(url));
    const a = answers[String(url)];
    if (!a) throw new TypeError('Failed to fetch');
    return new Response(JSON.stringify(a.body ?? {}), { status: a.status });
  };
  return { fetch: /** @type {typeof fetch} */ (/** @type {unknown} */ (f)), asked };
}

describe('first run: local model detection', () => {
  it('finds Ollama and LM Studio with their models, probing only localhost', async () => {
    const { fetch, asked } = fakeFetch({
      'http://localhost:11434/api/tags': { status: 200, body: { models: [{ name: 'llama3.1:8b' }, { name: 'qwen2.5:7b' }] } },
      'http://localhost:1234/v1/models': { status: 200, body: { data: [{ id: 'lmstudio-community/gemma' }] } },
    });
    const found = await detectLocalModels({ fetch });
    expect(found).to.deep.equal([
      { id: 'ollama', found: true, baseUrl: 'http://localhost:11434/v1', models: ['llama3.1:8b', 'qwen2.5:7b'] },
      { id: 'lmstudio', found: true, baseUrl: 'http://localhost:1234/v1', models: ['lmstudio-community/gemma'] },
      { id: 'builtin', found: false, status: 'unavailable' },
    ]);
    expect(asked.every((u) => new URL(u).hostname === 'localhost')).to.equal(true);
    expect(asked.sort()).to.deep.equal(LOCAL_SERVERS.map((s) => s.probe).sort());
  });

  it('reports nothing when nothing listens, and an Ollama that refuses extensions', async () => {
    const none = await detectLocalModels({ fetch: fakeFetch({}).fetch });
    expect(none.map((c) => c.found)).to.deep.equal([false, false, false]);
    const refused = await detectLocalModels({ fetch: fakeFetch({ 'http://localhost:11434/api/tags': { status: 403 } }).fetch });
    expect(refused[0]).to.include({ found: true, note: 'origin' });
  });

  it('counts the built-in model only when it is already on the machine', async () => {
    const { fetch } = fakeFetch({});
    const avail = await detectLocalModels({ fetch, builtin: { availability: async () => 'available' } });
    expect(avail[2]).to.deep.equal({ id: 'builtin', found: true, status: 'available' });
    const dl = await detectLocalModels({ fetch, builtin: { availability: async () => 'downloadable' } });
    expect(dl[2].found).to.equal(false);
    const broken = await detectLocalModels({ fetch, builtin: { availability: async () => { throw new Error('no'); } } });
    expect(broken[2].found).to.equal(false);
  });
});
