// Retry on the last answer: asks the last request again, as typed and in the same mode. Only the
// newest answer of a finished run carries it (an older one would rerun a request it did not answer).
// Icon-only like the copy button beside it, so the answer's own text stays exactly the answer.
/** @import { Mode } from '../types/core' */
import { retryIcon } from './icons.js';


/**
 * Puts the Retry button on the log's last answer, or on nothing while a run goes on.
 * @param {HTMLElement} log
 * @param {{ running: boolean, t: (key: string) => string, retry: (text: string, mode: Mode) => void }} deps
 */
export function placeRetry(log, { running, t, retry }) {
  for (const b of log.querySelectorAll('button.retry-answer')) b.remove();
  if (running) return;
  const last = /** @type {HTMLElement | null} */ (log.lastElementChild);
  if (!last?.matches('.msg.assistant.final')) return;
  const users = log.querySelectorAll(':scope > .msg.user');
  const asked = /** @type {HTMLElement | undefined} */ (users[users.length - 1]);
  if (!asked?.textContent) return;
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'ghost icon retry-answer';
  b.setAttribute('aria-label', t('retryAnswer'));
  b.title = t('retryAnswer');
  b.append(retryIcon());
  const text = asked.textContent;
  const mode = /** @type {Mode} */ (asked.dataset.mode ?? 'ask');
  b.addEventListener('click', () => { b.disabled = true; retry(text, mode); });
  last.append(b);
}
