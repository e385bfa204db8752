// The runs overview in the panel: every active run (its task, tab, state, who started it, its tab
// group, the card it waits on, Stop) and the work queued for a free slot. The router pushes the
// list to every panel ({ type: 'runs' }, service/runs-overview.js); a card shown here answers the
// run in its own tab, like the same card in that tab's panel. Nothing here brings a tab to the
// front except the person's own "Show tab".
/** @import { RunRow, QueuedRow, TranscriptItem, RouterRequest, RouterReply } from '../types/messages' */
/** @import { CardContext } from './cards/card-context.js' */
import { fillRunCost } from './spend-format.js';

/**
 * @param {object} deps
 * @param {HTMLElement} deps.view the overview's section
 * @param {HTMLButtonElement} deps.button the header button that opens it (shows the count)
 * @param {(key: string, subs?: string | string[]) => string} deps.t
 * @param {(req: RouterRequest) => Promise<RouterReply<any>>} deps.request
 * @param {(item: TranscriptItem, ctx: CardContext) => HTMLElement | null} deps.card renders a waiting card for another tab
 */
export function createRunsOverview({ view, button, t, request, card }) {
  const list = /** @type {HTMLUListElement} */ (view.querySelector('.run-rows'));
  const empty = /** @type {HTMLElement} */ (view.querySelector('.runs-empty'));
  const count = /** @type {HTMLElement} */ (button.querySelector('.runs-count'));
  /** Each row's element and the data it was drawn from: unchanged rows keep their element (and what is typed in their card). @type {Map<string, { json: string, el: HTMLElement }>} */
  const drawn = new Map();

  /** The latest list the background pushed. @type {{ runs: RunRow[], queued: QueuedRow[] }} */
  let latest = { runs: [], queued: [] };

  /** @param {{ runs: RunRow[], queued: QueuedRow[] }} data */
  function show(data) {
    latest = data;
    const { runs, queued } = data;
    count.textContent = runs.length || queued.length ? String(runs.length + queued.length) : '';
    button.dataset.runs = String(runs.length);
    button.dataset.queued = String(queued.length);
    // Rows (and their cards) exist only while the overview is open: a closed one keeps no second,
    // hidden copy of a card the tab's own transcript shows.
    if (!view.hidden) draw();
  }

  function draw() {
    const { runs, queued } = latest;
    const rows = [...runs.map((r) => /** @type {const} */ ([`run:${r.tabId}`, r, () => runRow(r)])), ...queued.map((q) => /** @type {const} */ ([`queued:${q.id}`, q, () => queuedRow(q)]))];
    /** @type {HTMLElement[]} */
    const els = [];
    for (const [key, data, make] of rows) {
      const json = JSON.stringify(data);
      let d = drawn.get(key);
      if (!d || d.json !== json) { d = { json, el: make() }; drawn.set(key, d); }
      els.push(d.el);
    }
    for (const key of [...drawn.keys()]) if (!rows.some(([k]) => k === key)) drawn.delete(key);
    list.replaceChildren(...els);
    empty.hidden = els.length > 0;
  }

  /** @param {RunRow} r */
  function runRow(r) {
    const li = el('li', 'run-row');
    Object.assign(li.dataset, { tabId: String(r.tabId), phase: r.phase, kind: r.kind });
    const head = el('div', 'run-head');
    head.append(el('strong', 'run-task', r.task), el('span', 'run-state', phaseText(r)));
    // What the run has spent so far (tokens; money when the model's price is known).
    const cost = el('span', 'run-cost');
    cost.dataset.runCost = '';
    cost.dataset.tabId = String(r.tabId);
    fillRunCost(cost, r.cost ?? null, t, browser.i18n.getUILanguage());
    head.append(cost);
    li.append(head, el('p', 'run-where', whereText(r)));
    if (r.group) li.append(groupLine(r.group));
    if (r.waiting) {
      const c = card(r.waiting, { t, request, tabId: () => r.tabId });
      if (c) { c.dataset.id = r.waiting.id; li.append(c); }
    }
    const actions = el('div', 'run-actions');
    const showTab = el('button', 'ghost run-show', t('runsShowTab'));
    // The person asked: this is the one place a run's tab comes to the front.
    showTab.addEventListener('click', async () => {
      const tab = await browser.tabs.update(r.tabId, { active: true }).catch(() => undefined);
      if (tab?.windowId !== undefined) await browser.windows.update(tab.windowId, { focused: true }).catch(() => {});
    });
    const stop = el('button', 'danger run-stop', t('stop'));
    stop.addEventListener('click', () => { void request({ type: 'chat.stop', tabId: r.tabId }); });
    actions.append(showTab, stop);
    li.append(actions);
    return li;
  }

  /** @param {QueuedRow} q */
  function queuedRow(q) {
    const li = el('li', 'run-row queued');
    Object.assign(li.dataset, { queuedId: q.id, kind: q.kind });
    const head = el('div', 'run-head');
    head.append(el('strong', 'run-task', q.title), el('span', 'run-state', t('runsQueued')));
    li.append(head, el('p', 'run-where', t('runsQueuedWhy', String(q.limit))));
    return li;
  }

  /** @param {RunRow} r */
  function phaseText(r) {
    if (r.phase === 'waiting') return t('runsWaiting');
    if (r.phase === 'starting') return t('runsStarting');
    return r.phase === 'acting' ? t('runsActing') : t('runsWorking');
  }

  /** @param {RunRow} r */
  function whereText(r) {
    const who = r.kind === 'job' ? t('runsByJob', r.label ?? '') : r.kind === 'mcp' ? t('runsByMcp', r.label ?? '') : t('runsByYou');
    return `${who} · ${r.tab.title || r.tab.url}`;
  }

  /** The run's tabs: the browser's tab group, or a labelled set where the browser has none. @param {NonNullable<RunRow['group']>} g */
  function groupLine(g) {
    const p = el('p', 'run-group', g.grouped ? t('runsGroup', [g.title, String(g.tabs.length)]) : t('runsSet', [g.title, String(g.tabs.length)]));
    p.dataset.grouped = String(g.grouped);
    p.dataset.tabs = g.tabs.join(',');
    return p;
  }

  /** @param {boolean} open */
  function toggle(open) {
    view.hidden = !open;
    button.setAttribute('aria-pressed', String(open));
    if (open) {
      draw();
      void request({ type: 'runs.list' }).then((r) => { if (r.ok) show(r.data); });
    } else {
      list.replaceChildren();
      drawn.clear();
    }
  }

  return { show, toggle, get open() { return !view.hidden; } };
}

/** @param {string} tag @param {string} className @param {string} [text] */
function el(tag, className, text) {
  const e = document.createElement(tag);
  e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}
