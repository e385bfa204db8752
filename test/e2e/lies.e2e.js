// The lying-page corpus (test/fixtures/lies/) in both browsers, through the real panel: every page
// shows success whatever its server did, and two rule-based models believe it (obedient accepts a
// challenge and says it could not confirm; stubborn repeats done). Every page runs in a real browser,
// every kind of lie runs in both and meets both models (behavioursOf); every page meets both models
// at unit level (test/unit/lies-decisions.test.js). Asserted for every run: the panel never shows Verified (nor "Checked", nor a green done) on a lie; the run ends
// Not verified or Failed in the panel, in History and in the trace; no identical write reaches the
// server twice (the test user declines a duplicate card). The honest controls end Verified with a
// receipt; the read-only question shows no warning. The pages run a few at a time in one loop per
// model, on the one browser the harness shares. A summary goes to test-artifacts/lies-<browser>.json.
import { mkdir, writeFile } from 'node:fs/promises';
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { QUICK_SETTLE_MS, answerPending, ask, useMockProvider, useSettle } from './harness/env.js';
import { arrive, leave, places, pool } from './harness/places.js';
import { startLies, duplicates } from '../fixtures/lies/server.js';
import { liesPolicy, taskText } from '../fixtures/lies/policies.js';
import { CASES, LIE_TYPES } from '../fixtures/lies/cases.js';
import { inPart, partOf, partSuffix, partTitle } from './harness/parts.js';

/** @import { TestEnv } from './harness/env.js' */
/** @import { Case } from '../fixtures/lies/cases.js' */
/** @import { LiesServer } from '../fixtures/lies/server.js' */
/** @import { Place } from './harness/places.js' */
/** @typedef {import('../fixtures/lies/policies.js').Behaviour} Behaviour */
/**
 * @typedef {object} LieRun
 * @property {string} id
 * @property {string} lie
 * @property {Behaviour} behaviour
 * @property {string} panel the verdict under the answer ('' when none)
 * @property {string} history
 * @property {string} trace
 * @property {boolean} green something in the panel vouched for the run
 * @property {number} receipt the receipt's entries
 * @property {number} duplicates
 * @property {number} cards
 * @property {number} ms from opening the page to the checks done
 * @property {string} record the run's id in History and Traces ('' when none)
 * @property {string[]} problems
 */

const POOL = 4;

const MODELS = /** @type {const} */ (['stubborn', 'obedient']);

/**
 * The models a page runs with in this browser. What a page lies about is judged from what its server
 * answered, the same whichever model believed it; the two models differ only after Tabwright's
 * challenge (accept it, or repeat done). So each page runs once per browser at most:
 * - a kind's only page runs in both browsers, with one model in each (which one alternates from
 *   kind to kind, so each browser meets both models);
 * - the pages of a kind with several are shared between the browsers (every page runs in one, the
 *   kind in both), and the models take turns, so the kind meets both;
 * - the honest controls run in both browsers, the models taking turns.
 * Every page of a kind with several also runs with both models at unit level
 * (test/unit/lies-decisions.test.js), through the real loop, policy, hold and ledger.
 * @param {Case} c @param {'chromium' | 'firefox'} browser @returns {Behaviour[]}
 */
function behavioursOf(c, browser) {
  const kin = CASES.filter((x) => x.lie === c.lie);
  const i = kin.indexOf(c);
  const second = browser === 'firefox' ? 1 : 0;
  if (c.lie === 'honest') return [MODELS[(i + second) % 2]];
  const k = LIE_TYPES.indexOf(c.lie);
  if (kin.length === 1) return [MODELS[(k + second) % 2]];
  return i % 2 === second ? [MODELS[(k + i) % 2]] : [];
}
/** npm test splits the pages over several processes (harness/parts.js); a hand run has them all. */
const PART = partOf(import.meta.url);
const OK_FOR_A_LIE = ['not_verified', 'failed'];

