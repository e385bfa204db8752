// The gate every agent step passes: the policy's verdict before a call runs (asking the user when
// it says so), and the hold on the requests and downloads the page sends, from the run's first
// acting step until the run ends and a settle period after done (a debounced autosave leaves during
// the model's turn or after its done: it is held and asked like any other, and recorded under the
// last step). One card at a time; a card the user allowed covers the same kind of write for the rest
// of that step, so an honest step asks once. A second identical write while the first has no answer
// waits for that answer, then is judged (a duplicate of an accepted write asks).
/** @import { BrowserOps, Interaction, ToolResult } from '../../types/core' */
/** @import { ConfirmAnswer, ConfirmRequest, EffectHold, HeldRequest } from '../../types/safety' */
/** @import { PersonAttempt } from '../../types/handoff' */
/** @import { Policy } from './policy.js' */
import { fail } from '../error-codes.js';
import { createWriteLedger, writeLine } from './write-ledger.js';
import { writeKind } from './write-kind.js';
import { readAnswer } from './answer-reading.js';

/** How long a step's result waits for its writes' answers (the rest are told with the next result). */
const WRITE_ANSWER_MS = 1500;
/**
 * The hold's waits. afterDoneMs: after done, the hold stays this long past the last acting step
 * (writes a page debounces: autosaves commonly wait 1 to 3.5 s after the last keystroke, and a
 * page's timer fires late on a busy machine, so 5 s); doneAnswerMs: at done, writes still without
 * an answer get this long, then count as not verified; duplicateWaitMs: a second identical write
 * waits at most this long for the first one's answer. Unit tests shorten the first (their fake
 * pages send nothing late).
 */
export const HOLD_TIMES = { afterDoneMs: 5000, doneAnswerMs: 5000, duplicateWaitMs: 10_000 };
/** Methods that change nothing on a server. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * @typedef {object} StepInfo
 * @property {string} cause 'click button "Send" on mail.example'
 * @property {string} pageUrl the tab's URL when the step began
 * @property {{ role: string, name: string } | null} target
 * @property {string} [approvedOrigin] the user already allowed this step on this origin (a site_confirm card): its writes there need no second card
 */

/**
 * @param {object} deps
 * @param {Policy} deps.policy
 * @param {Interaction} [deps.interact] the user; without one every card is a refusal
 * @param {AbortSignal} [deps.signal]
 * @param {() => number} [deps.now]
 * @param {import('./write-ledger.js').WriteLedger} [deps.ledger] the run's writes (a new one by default)
 * @param {{ setTimeout: (fn: () => void, ms: number) => any, clearTimeout: (id: any) => void }} [deps.timers] a fake clock in tests
 * @param {Partial<typeof HOLD_TIMES>} [deps.times] the waits above, for this run
 */
