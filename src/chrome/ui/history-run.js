// One past run opened in History, read-only: its items as the panel showed them, Back, Export, and
// the run's trace and the run compiled into a workflow for review.
/** @import { RunRecord, TranscriptItem } from '../types/messages' */
import { hideRepeatedNotices } from './cards/notice-card.js';
import { t } from './i18n.js';
import { saveJson } from './save-file.js';

/**
 * @param {RunRecord} run @param {(item: TranscriptItem) => HTMLElement} render
 * @param {() => void} onBack
 * @returns {{ nodes: HTMLElement[], back: HTMLButtonElement }}
 */
export function historyRun(run, render, onBack) {
  const back = document.createElement('button');
  back.type = 'button';
  back.className = 'ghost';
  back.textContent = t('historyBack');
  back.addEventListener('click', onBack);
  const exportRun = document.createElement('button');
  exportRun.type = 'button';
  exportRun.className = 'ghost run-export';
  exportRun.textContent = t('historyExport');
  exportRun.addEventListener('click', () => saveJson(`tabwright-run-${run.id}.json`, run));
  const bar = document.createElement('div');
  bar.className = 'run-bar';
  bar.append(back, exportRun);
  const items = document.createElement('div');
  items.className = 'items';
  items.append(...run.items.map(render));
  hideRepeatedNotices(items);
  const open = (/** @type {string} */ path) => () => browser.tabs.create({ url: browser.runtime.getURL(path) });
  const actions = document.createElement('div');
  actions.className = 'run-actions';
  actions.append(
    Object.assign(document.createElement('button'), { type: 'button', className: 'ghost save-workflow', textContent: t('historySaveWorkflow'), onclick: open(`ui/workflows.html?fromRun=${encodeURIComponent(run.id)}`) }),
    Object.assign(document.createElement('button'), { type: 'button', className: 'ghost open-trace', textContent: t('historyOpenTrace'), onclick: open(`ui/traces.html#${encodeURIComponent(run.id)}`) }),
  );
  return { nodes: [bar, actions, items], back };
}
