// The trace viewer: every traced run, searchable by text, site, status and date; one run
// as a timeline (ui/trace-report.js) with the page data each request carried; export as JSON or as a
// self-contained HTML report; a JSON file imported to view (not stored). Opened from the panel's
// history (ui/traces.html#<run id>) and from Settings.
/** @import { Trace, TraceSummary } from '../types/traces' */
/** @import { RouterReply, RouterRequest } from '../types/messages' */
import { t, localize } from './i18n.js';
import { REPORT_CSS, isTrace, renderTrace, traceReportHtml, verdictPhrase } from './trace-report.js';
import { saveFile } from './save-file.js';
import { detailOf } from '../agent/error-codes.js';

const $ = (/** @type {string} */ id) => /** @type {any} */ (document.getElementById(id));
const locale = browser.i18n.getUILanguage();
/** @type {TraceSummary[]} */
let all = [];
/** The trace shown, and whether it came from a file. @type {{ trace: Trace, imported: boolean } | null} */
let shown = null;

/** @template T @param {RouterRequest} req @returns {Promise<RouterReply<T>>} */
async function request(req) {
  try { return await browser.runtime.sendMessage(req); } catch (err) {
    return { ok: false, code: 'NO_BACKGROUND', message: `${t('errNoBackground')} (${err instanceof Error ? err.message : err})` };
  }
}

/** @param {string} text */
const status = (text) => { $('page-status').textContent = text; };

async function loadList() {
  const r = await request({ type: 'traces.list' });
  all = r.ok ? /** @type {TraceSummary[]} */ (r.data) : [];
  if (!r.ok) status(r.message);
  fillChoices('site', [...new Set(all.map((x) => x.site).filter(Boolean))].sort());
  fillChoices('status', [...new Set(all.map((x) => x.status))].sort());
  renderList();
}

/** @param {string} id @param {string[]} values */
function fillChoices(id, values) {
  const select = /** @type {HTMLSelectElement} */ ($(id));
  const keep = select.value;
  select.replaceChildren(select.options[0], ...values.map((v) => Object.assign(document.createElement('option'), { value: v, textContent: v })));
  select.value = values.includes(keep) ? keep : '';
}

/** The traces the filters let through. */
function filtered() {
  const q = String($('q').value).trim().toLowerCase();
  const site = $('site').value;
  const st = $('status').value;
  const from = $('from').value ? new Date(`${$('from').value}T00:00:00`).getTime() : -Infinity;
  const to = $('to').value ? new Date(`${$('to').value}T23:59:59.999`).getTime() : Infinity;
  return all.filter((x) => (!q || `${x.task} ${x.title} ${x.url} ${x.error?.message ?? ''}`.toLowerCase().includes(q))
    && (!site || x.site === site) && (!st || x.status === st) && x.startedAt >= from && x.startedAt <= to);
}

function renderList() {
  const items = filtered();
  const when = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  $('empty').hidden = all.length > 0;
  /** @type {HTMLUListElement} */ ($('traces')).replaceChildren(...items.map((x) => {
    const li = document.createElement('li');
    li.dataset.trace = x.id;
    li.dataset.status = x.status;
    const verdict = verdictPhrase(/** @type {{ outcome?: import('../types/core').Outcome }} */ (/** @type {unknown} */ (x)), t);
    if (verdict.verdict) li.dataset.verdict = verdict.verdict;
    const open = document.createElement('button');
    open.type = 'button';
    open.className = 'open';
    const title = Object.assign(document.createElement('span'), { className: 'title', textContent: x.task || x.title || x.url });
    const meta = Object.assign(document.createElement('span'), { className: 'meta' });
    meta.textContent = `${when.format(x.startedAt)} · ${x.site} · ${x.status}${verdict.text ? ` · ${verdict.text}` : ''}${x.error ? ` · ${detailOf(x.error.code, x.error.message).slice(0, 160)}` : ''} · ${x.kind === 'replay' ? t('traceKindReplay') : t('traceKindAgent')} · ${t('traceListTotals', [String(x.totals.modelCalls), String(x.totals.inputTokens + x.totals.outputTokens), String(x.totals.toolCalls)])}`;
    open.append(title, meta);
    open.addEventListener('click', () => { location.hash = encodeURIComponent(x.id); });
    li.append(open);
    return li;
  }));
}