/**
 * A page that does everything inside the step that causes it (no timer on the page or its server,
 * no socket or service worker answering on its own time) changes nothing after the run's last step:
 * its runs end after the shortest settle period the settings allow. The rest (the autosave, the
 * rollback redrawn 3 s later, the refusal 4 and 6 s later, the hasty second order, the toast before
 * its request, the job that fails a second later) keep the product's own 5 s, which is what their
 * verdicts rest on.
 * @param {Case} c
 */
function quick(c) {
  const source = `${c.script ?? ''} ${Object.values(c.api ?? {}).map(String).join(' ')} ${c.sw ?? ''}`;
  return !/setTimeout|setInterval|delayMs|Date\.now/.test(source) && !c.ws && !c.sw;
}

scenario(`lying pages${partTitle(PART)}`, (ctx) => {
  /** @type {LiesServer} */
  let lies;
  /** @type {Record<string, LieRun[]>} */
  const report = {};
  before(async () => {
    lies = await startLies();
    expect(CASES.filter((c) => c.lie !== 'honest').length, 'lying pages').to.be.at.least(25);
    expect(LIE_TYPES.length, 'lie types').to.be.at.least(12);
    await useMockProvider(ctx.env);
    const r = await ask(ctx.env.control, { type: 'settings.set', settings: { sites: { allow: [new URL(lies.url).host], confirm: [] }, maxSteps: 20 } });
    expect(r.ok, r.message).to.equal(true);
  });
  after(async function () {
    this.timeout(30_000);
    await ask(ctx.env.control, { type: 'settings.set', settings: { sites: { allow: [], confirm: [] }, maxSteps: 100 } });
    await lies?.close();
    await mkdir('test-artifacts', { recursive: true });
    await writeFile(`test-artifacts/lies-${ctx.kind}${partSuffix(PART)}.json`, JSON.stringify(summarise(report), null, 2));
    console.log(`      lying pages [${ctx.kind}]${partTitle(PART)}: ${JSON.stringify(summarise(report).totals)}`);
  });

  for (const behaviour of /** @type {Behaviour[]} */ (['obedient', 'stubborn'])) {
    it(`${behaviour} model: no lie is Verified, each ends Not verified or Failed in the panel, History and the trace; no duplicate write; the honest pages are Verified with a receipt`, async function () {
      this.timeout(600_000);
      const { env } = ctx;
      env.llm.usePolicy(liesPolicy(behaviour, CASES));
      // The part is taken before the model's filter, so a page is in the same part for both models.
      const mine = inPart(PART, CASES).filter((c) => behavioursOf(c, ctx.kind).includes(behaviour));
      // Each of the pool's places keeps its tab and panel from page to page (harness/places.js).
      const here = places(POOL);
      const run = (/** @type {Case} */ c, /** @type {number} */ w) => runCase(env, lies, c, behaviour, here[w]);
      let runs;
      try {
        await useSettle(env, QUICK_SETTLE_MS);
        const fast = await pool(mine.filter(quick), POOL, run);
        await useSettle(env, null);
        runs = [...fast, ...await pool(mine.filter((c) => !quick(c)), POOL, run)];
      } finally {
        await useSettle(env, null);
        await Promise.all(here.map(leave));
      }
      report[behaviour] = runs;
      for (const r of runs) console.log(`        ${r.problems.length ? '✗' : '✓'} ${r.id.padEnd(22)} ${r.lie.padEnd(22)} panel=${r.panel || '-'} history=${r.history || '-'} trace=${r.trace || '-'} receipt=${r.receipt} dup=${r.duplicates} ${(r.ms / 1000).toFixed(1)} s`);
      expect(env.llm.problems).to.deep.equal([]);
      const problems = runs.flatMap((r) => r.problems.map((p) => `${r.id} (${r.lie}): ${p}`));
      problems.push(...await shownInHistoryAndTraces(env, runs));
      expect(problems, problems.join('\n')).to.deep.equal([]);
    });
  }
});

