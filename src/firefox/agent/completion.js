// Verified completion: "done" needs evidence. A run whose last write failed, or a task that asked for
// a change during which nothing was written, gets its done challenged once (the model looks again,
// retries, or says it failed); a successful write or a created job is evidence the page need not
// repeat. Browser-free; the writes come from the request hold (agent/safety/write-ledger.js).
/** @import { WriteEntry } from './safety/write-ledger.js' */
import { failed, succeeded, writeLine } from './safety/write-ledger.js';

/**
 * A request that asks for a change on a server: an English verb of change where a command starts (the
 * request's start, after punctuation, "please", "and", "then", "to"), so "buy the cart" and "fill it
 * in and submit it" count and "what does my order say" does not; and stems of the same verbs in the
 * panel's other languages.
 */
const VERBS = 'submit|send|post|publish|reply|order|buy|purchase|pay|book|reserve|register|sign up|subscribe|save|update|change|rename|create|delete|remove|cancel|archive|invite|approve|reject|comment|upload|transfer|check ?out';
const CHANGE_EN = new RegExp(`(?:^|[.!?;:,\\n]\\s*|\\b(?:please|and|then|to|also|now|just)\\s+)(?:${VERBS})\\b`, 'i');
const CHANGE_OTHER = /senden|bestellen|kaufen|buchen|speichern|ändern|löschen|erstellen|envoie|envoyer|commander|acheter|réserver|enregistrer|modifier|supprimer|créer|envía|enviar|comprar|reservar|guardar|cambiar|eliminar|crear|送信|注文して|購入|予約して|保存|変更|削除|作成|发送|订购|购买|预订|保存|修改|删除|创建/i;

/** @param {string} task the user's request */
export function asksForChange(task) {
  return CHANGE_EN.test(task.trim()) || CHANGE_OTHER.test(task);
}

/**
 * Why done is not believed yet, or null. One of: the run's last write failed; the task asked for a
 * change and nothing was written (nor a job created).
 * @param {{ writes: readonly WriteEntry[], task: string, createdJobs: number }} run
 * @returns {{ code: 'WRITE_FAILED' | 'NO_WRITE_SEEN', message: string } | null}
 */
export function challengeDone({ writes, task, createdJobs }) {
  // Declined writes are the user's decision, already told to the model: only what was sent counts.
  const last = writes.filter((w) => w.sent).at(-1);
  if (last && failed(last)) {
    return {
      code: 'WRITE_FAILED',
      message: `The last change this run sent did not go through: ${writeLine(last)}. Whatever the page shows, the server did not accept it. Look at the page, try once more if that makes sense, or call done saying plainly that it failed and why.`,
    };
  }
  if (!writes.some((w) => w.sent) && createdJobs === 0 && asksForChange(task)) {
    return {
      code: 'NO_WRITE_SEEN',
      message: 'The task asks for a change, but no request that changes anything left the browser during this run. If the change was made another way, say how it can be seen; otherwise make it, or call done saying it was not done.',
    };
  }
  return null;
}

/** The run's last sent write, when it failed: a done that stands after the challenge is flagged with it. @param {readonly WriteEntry[]} writes */
export function failedLastWrite(writes) {
  const last = writes.filter((w) => w.sent).at(-1);
  return last && failed(last) ? writeLine(last) : null;
}

/**
 * What shows the task was done without the page saying so: writes the server accepted, jobs created.
 * @param {readonly WriteEntry[]} writes @param {number} createdJobs @returns {string[]}
 */
export function evidenceOf(writes, createdJobs) {
  const lines = writes.filter(succeeded).map(writeLine);
  if (createdJobs > 0) lines.push(createdJobs === 1 ? 'a scheduled job was created' : `${createdJobs} scheduled jobs were created`);
  return lines;
}

/**
 * A result with the writes its step caused, as lines the model reads ("POST shop.test/api/orders → 201").
 * @param {import('../types/core').ToolResult} result @param {readonly WriteEntry[]} writes
 * @returns {import('../types/core').ToolResult}
 */
export function withWrites(result, writes) {
  if (!writes.length) return result;
  const lines = writes.map(writeLine);
  if (!result.ok) return { ...result, message: `${result.message} Writes: ${lines.join('; ')}.` };
  const data = result.data !== null && typeof result.data === 'object' && !Array.isArray(result.data) ? result.data : { result: result.data };
  return { ...result, data: { ...data, writes: lines } };
}