/** @param {Trace} trace @param {boolean} imported */
function showTrace(trace, imported) {
  shown = { trace, imported };
  $('list-view').hidden = true;
  $('trace-view').hidden = false;
  $('imported').hidden = !imported;
  $('imported').textContent = imported ? t('traceImported') : '';
  $('delete').hidden = imported;
  $('save-workflow').hidden = imported;
  // The markup is built from escaped strings only (trace-report.js); parsed inert, then adopted.
  const doc = new DOMParser().parseFromString(`<body>${renderTrace(trace, t, locale)}</body>`, 'text/html');
  $('trace').replaceChildren(...doc.body.childNodes);
  document.title = `${t('tracesTitle')} · ${trace.task.slice(0, 60)}`;
  document.body.dataset.view = 'trace';
}

function showList() {
  shown = null;
  $('list-view').hidden = false;
  $('trace-view').hidden = true;
  document.title = t('tracesTitle');
  document.body.dataset.view = 'list';
}

async function route() {
  const id = decodeURIComponent(location.hash.slice(1));
  if (!id) { showList(); await loadList(); return; }
  if (shown?.trace.id === id) return;
  const r = await request({ type: 'traces.get', id });
  if (r.ok) showTrace(/** @type {Trace} */ (r.data), false);
  else { status(r.message); showList(); await loadList(); }
}

/** @param {string} text @param {string} type @param {string} name */
const download = (text, type, name) => saveFile(name, text, type);

/** @param {Trace} trace */
const fileName = (trace) => `tabwright-trace-${trace.site.replace(/[^a-z0-9.-]+/gi, '_') || 'run'}-${new Date(trace.startedAt).toISOString().slice(0, 19).replace(/[:T]/g, '-')}`;

$('export-json').addEventListener('click', () => { if (shown) download(JSON.stringify(shown.trace, null, 2), 'application/json', `${fileName(shown.trace)}.json`); });
$('export-html').addEventListener('click', () => { if (shown) download(traceReportHtml(shown.trace, t, locale), 'text/html', `${fileName(shown.trace)}.html`); });
$('back').addEventListener('click', () => { if (location.hash) location.hash = ''; else { showList(); void loadList(); } });
$('delete').addEventListener('click', async () => {
  if (!shown || shown.imported) return;
  await request({ type: 'history.delete', id: shown.trace.id });
  location.hash = '';
});
$('save-workflow').addEventListener('click', () => {
  if (shown) void browser.tabs.create({ url: browser.runtime.getURL(`ui/workflows.html?fromRun=${encodeURIComponent(shown.trace.id)}`) });
});
$('import').addEventListener('change', async (/** @type {Event} */ e) => {
  const file = /** @type {HTMLInputElement} */ (e.target).files?.[0];
  if (!file) return;
  /** @type {unknown} */
  let data = null;
  try { data = file.size < 50_000_000 ? JSON.parse(await file.text()) : null; } catch { data = null; }
  /** @type {HTMLInputElement} */ (e.target).value = '';
  if (!isTrace(data)) { status(t('traceBadFile')); return; }
  status('');
  showTrace(data, true);
});
$('filters').addEventListener('input', renderList);
$('filters').addEventListener('submit', (/** @type {Event} */ e) => e.preventDefault());
window.addEventListener('hashchange', () => { void route(); });

localize();
document.head.append(Object.assign(document.createElement('style'), { textContent: REPORT_CSS.replace(/(^|\})\s*body\{[^}]*\}/, '$1') }));
route().then(() => { document.body.dataset.ready = 'true'; });
