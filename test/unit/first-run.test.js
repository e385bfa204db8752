// What first run saves when the person picks a local server's model.
import { expect } from 'chai';
import { localChoice } from '../../src/chrome/ui/first-run.js';

describe('first run', () => {
  it('saves a local Ollama as Ollama, at its native address, with the model found on it', () => {
    expect(localChoice({ id: 'ollama', found: true, baseUrl: 'http://localhost:11434/v1', models: ['qwen2.5:7b'] }, 'qwen2.5:7b'))
      .to.deep.equal({ kind: 'ollama', baseUrl: 'http://localhost:11434', model: 'qwen2.5:7b', apiKey: '' });
  });

  it('saves LM Studio as LM Studio at its OpenAI-compatible address', () => {
    expect(localChoice({ id: 'lmstudio', found: true, baseUrl: 'http://localhost:1234/v1', models: ['qwen3-4b'] }, 'qwen3-4b'))
      .to.deep.equal({ kind: 'lmstudio', baseUrl: 'http://localhost:1234/v1', model: 'qwen3-4b', apiKey: '' });
  });
});