/**
 * One page, one model, through the panel; the test user allows each card but a duplicate.
 * @param {TestEnv} env @param {LiesServer} lies @param {Case} c @param {Behaviour} behaviour @param {Place} place
 * @returns {Promise<LieRun>}
 */
async function runCase(env, lies, c, behaviour, place) {
  lies.reset(c.id);
  const url = lies.pageUrl(c.id);
  const started = Date.now();
  /** @type {string[]} */
  const problems = [];
  let cards = 0;
  try {
    const { page, panel } = await arrive(env, place, url);
    await page.waitFor(() => document.body.dataset.ready === 'true', undefined, { timeout: 20_000, message: `${c.id}: the page to be ready` });
    const runs = Number(await panel.evaluate(() => document.body.dataset.runs ?? 0));
    await panel.evaluate((m) => /** @type {HTMLInputElement} */ (document.querySelector(`input[name=mode][value=${m}]`)).click(), c.mode ?? 'act');
    await panel.fill('#prompt', taskText(c));
    await panel.click('#send');
    cards = await answerCards(panel, runs, problems);
    const seen = await panel.evaluate(readPanel);
    const green = seen.verified > 0 || /\bChecked\b/.test(seen.text) || seen.greenDone > 0;
    const rec = await recordOf(env, c, started);
    const history = rec ? verdictOfRecord(rec) : '';
    const trace = rec ? await traceVerdict(env, rec.id) : '';
    const dup = duplicates(lies.arrivedOf(c.id));
    if (dup) problems.push(`${dup} duplicate write(s) reached the server: ${JSON.stringify(lies.arrivedOf(c.id))}`);
    if (!rec) problems.push('no run in the history');
    problems.push(...judge(c, { ...seen, green }, rec ? { history, trace } : null, () => c.done(lies.storeOf(c.id))));
    return { id: c.id, lie: c.lie, behaviour, panel: seen.verdict, history, trace, green, receipt: seen.receipt, duplicates: dup, cards, ms: Date.now() - started, record: rec?.id ?? '', problems };
  } catch (err) {
    problems.push(`the run broke: ${err instanceof Error ? err.message : err}`);
    return { id: c.id, lie: c.lie, behaviour, panel: '', history: '', trace: '', green: false, receipt: 0, duplicates: 0, cards, ms: Date.now() - started, record: '', problems };
  } finally {
    // A run that went wrong leaves nothing behind for the next page: its place opens a new tab and panel.
    if (problems.length) await leave(place);
  }
}

/**
 * What is wrong with what the panel, History and the trace say of one page's run: a lie is never
 * vouched for, a read-only answer has no verdict, an honest write is Verified with a receipt.
 * @param {Case} c @param {Awaited<ReturnType<typeof readPanel>> & { green: boolean }} seen
 * @param {{ history: string, trace: string } | null} rec the run's verdicts in History and its trace, if it was recorded
 * @param {() => boolean} done whether the server did the honest task
 * @returns {string[]}
 */
function judge(c, seen, rec, done) {
  /** @type {string[]} */
  const problems = [];
  if (c.lie !== 'honest') {
    if (seen.green) problems.push(`the panel vouched for a lie (${seen.verified} Verified, ${seen.greenDone} green done; "${seen.note}")`);
    if (!OK_FOR_A_LIE.includes(seen.verdict)) problems.push(`the panel shows "${seen.verdict || 'no verdict'}" (final: "${seen.final.slice(0, 120)}")`);
    if (rec && !OK_FOR_A_LIE.includes(rec.history)) problems.push(`History says "${rec.history || 'no verdict'}"`);
    if (rec && !OK_FOR_A_LIE.includes(rec.trace)) problems.push(`the trace says "${rec.trace || 'no verdict'}"`);
  } else if (c.mode === 'ask') {
    if (seen.verdict) problems.push(`a read-only answer shows a verdict note ("${seen.note}")`);
  } else {
    if (seen.verdict !== 'verified') problems.push(`an honest page ends "${seen.verdict || 'no verdict'}" in the panel ("${seen.note}")`);
    if (seen.receipt < 1 || !seen.exportButton) problems.push(`Verified without a receipt to open and export (${seen.receipt} entries)`);
    if (rec && rec.history !== 'verified') problems.push(`History says "${rec.history}"`);
    if (rec && rec.trace !== 'verified') problems.push(`the trace says "${rec.trace}"`);
    if (!done()) problems.push('the server did not do it');
  }
  return problems;
}

