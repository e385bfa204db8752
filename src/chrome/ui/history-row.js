// One run in the History list: its title, task, when, mode, site and how it ended, a button that
// opens it and one that deletes it.
/** @import { RunSummary } from '../types/messages' */
/** @import { Outcome } from '../types/core' */
import { t } from './i18n.js';
import { shownVerdict } from './cards/receipt.js';

/**
 * How a run ended, as the column and the filter show it: the run's verdict (the same as the panel's
 * note under its answer); a run that failed or stopped is never verified; a run kept from before
 * verdicts says only that it ended, unchecked.
 * @param {RunSummary & { outcome?: Outcome }} run
 * @returns {'verified' | 'not_verified' | 'failed' | 'done' | 'stopped' | 'unchecked' | 'unknown'}
 */
export function outcomeOf(run) {
  switch (run.status) {
    case 'aborted': return 'stopped';
    case 'error': case 'step_limit': case 'loop': case 'rejected': return 'failed';
    case 'done': case 'answered': {
      // 'done': an answer with nothing to check (before verdicts, an answer without a done call).
      if (!run.outcome) return run.status === 'answered' ? 'done' : 'unchecked';
      const v = shownVerdict(run.outcome);
      return v === 'nothing' ? 'done' : v;
    }
    default: return 'unknown';
  }
}

/** @param {string} url */
export function hostOf(url) {
  try { return new URL(url).host; } catch { return ''; }
}

/** Literal keys, so the i18n test sees each. @param {ReturnType<typeof outcomeOf>} o */
function outcomeText(o) {
  switch (o) {
    case 'verified': return t('verdictVerified');
    case 'not_verified': return t('verdictNotVerified');
    case 'done': return t('historyDone');
    case 'unchecked': return t('historyVerdictFilterUnchecked');
    case 'failed': return t('verdictFailed');
    case 'stopped': return t('historyStopped');
    default: return '';
  }
}

/**
 * @param {RunSummary} run @param {Intl.DateTimeFormat} fmt
 * @param {{ open: (id: string) => void, remove: (id: string) => void }} on
 */
export function historyRow(run, fmt, on) {
  const li = document.createElement('li');
  li.dataset.run = run.id;
  li.dataset.outcome = outcomeOf(run);
  const open = document.createElement('button');
  open.type = 'button';
  open.className = 'ghost run-link';
  open.dataset.run = run.id;
  const title = document.createElement('span');
  title.className = 'title';
  title.textContent = run.title || run.url || t('historyUntitled');
  const task = document.createElement('span');
  task.className = 'task';
  task.textContent = run.task;
  open.append(title, ...(run.task ? [task] : []), meta(run, fmt));
  open.addEventListener('click', () => on.open(run.id));
  const del = document.createElement('button');
  del.type = 'button';
  del.className = 'ghost icon run-delete';
  del.title = t('historyDelete');
  del.setAttribute('aria-label', `${t('historyDelete')}: ${title.textContent}`);
  del.textContent = '×';
  del.addEventListener('click', () => on.remove(run.id));
  li.append(open, del);
  return li;
}

/** When, in which mode, on which site, and how it ended. @param {RunSummary} run @param {Intl.DateTimeFormat} fmt */
function meta(run, fmt) {
  const line = document.createElement('span');
  line.className = 'meta';
  const outcome = outcomeOf(run);
  const ended = document.createElement('span');
  ended.className = `verdict ${outcome.replace('_', '-')}`;
  ended.textContent = outcomeText(outcome);
  line.textContent = [fmt.format(run.endedAt), run.mode === 'ask' ? t('modeAsk') : run.mode === 'plan' ? t('modePlan') : t('modeAct'), hostOf(run.url)].filter(Boolean).join(' · ');
  if (ended.textContent) line.append(' · ', ended);
  return line;
}
