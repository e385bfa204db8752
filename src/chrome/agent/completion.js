// Verified completion: "done" needs evidence. A run with a write the server refused (by its status or
// its body; any write of the task, not only the last), a write still without an answer, or a task
// that asked for a change during which nothing was written, gets its done challenged once (the model
// looks again, retries, or says it failed); an accepted write or a created job is evidence the page
// need not repeat. The reading of each answer is agent/outcome.js's, so the challenge and the
// verdict never disagree. Browser-free; the writes come from the request hold (agent/safety/write-ledger.js).
/** @import { WriteEntry } from './safety/write-ledger.js' */
/** @import { ReadWrite } from './outcome.js' */
import { writeLine } from './safety/write-ledger.js';
import { readWrites } from './outcome.js';
import { ERROR_CODES, errorOf } from './error-codes.js';

/**
 * A request that asks for a change on a server: an English verb of change where a command starts (the
 * request's start, after punctuation, "please", "and", "then", "to"), so "buy the cart" and "fill it
 * in and submit it" count and "what does my order say" does not; and stems of the same verbs in the
 * panel's other languages.
 */
const VERBS = 'submit|send|post|publish|reply|order|buy|purchase|pay|book|reserve|register|sign up|subscribe|save|update|change|rename|create|delete|remove|cancel|archive|invite|approve|reject|comment|upload|transfer|check ?out|schedule';
const CHANGE_EN = new RegExp(`(?:^|[.!?;:,\\n]\\s*|\\b(?:please|and|then|to|also|now|just)\\s+)(?:${VERBS})\\b`, 'i');
const CHANGE_OTHER = /senden|bestellen|kaufen|buchen|speichern|ändern|löschen|erstellen|envoie|envoyer|commander|acheter|réserver|enregistrer|modifier|supprimer|créer|envía|enviar|comprar|reservar|guardar|cambiar|eliminar|crear|送信|注文して|購入|予約して|保存|変更|削除|作成|发送|订购|购买|预订|保存|修改|删除|创建/i;

/** @param {string} task the user's request */
export function asksForChange(task) {
  return CHANGE_EN.test(task.trim()) || CHANGE_OTHER.test(task);
}

/**
 * Why done is not believed yet, or null. One of: a write of the task was refused and not made good
 * by a retry; a write has no answer yet; the task asked for a change and nothing was written (nor a
 * job created).
 * @param {{ writes: readonly WriteEntry[], task: string, createdJobs: number }} run
 * @returns {{ code: 'WRITE_FAILED' | 'NO_ANSWER_YET' | 'NO_WRITE_SEEN', message: string } | null}
 */
export function challengeDone({ writes, task, createdJobs }) {
  // Declined writes are the user's decision, already told to the model: only what was sent counts.
  const read = readWrites(writes).filter((r) => !r.madeGood);
  const refused = read.filter((r) => r.reading.verdict === 'failed');
  if (refused.length) {
    return errorOf('WRITE_FAILED', refused.map(said).join('; '));
  }
  // A beacon never gets an answer to wait for: it stays not verified, but looking again cannot change that.
  const open = read.filter((r) => r.reading.code === 'NO_ANSWER_YET' && r.w.channel !== 'beacon');
  if (open.length) {
    return errorOf('NO_ANSWER_YET', open.map((r) => writeLine(r.w)).join('; '));
  }
  if (!read.length && createdJobs === 0 && asksForChange(task)) {
    return errorOf('NO_WRITE_SEEN');
  }
  return null;
}

/** A write with what its server said. @param {ReadWrite} r */
function said(r) {
  const words = r.reading.said && r.reading.said !== `HTTP ${r.w.status}` ? r.reading.said : null;
  return `${writeLine(r.w)}${words ? ` (the server said: ${words})` : ''}`;
}

/** The task's writes that were refused and not made good: a done that stands is flagged with them. @param {readonly WriteEntry[]} writes @returns {string[]} */
export function refusedWrites(writes) {
  return readWrites(writes).filter((r) => !r.madeGood && r.reading.verdict === 'failed').map(said);
}

/**
 * What shows the task was done without the page saying so: writes the server accepted (status and
 * body), jobs created.
 * @param {readonly WriteEntry[]} writes @param {number} createdJobs @returns {string[]}
 */
export function evidenceOf(writes, createdJobs) {
  const lines = readWrites(writes).filter((r) => r.reading.verdict === 'verified').map((r) => `${writeLine(r.w)}${r.reading.echoed?.length ? ` (${r.reading.echoed.join(', ')})` : ''}`);
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
  const lines = writes.map(stepLine);
  if (!result.ok) return { ...result, message: `${result.message} Writes: ${lines.join('; ')}.` };
  const data = result.data !== null && typeof result.data === 'object' && !Array.isArray(result.data) ? result.data : { result: result.data };
  return { ...result, data: { ...data, writes: lines } };
}

/**
 * A write as a step's result names it: its status, and what its body said when that is not what
 * the status suggests (a 200 that refused, a 202 that only queued).
 * @param {WriteEntry} w
 */
function stepLine(w) {
  const line = writeLine(w);
  if (!w.sent || !w.settled) return line;
  const [r] = readWrites([{ ...w, inTask: true }]);
  if (!r || r.reading.verdict === 'verified') return line;
  const words = r.reading.said && r.reading.said !== `HTTP ${w.status}` ? r.reading.said : null;
  if (r.reading.verdict === 'failed') return words ? `${line} (refused: ${words})` : line;
  return `${line} (not confirmed: ${words ?? ERROR_CODES[r.reading.code ?? 'ANSWER_UNREADABLE']})`;
}
