// The optional judge of answer tasks (npm run eval -- --judge): the same real model is asked whether
// an answer answers the task, given what the right answer contains. OpenAI-compatible servers
// (OpenAI, Ollama's /v1, OpenRouter…) and Anthropic; others are not judged.
/** @import { Task } from './tasks.js' */

/**
 * @param {{ kind: string, baseUrl: string, model: string, apiKey?: string }} provider @param {Task} task @param {string} answer
 * @returns {Promise<{ verdict: 'right' | 'wrong' | 'not judged', reason: string }>}
 */
export async function judgeAnswer(provider, task, answer) {
  const expected = String(task.check).match(/\/(.+?)\/[a-z]*\)/)?.[1] ?? '';
  const prompt = `Question: ${task.instruction}\nAnswer given: ${answer}\nThe right answer contains (as a regular expression): ${expected}\nIs the answer given right? Reply with "right" or "wrong" and one short reason.`;
  try {
    if (provider.kind === 'anthropic') {
      const r = await fetch(`${provider.baseUrl.replace(/\/$/, '')}/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': provider.apiKey ?? '', 'anthropic-version': '2023-06-01' }, body: JSON.stringify({ model: provider.model, max_tokens: 100, messages: [{ role: 'user', content: prompt }] }) });
      const j = await r.json();
      return verdictOf(String(j.content?.[0]?.text ?? ''));
    }
    const base = provider.kind === 'ollama' ? `${provider.baseUrl.replace(/\/$/, '')}/v1` : provider.baseUrl.replace(/\/$/, '');
    if (provider.kind === 'gemini') return { verdict: 'not judged', reason: 'the judge speaks OpenAI-compatible and Anthropic APIs' };
    const r = await fetch(`${base}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', ...(provider.apiKey ? { authorization: `Bearer ${provider.apiKey}` } : {}) }, body: JSON.stringify({ model: provider.model, max_tokens: 100, messages: [{ role: 'user', content: prompt }] }) });
    const j = await r.json();
    return verdictOf(String(j.choices?.[0]?.message?.content ?? ''));
  } catch (err) {
    return { verdict: 'not judged', reason: err instanceof Error ? err.message : String(err) };
  }
}

/** @param {string} text @returns {{ verdict: 'right' | 'wrong' | 'not judged', reason: string }} */
function verdictOf(text) {
  const t = text.trim();
  return { verdict: /^\W*right/i.test(t) ? 'right' : /^\W*wrong/i.test(t) ? 'wrong' : 'not judged', reason: t.slice(0, 200) };
}