/**
 * What a person sees of these runs in the panel's History (the outcome column) and in the trace
 * viewer (the Outcome section and its receipt): a lie never reads Verified, an honest page does.
 * @param {TestEnv} env @param {LieRun[]} runs @returns {Promise<string[]>}
 */
async function shownInHistoryAndTraces(env, runs) {
  /** @type {string[]} */
  const problems = [];
  const panel = await env.browser.openExtensionPage('ui/panel.html');
  try {
    await panel.click('#history-toggle');
    await panel.waitFor(() => Boolean(document.querySelector('#history .run-link')), undefined, { message: 'the history list' });
    const rows = await panel.evaluate(() => Object.fromEntries([...document.querySelectorAll('#history .runs li[data-run]')].map((li) => [/** @type {HTMLElement} */ (li).dataset.run, { outcome: /** @type {HTMLElement} */ (li).dataset.outcome, text: li.querySelector('.verdict')?.textContent ?? '' }])));
    for (const r of runs.filter((x) => x.record)) {
      const row = rows[r.record];
      const want = r.lie !== 'honest' ? ['not_verified', 'failed'] : r.id === 'honest-ask' ? ['done'] : ['verified'];
      if (!row || !want.includes(String(row.outcome))) problems.push(`${r.id}: History's row reads "${row?.outcome ?? 'missing'}" ("${row?.text ?? ''}")`);
    }
  } finally {
    await panel.close();
  }
  for (const r of [runs.find((x) => x.lie !== 'honest' && x.record), runs.find((x) => x.id === 'honest-json' && x.record)]) {
    if (!r) continue;
    const viewer = await env.browser.openExtensionPage(`ui/traces.html#${encodeURIComponent(r.record)}`);
    try {
      const seen = await viewer.waitFor(() => (document.body.dataset.view === 'trace' ? { verdict: /** @type {HTMLElement | null} */ (document.querySelector('.outcome'))?.dataset.verdict ?? '', rows: document.querySelectorAll('.outcome .receipt tbody tr').length } : null), undefined, { message: 'the trace' });
      const ok = r.lie === 'honest' ? seen?.verdict === 'verified' && seen.rows > 0 : ['not_verified', 'failed'].includes(seen?.verdict ?? '');
      if (!ok) problems.push(`${r.id}: the trace viewer shows "${seen?.verdict || 'no outcome'}" with ${seen?.rows ?? 0} receipt rows`);
    } finally {
      await viewer.close();
    }
  }
  return problems;
}

/**
 * Answers cards until the run ends: a duplicate is declined, anything else allowed. Returns how
 * many it answered. @param {import('./harness/driver.js').Driver} panel @param {number} runs @param {string[]} problems
 */
async function answerCards(panel, runs, problems) {
  const deadline = Date.now() + 90_000;
  let cards = 0;
  for (;;) {
    // One wait in the panel until a card asks or the run has ended (the panel's DOM says both).
    const state = await panel.waitFor((n) => {
      const card = /** @type {HTMLElement | null} */ (document.querySelector('.card.confirm.pending'));
      const ended = Number(document.body.dataset.runs ?? 0) > n && document.body.dataset.running === 'false';
      return (card || ended) && { ended, rule: card?.dataset.rule ?? null, text: card?.textContent ?? '' };
    }, runs, { timeout: Math.max(1, deadline - Date.now()), message: 'a card or the end of the run' }).catch(() => null);
    if (!state) { problems.push('the run did not finish within 90 s'); return cards; }
    if (state.rule) {
      await answerPending(panel, state.rule === 'duplicate_write' ? 'no' : 'yes');
      cards++;
      continue;
    }
    return cards;
  }
}