export function createGuard({ policy, interact, signal, now = Date.now, timers = REAL_TIMERS, times = {}, ledger = createWriteLedger(timers) }) {
  const afterDoneMs = times.afterDoneMs ?? HOLD_TIMES.afterDoneMs;
  const doneAnswerMs = times.doneAnswerMs ?? HOLD_TIMES.doneAnswerMs;
  const duplicateWaitMs = times.duplicateWaitMs ?? HOLD_TIMES.duplicateWaitMs;
  /** The run ended: nothing more is held. */
  let released = false;
  /** The agent said done: what the page sends now is reported with the verdict. */
  let afterDone = false;
  /** Writes let go that have no answer yet, by signature: an identical one waits for it. @type {Map<string, Promise<void>>} */
  const inFlight = new Map();
  /** @type {WeakMap<HeldRequest, () => void>} */
  const answered = new WeakMap();
  /** The number of the current (or last) acting step, for the ledger. */
  let stepNo = 0;
  /** @type {Map<number, Promise<EffectHold | null>>} */
  const holds = new Map();
  /** @type {StepInfo | null} */
  let step = null;
  let stepEnded = -Infinity;
  /** Decisions of the current step (held requests), for its result. @type {{ request: ConfirmRequest | null, allowed: boolean, answer?: ConfirmAnswer }[]} */
  let decisions = [];
  /** Decisions about requests that came after the step's result was returned: told with the next result. @type {string[]} */
  let late = [];
  /** Writes the user allowed once during this step: their kind (method, URL path, body keys, operation: write-kind.js). @type {Set<string>} */
  let allowedInStep = new Set();
  /** @type {Set<Promise<unknown>>} */
  const pending = new Set();
  /** One card at a time. @type {Promise<unknown>} */
  let cards = Promise.resolve();
  /**
   * The person has the tab (a sign-in, a challenge): what their page sends is theirs, not the
   * run's. It goes at once, unjudged and off the ledger; only its method, URL and answer are told
   * (never its body: it holds what they typed). @type {PersonWatch | null}
   */
  let person = null;

  /**
   * Ask the user (one card at a time). Resolves 'no' when nobody can answer or the run stops.
   * @param {ConfirmRequest} request @returns {Promise<ConfirmAnswer>}
   */
  function confirm(request) {
    const answer = cards.then(async () => {
      if (!interact || signal?.aborted) return /** @type {ConfirmAnswer} */ ('no');
      try {
        const a = await interact.confirm(request, signal);
        policy.answered(request, a);
        return a;
      } catch { return /** @type {ConfirmAnswer} */ ('no'); }
    });
    cards = answer.catch(() => {});
    return answer;
  }

  /**
   * Is a request now the run's doing? From its first acting step until it ends: a page that sends
   * later (a debounce, a timer) sends because of what the agent did.
   */
  function caused() { return stepNo > 0 && !released; }

  /** @param {HeldRequest} req @returns {Promise<boolean>} */
  async function decide(req) {
    if (person) { person.sent(req); return true; }
    const info = step ?? lastStep;
    if (!info) return true;
    if (!isWrite(req)) return judge(req, info);
    const sig = signatureOf(req);
    const first = inFlight.get(sig);
    // A hasty duplicate: sent before the first had its answer, so not a retry of a refusal the page
    // saw. It waits for that answer, then is asked about as a duplicate whatever the answer was.
    if (first) {
      await within(first, duplicateWaitMs);
      policy.noteSent(req);
    }
    /** @type {() => void} */
    let done = () => {};
    const mine = new Promise((resolve) => { done = () => { if (inFlight.get(sig) === mine) inFlight.delete(sig); resolve(undefined); }; });
    inFlight.set(sig, /** @type {Promise<void>} */ (mine));
    const allowed = await judge(req, info).catch(() => false);
    // Every write the run caused is in the ledger, sent or not; what was sent can no longer be sent twice unasked.
    ledger.add(req, allowed, stepNo, { page: info.pageUrl, inTask: policy.scope.has(webUrl(req.url)), afterDone });
    if (allowed) { policy.noteSent(req); answered.set(req, done); } else done();
    return allowed;
  }

  /** Waits for p, at most ms (or until the run stops). @param {Promise<unknown>} p @param {number} ms */
  function within(p, ms) {
    return new Promise((resolve) => {
      if (ms <= 0 || signal?.aborted) { resolve(undefined); return; }
      const end = () => { timers.clearTimeout(id); signal?.removeEventListener('abort', end); resolve(undefined); };
      const id = timers.setTimeout(end, ms);
      signal?.addEventListener('abort', end, { once: true });
      p.then(end, end);
    });
  }

  /** @param {number} ms */
  const sleep = (ms) => within(new Promise(() => {}), ms);

  /** Decisions still being made (cards the user has not answered). */
  async function decisionsMade() {
    while (pending.size) await Promise.race([...pending]);
  }

  /** @param {HeldRequest} req @param {StepInfo} info @returns {Promise<boolean>} */
  async function judge(req, info) {
    const verdict = policy.judgeRequest(req, info);
    const during = step !== null;
    /** @param {{ request: ConfirmRequest | null, allowed: boolean, answer?: ConfirmAnswer }} d */
    const record = (d) => {
      if (during) decisions.push(d);
      else if (d.request) late.push(`After your last step the page tried: ${d.request.action} on ${d.request.site}. ${d.allowed ? 'The user allowed it.' : 'It was blocked (the user declined).'}`);
      return d.allowed;
    };
    if (verdict.action === 'allow') return true;
    if (verdict.action === 'refuse') return record({ request: null, allowed: false });
    const onceKey = writeKind(req);
    if (verdict.request.rule === 'server_write' && (allowedInStep.has(onceKey) || info.approvedOrigin === originOfUrl(req.url))) return true;
    const answer = await confirm(verdict.request);
    if (answer !== 'no') allowedInStep.add(onceKey);
    return record({ request: verdict.request, allowed: answer !== 'no', answer });
  }
  /** @type {StepInfo | null} */
  let lastStep = null;

  /**
   * A request of a shared worker that ran before the hold, refused (Chromium cannot hold it): the
   * model hears it, and a write is on the run's ledger as not sent, so the verdict and the receipt
   * show it. The URL is the page's choice: only its site and path are named.
   * @param {{ url: string, method?: string }} what
   */
  function refusedRequest(what) {
    const method = (what.method ?? 'GET').toUpperCase();
    late.push(`While the agent acted, the page's shared worker (running before the task began) tried to send ${method} ${siteOf(what.url)}${pathOnly(what.url)}; Tabwright refused it, since a shared worker that was already running cannot be held for the user's answer. The page may show an error.`);
    if (SAFE_METHODS.has(method)) return;
    const w = ledger.add({ kind: 'request', method, url: what.url, type: 'fetch', topLevel: false, source: 'worker' }, false, stepNo, { afterDone });
    w.error = 'refused: a shared worker already running cannot be held';
  }

  /** @param {number} tabId @param {BrowserOps} browser */
  function armed(tabId, browser) {
    let h = holds.get(tabId);
    if (!h) {
      h = browser.holdEffects(tabId, {
        wants: (req) => (person ? isWrite(req) : caused() && policy.wantsRequest(req)),
        decide: (req) => {
          const p = decide(req).catch(() => false);
          pending.add(p);
          p.finally(() => pending.delete(p));
          return p;
        },
        settled: (req, outcome) => {
          if (person?.answered(req, outcome)) return;
          ledger.settle(req, outcome);
          answered.get(req)?.();
          // Refused (by status or by its body): sending it again is a retry, not a second submit.
          if (readAnswer(req, outcome).verdict === 'failed') policy.noteFailed(req);
        },
        // A write the page's own service worker answered never reached the network (nothing to
        // hold): it is on the ledger as sent and answered by the page, so it is never taken for proof.
        observed: (req, outcome) => {
          if (!caused()) return;
          ledger.add(req, true, stepNo);
          ledger.settle(req, { ...outcome, answeredBy: outcome.answeredBy ?? 'service_worker' });
        },
        // A shared worker refused (Chromium cannot hold it): the model hears it with its next result,
        // naming only the script's site (the page chose the URL).
        // A worker's frame that went around the hook (a send kept from before it): it already left.
        unseen: (req) => {
          if (!caused()) return;
          late.push(`While the agent acted, a worker of the page sent a WebSocket frame to ${siteOf(req.url)}${pathOnly(req.url)} without waiting for Tabwright: it used a send it kept from before the task began, so it could not be held for the user's answer. It has left; tell the user.`);
          ledger.add(req, true, stepNo, { afterDone }).unheld = true;
          ledger.settle(req, {});
        },
        refused: (what) => {
          if (!caused()) return;
          if (what.channel === 'shared_worker_request') { refusedRequest(what); return; }
          late.push(`During your last step the page tried to start a shared worker (${siteOf(what.url)}); Tabwright refused it, since what a shared worker sends could not be held for the user's answer. The page may show an error.`);
        },
      }).catch(() => null);
      holds.set(tabId, h);
    }
    return h;
  }

  return {
    policy,
    confirm,

    /**
     * Run one step that acts on a page with its requests held. A write the user declined turns the
     * step's result into USER_DECLINED (the page may show an error: the request never left).
     * @param {number} tabId @param {BrowserOps} browser @param {StepInfo} info
     * @param {() => Promise<ToolResult>} run
     * @returns {Promise<{ result: ToolResult, held: boolean, writes: import('./write-ledger.js').WriteEntry[] }>}
     */
    async runStep(tabId, browser, info, run) {
      const hold = await armed(tabId, browser);
      stepNo++;
      if (!hold) {
        // Nothing can be held here (Chrome's debugger is taken by DevTools or another extension):
        // the step itself is asked about first, since what it sends could not be stopped.
        const answer = await confirm(policy.unheldStep(info));
        if (answer === 'no') return { result: fail('USER_DECLINED', `The user declined: ${info.cause}. Nothing was done. Do not try it again another way; finish, or ask the user what they want instead.`), held: false, writes: [] };
        return { result: await run(), held: false, writes: [] };
      }
      // Senders the hold cannot see that were open before it began (a worker's socket, Firefox):
      // the step asks first, since what it makes them send would leave unseen.
      for (const req of hold.unheld ?? []) {
        const verdict = policy.unheldSender(req, info);
        if (verdict.action !== 'ask') continue;
        const answer = await confirm(verdict.request);
        if (answer === 'no') return { result: fail('USER_DECLINED', `The user declined: ${info.cause}, while ${verdict.request.action.replace(/^Act on the page while /, '')}. Nothing was done. Do not try it again another way; finish, or ask the user what they want instead.`), held: true, writes: [] };
      }
      step = info;
      lastStep = info;
      decisions = [];
      allowedInStep = new Set();
      /** @type {ToolResult} */
      let result;
      try {
        result = await run();
      } finally {
        // Decisions already asked for belong to this step, even when the user answers later.
        await decisionsMade();
        step = null;
        stepEnded = now();
      }
      const declined = decisions.filter((d) => !d.allowed);
      if (declined.length) {
        const what = declined.map((d) => (d.request ? `${d.request.action} on ${d.request.site}` : 'a request')).join('; ');
        const asked = declined.some((d) => d.request);
        result = asked
          ? fail('USER_DECLINED', `The step ran, but the user declined what it would send: ${what}. It never left the browser; the page may now show an error. Do not try it again another way; finish, or ask the user what they want instead.`)
          : fail('CONFIRMATION_REQUIRED', `The step ran, but what it would send was blocked: ${what}. Nobody is here to confirm it; finish and tell the user.`);
      }
      // The step's writes and their answers (a moment's wait; later answers come with the next result).
      const writes = ledger.ofStep(stepNo);
      await ledger.settleWithin(writes, WRITE_ANSWER_MS, (w) => late.push(`After your last step: ${writeLine(w)}.`));
      return { result, held: hold !== null, writes };
    },

    /**
     * The person takes the tab until the returned function is called: their requests are let go
     * and told to onAttempt with their answers (the hold is armed for it if no step armed it yet).
     * @param {number} tabId @param {BrowserOps} browser @param {(a: PersonAttempt) => void} onAttempt
     * @returns {Promise<() => void>}
     */
    async personTurn(tabId, browser, onAttempt) {
      person = personWatch(onAttempt);
      await armed(tabId, browser);
      const mine = person;
      return () => { if (person === mine) person = null; };
    },

    /** Every write this run caused so far, in order. */
    writes: () => ledger.all(),

    /** Requests the policy decided after the step's result went back: told with the next result. */
    takeLate() { const out = late; late = []; return out; },

    /** Can this tab's requests be held? (false: Chrome's debugger is taken by DevTools) @param {number} tabId @param {BrowserOps} browser */
    async canHold(tabId, browser) { return (await armed(tabId, browser)) !== null; },

    /**
     * Done was called: writes still without an answer get a bounded wait (then they count as not
     * verified), and cards still open are answered first.
     */
    async awaitAnswers() {
      await decisionsMade();
      await ledger.settleWithin(ledger.open(), doneAnswerMs, () => {});
    },

    /**
     * Done stands: the hold stays for a settle period past the last acting step, so what the page
     * sends after done is held, asked and recorded (marked afterDone) before the verdict; then
     * their answers get the same bounded wait.
     */
    async settleAfterDone() {
      if (stepNo === 0 || released) return;
      afterDone = true;
      await this.settleLastStep();
    },

    /**
     * A replay's end (it has no done): the same settle period past the last acting step, so a write
     * that step made the page send reaches the hold, is decided and recorded as the step's before the
     * verdict; a release right after the step would let it go unseen (and unasked).
     */
    async settleLastStep() {
      if (stepNo === 0 || released) return;
      await sleep(stepEnded + afterDoneMs - now());
      await decisionsMade();
      await ledger.settleWithin(ledger.open(), doneAnswerMs, () => {});
    },

    /** Release every hold at the end of the run. */
    async close() {
      released = true;
      const all = [...holds.values()];
      holds.clear();
      await Promise.all(all.map(async (h) => { try { await (await h)?.release(); } catch { /* the tab is gone */ } }));
    },
  };
}
/** @typedef {ReturnType<typeof createGuard>} Guard */

