// A trace as a timeline, written once as HTML and used twice: the trace viewer shows it
// (ui/traces.js) and the "HTML report" export is the same markup in a self-contained file (styles
// inline, no script: <details> expands a step), so the report shows exactly what the viewer does.
// Every page-derived string is escaped; nothing in a trace becomes markup.
/** @import { ModelStep, PageDataEntry, ToolStep, Trace, TraceMessage } from '../types/traces' */
/** @import { Outcome } from '../types/core' */
import { reasonText, shortUrl, shownVerdict, verdictName } from './cards/receipt.js';

/** @typedef {(key: string, subs?: string | string[]) => string} Translate */

/** @param {unknown} s */
export function esc(s) {
  return String(s ?? '').replace(/[&<>"']/g, (c) => /** @type {Record<string, string>} */ ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

/** @param {number} ms */
export function duration(ms) {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/** @param {number | undefined} usd */
const cost = (usd) => (typeof usd === 'number' ? `$${usd < 0.01 ? usd.toFixed(5) : usd.toFixed(3)}` : '');
/** @param {number} n */
const num = (n) => n.toLocaleString('en-US');

/**
 * The trace's header and timeline.
 * @param {Trace} trace @param {Translate} t @param {string} [locale]
 */
export function renderTrace(trace, t, locale) {
  const when = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' }).format(trace.startedAt);
  const tt = trace.totals;
  const totals = t('traceTotals', [num(tt.modelCalls), num(tt.inputTokens + tt.outputTokens), duration(tt.modelMs), duration(tt.toolMs), duration(tt.pageMs), duration(tt.wallMs)]);
  const provider = trace.provider ? `${trace.provider.label} · ${trace.provider.model}` : '';
  return `<header class="trace-head" data-status="${esc(trace.status)}">
<h1 class="trace-task">${esc(trace.task || trace.title || trace.url)}</h1>
<p class="trace-meta"><span class="kind">${esc(trace.kind === 'replay' ? t('traceKindReplay') : t('traceKindAgent'))}</span> · <span class="site">${esc(trace.site)}</span> · <span class="status">${esc(trace.status)}</span> · <time>${esc(when)}</time>${provider ? ` · <span class="provider">${esc(provider)}</span>` : ''}</p>
<p class="trace-totals" data-model-calls="${tt.modelCalls}" data-tokens="${tt.inputTokens + tt.outputTokens}">${esc(totals)}${tt.costUsd !== undefined ? ` · ${esc(cost(tt.costUsd))}` : ''}</p>
${trace.error ? `<p class="trace-error"><strong>${esc(trace.error.code)}</strong> ${esc(trace.error.message)}</p>` : ''}
</header>
${outcomeSection(trace, t, locale)}
${ledger(trace, t)}
<ol class="timeline">
${trace.steps.map((s) => (s.kind === 'model' ? modelStep(trace, s, t) : toolStep(s, t))).join('\n')}
</ol>`;
}

/**
 * The run's verdict and its receipt: each write's method, address, status, what the server echoed
 * or said, and when. A trace from before verdicts has none and shows none.
 * @param {Trace & { outcome?: Outcome }} trace @param {Translate} t @param {string} [locale]
 */
function outcomeSection(trace, t, locale) {
  const o = trace.outcome;
  if (!o) return '';
  const shown = shownVerdict(o);
  const v = shown === 'nothing' ? 'not_verified' : shown;
  const reasons = o.reasons.map((r) => `<li data-code="${esc(r.code)}">${esc(reasonText(r, t))}</li>`).join('');
  const when = new Intl.DateTimeFormat(locale, { timeStyle: 'medium' });
  const rows = o.receipt.map((r) => `<tr data-verdict="${esc(r.verdict)}"><td>${esc(`${r.method} ${shortUrl(r.url)}`)}</td><td>${esc(r.status ?? t('receiptNoAnswer'))}</td><td>${esc([r.echoed?.join(', '), r.said, r.answeredBy === 'service_worker' ? t('receiptByPage') : ''].filter(Boolean).join(' · '))}</td><td>${r.at ? esc(when.format(r.at)) : ''}</td></tr>`).join('');
  const table = rows ? `<table class="receipt"><thead><tr><th>${esc(t('traceReceiptWrite'))}</th><th>${esc(t('traceReceiptStatus'))}</th><th>${esc(t('traceReceiptEvidence'))}</th><th>${esc(t('traceReceiptAt'))}</th></tr></thead><tbody>${rows}</tbody></table>` : '';
  return `<section class="outcome" data-verdict="${esc(shown)}"><h2>${esc(t('traceOutcome'))}: <span class="verdict">${esc(shown === 'nothing' ? t('reasonNothingToCheck') : verdictName(v, t))}</span></h2>
${reasons && shown !== 'nothing' ? `<ul class="reasons">${reasons}</ul>` : ''}${table}</section>`;
}

/**
 * A trace's verdict for the list: its name, and the value tests and styles read ('' before verdicts).
 * @param {{ outcome?: Outcome }} trace @param {Translate} t
 */
export function verdictPhrase(trace, t) {
  if (!trace.outcome) return { verdict: '', text: '' };
  const v = shownVerdict(trace.outcome);
  return { verdict: v, text: v === 'nothing' ? '' : verdictName(v, t) };
}

/** What page data went to which provider, over the whole run. @param {Trace} trace @param {Translate} t */
function ledger(trace, t) {
  /** @type {Map<string, Map<string, number>>} */
  const where = new Map();
  for (const s of trace.steps) {
    if (s.kind !== 'model') continue;
    const to = s.provider.origin || s.provider.label;
    const pages = where.get(to) ?? new Map();
    for (const p of s.pageData) if (p.fresh) pages.set(p.url, (pages.get(p.url) ?? 0) + p.chars);
    where.set(to, pages);
  }
  if (!where.size) return '';
  const rows = [...where].flatMap(([to, pages]) => [...pages].map(([url, chars]) => `<tr><td>${esc(to)}</td><td>${esc(url)}</td><td>${num(chars)}</td></tr>`));
  return `<section class="ledger"><h2>${esc(t('traceLedger'))}</h2><table><thead><tr><th>${esc(t('traceLedgerTo'))}</th><th>${esc(t('traceLedgerPage'))}</th><th>${esc(t('traceLedgerChars'))}</th></tr></thead><tbody>${rows.join('')}</tbody></table></section>`;
}

/** @param {Trace} trace @param {ModelStep} s @param {Translate} t */
function modelStep(trace, s, t) {
  const tokens = s.usage ? t('traceTokens', [num(s.usage.inputTokens), num(s.usage.outputTokens)]) : '';
  const fresh = s.pageData.filter((p) => p.fresh).length;
  const calls = s.reply.toolCalls.map((c) => c.name).join(', ');
  const summary = [`<span class="kind">${esc(t('traceModelStep'))}</span>`, esc(s.provider.model), esc(s.provider.origin), tokens && esc(tokens), cost(s.costUsd), duration(s.ms),
    esc(t('tracePageDataCount', [String(s.pageData.length), String(fresh)])), calls ? `→ ${esc(calls)}` : ''].filter(Boolean).join(' · ');
  const messages = s.messages.map((i) => trace.messages[i]).filter(Boolean);
  return `<li class="step model${s.error ? ' error' : ''}" data-kind="model" data-i="${s.i}" data-purpose="${esc(s.purpose)}"><details><summary>${summary}</summary>
${s.error ? `<p class="step-error"><strong>${esc(s.error.code)}</strong> ${esc(s.error.message)}</p>` : ''}
<h3>${esc(t('tracePageData'))}</h3>
<ul class="page-data">${s.pageData.map((p) => pageDataLine(p, t)).join('')}</ul>
<h3>${esc(t('traceToolsOffered'))}</h3><p class="tools">${esc(s.tools.join(', ') || '—')} (${num(s.toolChars)})</p>
<h3>${esc(t('traceMessages'))}</h3>
${messages.map((m) => messageBlock(m)).join('\n')}
<h3>${esc(t('traceReply'))}</h3>
${s.reply.text ? `<pre class="reply">${esc(s.reply.text)}</pre>` : ''}
${s.reply.toolCalls.map((c) => `<pre class="call">${esc(c.name)} ${esc(c.arguments)}</pre>`).join('')}
</details></li>`;
}

/** @param {PageDataEntry} p @param {Translate} t */
function pageDataLine(p, t) {
  const what = p.source === 'system' ? t('traceSystemPrompt') : p.source === 'image' ? t('traceImage') : p.tool ?? '';
  return `<li data-source="${p.source}" data-fresh="${p.fresh}"><span class="what">${esc(what)}</span> ${esc(p.url)} · ${num(p.chars)} · ${esc(p.fresh ? t('traceNew') : t('traceAgain'))}</li>`;
}

/** @param {TraceMessage} m */
function messageBlock(m) {
  const text = typeof m.content === 'string' ? m.content : m.content.map((c) => (c.type === 'text' ? c.text : `[image ${c.mediaType}${'bytes' in c ? `, ${num(c.bytes)} bytes` : ''}]`)).join('\n');
  const thumbs = Array.isArray(m.content) ? m.content.map((c) => ('thumbnail' in c && c.thumbnail ? `<img class="thumb" alt="" src="${esc(c.thumbnail)}">` : '')).join('') : '';
  const calls = m.toolCalls?.length ? `\n${m.toolCalls.map((c) => `→ ${c.name} ${c.arguments}`).join('\n')}` : '';
  return `<details class="message" data-role="${esc(m.role)}"><summary>${esc(m.role)}${m.name ? ` · ${esc(m.name)}` : ''} · ${num(text.length)}</summary><pre>${esc(text + calls)}</pre>${thumbs}</details>`;
}

/** @param {ToolStep} s @param {Translate} t */
function toolStep(s, t) {
  const failed = s.result && !s.result.ok;
  const target = s.target ? ` ${s.target.role} "${s.target.name}"` : '';
  const replay = s.replay ? ` · ${t('traceReplayStep', [String(s.replay.step + 1)])}${s.replay.repaired ? ` · ${t('traceRepaired')}` : ''}` : '';
  const summary = [`<span class="kind">${esc(t('traceToolStep'))}</span>`, `<span class="tool">${esc(s.name)}</span>${esc(target)}`, duration(s.ms), esc(s.time === 'page' ? t('tracePageTime') : t('traceToolTime')), esc(s.url)].join(' · ') + esc(replay);
  const result = s.result ? (s.result.ok ? JSON.stringify(s.result.data, null, 2) : `${s.result.code}: ${s.result.message}`) : '';
  return `<li class="step tool${failed ? ' error' : ''}" data-kind="tool" data-tool="${esc(s.name)}" data-i="${s.i}"><details><summary>${summary}</summary>
<h3>${esc(t('traceArgs'))}</h3><pre class="args">${esc(JSON.stringify(s.args, null, 2))}</pre>
<h3>${esc(t('traceResult'))}</h3><pre class="result">${esc(result)}</pre>
${s.outlineHash ? `<p class="hash">${esc(t('traceOutline'))} ${esc(s.outlineHash)}</p>` : ''}
${s.thumbnail ? `<img class="thumb" alt="" src="${esc(s.thumbnail)}">` : ''}
</details></li>`;
}

/** The report's styles: the viewer loads the same rules. */
export const REPORT_CSS = `
body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:16px;color:#1d2330;background:#fff}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px}h3{font-size:13px;margin:10px 0 4px}
.trace-meta,.trace-totals{margin:2px 0;color:#4a5263}.trace-error,.step-error{color:#a1221b}
.ledger table{border-collapse:collapse;width:100%;font-size:12px}.ledger td,.ledger th{border:1px solid #d7dbe3;padding:3px 6px;text-align:left;word-break:break-all}
.timeline{list-style:none;padding:0;margin:12px 0}.step{border:1px solid #d7dbe3;border-left:4px solid #6b7a99;border-radius:6px;margin:6px 0;padding:4px 8px}
.step.model{border-left-color:#5b5bd6}.step.tool{border-left-color:#2f8f6b}.step.error{border-left-color:#c4312a;background:#fff4f3}
.step summary{cursor:pointer}.kind{font-weight:600}
pre{white-space:pre-wrap;word-break:break-word;background:#f5f6f8;border-radius:4px;padding:6px;max-height:420px;overflow:auto;font-size:12px}
.page-data{font-size:12px;padding-left:18px}.page-data [data-fresh=false]{color:#6b7280}.thumb{max-width:240px;border:1px solid #d7dbe3;margin:4px 0}
.message{margin:2px 0 2px 8px}
.outcome{border:1px solid #d7dbe3;border-left:4px solid #8a5a00;border-radius:6px;padding:4px 10px;margin:10px 0}.outcome[data-verdict=verified]{border-left-color:#1e7d3a}.outcome[data-verdict=failed]{border-left-color:#c4312a}.outcome[data-verdict=nothing]{border-left-color:#6b7a99}
.outcome h2{margin:4px 0}.receipt{border-collapse:collapse;width:100%;font-size:12px}.receipt td,.receipt th{border:1px solid #d7dbe3;padding:3px 6px;text-align:left;word-break:break-all}.receipt tr[data-verdict=failed]{color:#a1221b}
@media (prefers-color-scheme: dark){body{background:#15181f;color:#e6e8ee}.trace-meta,.trace-totals{color:#a9b0bf}pre{background:#1f232c}.step{border-color:#343a48}.step.error{background:#2a1716}.ledger td,.ledger th,.receipt td,.receipt th,.outcome{border-color:#343a48}.receipt tr[data-verdict=failed]{color:#ff8a80}}
`;

/**
 * The whole self-contained report file.
 * @param {Trace} trace @param {Translate} t @param {string} [locale]
 */
export function traceReportHtml(trace, t, locale) {
  return `<!doctype html>
<html lang="${esc(locale ?? 'en')}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(t('traceReportTitle', [trace.task.slice(0, 80) || trace.site]))}</title>
<style>${REPORT_CSS}</style></head>
<body class="trace-report" data-trace="${esc(trace.id)}">
${renderTrace(trace, t, locale)}
</body></html>
`;
}

/**
 * Is this (parsed JSON) a trace the viewer can show? Checks the shape, not the content.
 * @param {unknown} v @returns {v is Trace}
 */
export function isTrace(v) {
  const x = /** @type {any} */ (v);
  return Boolean(x && x.v === 1 && typeof x.id === 'string' && Array.isArray(x.steps) && Array.isArray(x.messages) && x.totals && typeof x.startedAt === 'number'
    && x.steps.every((/** @type {any} */ s) => s && (s.kind === 'model' || s.kind === 'tool') && typeof s.i === 'number'));
}