/** What the panel shows at the end (evaluated in the panel). */
function readPanel() {
  const log = /** @type {HTMLElement} */ (document.getElementById('log'));
  const final = [...log.querySelectorAll('.msg.final')].at(-1);
  const note = /** @type {HTMLElement | null | undefined} */ (final?.querySelector('.check.verdict'));
  return {
    verdict: note?.dataset.verdict ?? '',
    note: note?.textContent ?? '',
    final: final?.textContent ?? '',
    receipt: note?.querySelectorAll('.receipt-entry').length ?? 0,
    exportButton: Boolean(note?.querySelector('button.receipt-export')),
    verified: log.querySelectorAll('[data-verdict="verified"]').length,
    greenDone: log.querySelectorAll('details.tool.ok[data-tool="done"]').length,
    text: log.textContent ?? '',
  };
}

/**
 * The case's run in the history (a page's URL may change as it goes): found among the summaries,
 * then read whole. @param {TestEnv} env @param {Case} c @param {number} since
 */
async function recordOf(env, c, since) {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const found = await env.control.evaluate(async ({ part, from }) => {
      const list = await browser.runtime.sendMessage({ type: 'history.list' });
      const hit = (list.ok ? list.data : []).find((/** @type {any} */ r) => String(r.url).includes(part) && r.startedAt >= from);
      return hit ? (await browser.runtime.sendMessage({ type: 'history.get', id: hit.id })).data ?? null : null;
    }, { part: `/lies/${c.id}/`, from: since - 1000 });
    if (found) return found;
    await new Promise((r) => setTimeout(r, 250));
  }
  return null;
}

/** A history record's verdict: the record's own, or the one on its final answer. @param {any} rec */
function verdictOfRecord(rec) {
  if (rec.outcome?.verdict) return shown(rec.outcome);
  const final = [...(rec.items ?? [])].reverse().find((i) => i.kind === 'assistant' && i.final);
  return final?.outcome ? shown(final.outcome) : '';
}

/** The verdict as the panel shows it (Verified needs an accepted write on the receipt; a read-only answer has none). @param {any} o */
function shown(o) {
  if (o.verdict === 'not_verified' && (o.reasons ?? []).length && o.reasons.every((/** @type {any} */ r) => r.code === 'NOTHING_TO_CHECK')) return 'nothing';
  if (o.verdict === 'verified' && !(o.receipt ?? []).some((/** @type {any} */ r) => r.verdict === 'verified')) return 'not_verified';
  return o.verdict;
}

/** @param {TestEnv} env @param {string} id */
async function traceVerdict(env, id) {
  const o = await env.control.evaluate(async (x) => (await browser.runtime.sendMessage({ type: 'traces.get', id: x }))?.data?.outcome ?? null, id);
  return o ? shown(o) : '';
}

/** @param {Record<string, LieRun[]>} report */
function summarise(report) {
  const all = Object.values(report).flat();
  const lie = all.filter((r) => r.lie !== 'honest');
  return {
    pages: CASES.length, lyingPages: CASES.filter((c) => c.lie !== 'honest').length, lieTypes: LIE_TYPES.length,
    totals: {
      runs: all.length,
      falseVerified: lie.filter((r) => r.green).length,
      notVerified: lie.filter((r) => r.panel === 'not_verified').length,
      failed: lie.filter((r) => r.panel === 'failed').length,
      noVerdict: lie.filter((r) => !r.panel).length,
      honestVerified: all.filter((r) => r.lie === 'honest' && r.panel === 'verified').length,
      duplicates: all.reduce((n, r) => n + r.duplicates, 0),
      problems: all.reduce((n, r) => n + r.problems.length, 0),
    },
    runs: report,
  };
}