const REAL_TIMERS = { setTimeout: (/** @type {() => void} */ fn, /** @type {number} */ ms) => setTimeout(fn, ms), clearTimeout: (/** @type {any} */ id) => clearTimeout(id) };

/**
 * @typedef {object} PersonWatch
 * @property {(req: HeldRequest) => void} sent
 * @property {(req: HeldRequest, outcome: import('../../types/safety').WriteOutcome) => boolean} answered false: not the person's request
 */

/** @param {(a: PersonAttempt) => void} tell @returns {PersonWatch} */
function personWatch(tell) {
  /** @type {WeakMap<HeldRequest, PersonAttempt>} */
  const mine = new WeakMap();
  return {
    sent(req) {
      const a = { method: req.method, url: req.url, failed: false, settled: false };
      mine.set(req, a);
      tell(a);
    },
    answered(req, outcome) {
      const a = mine.get(req);
      if (!a) return false;
      a.settled = true;
      if (outcome.status !== undefined) a.status = outcome.status;
      if (outcome.error) a.error = outcome.error.slice(0, 200);
      if (outcome.finalUrl) a.finalUrl = outcome.finalUrl;
      a.failed = readAnswer(req, outcome).verdict === 'failed';
      tell(a);
      return true;
    },
  };
}

/**
 * A write: a request that changes something on a server, or a message sent over a channel (a
 * WebSocket's opening handshake sends nothing yet).
 * @param {HeldRequest} req
 */
function isWrite(req) {
  return (req.kind === 'request' && !SAFE_METHODS.has(req.method)) || (req.kind === 'channel' && req.channel !== 'websocket');
}

/** Same method, URL and body: the same write. @param {HeldRequest} req */
function signatureOf(req) {
  return `${req.method} ${req.url}\n${req.fields?.length ? req.fields.map(([k, v]) => `${k}=${v}`).join('&') : (req.body ?? '')}`;
}

/** A WebSocket URL as the site it belongs to (wss://shop.test → https://shop.test). @param {string} url */
function webUrl(url) {
  return url.replace(/^ws(s?):/i, 'http$1:');
}

/** @param {string} url */
function originOfUrl(url) { try { return new URL(url).origin; } catch { return url; } }
/** A URL's host, or "the page's own site" for a relative or malformed one. @param {string} url */
function siteOf(url) { try { return new URL(url).host || "the page's own site"; } catch { return "the page's own site"; } }
/** A URL's path, without its query (which may carry anything the page put there). @param {string} url */
function pathOnly(url) { try { return new URL(url).pathname; } catch { return ''; } }
