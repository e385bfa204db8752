// The safety policy: one place decides, from what a step does (the effects its tool declares, the
// requests it causes, the URL it opens, the data it carries), whether it runs, asks the user, or is
// refused. It never looks only at a button's name: element semantics only raise a card's severity.
// The rules are a table of small named parts (rules/index.js), asked in order; the policy runs the
// table and keeps what the run taught it (policy-memory.js). See docs/SECURITY.md for the rules,
// what they cover and what they cannot.
/** @import { ConfirmAnswer, ConfirmRequest, HeldRequest } from '../../types/safety' */
/** @import { PolicyMemory, PolicyOptions } from './policy-memory.js' */
/** @import { CallFacts as Facts, StepContext, Verdict as RuleVerdict } from './rules/rule.js' */
import { createPolicyMemory, inScope } from './policy-memory.js';
import { CALL_RULES, REQUEST_RULES } from './rules/index.js';
import { runRules } from './rules/rule.js';
import { unheldStepRequest } from './rules/cards.js';
import { unheldSocketVerdict } from './rules/unheld-socket.js';
import { CARRIES_DATA, SAFE_METHODS, SENDING_TYPES, stringsOf, writeSignature } from './request-facts.js';

export { siteMatches } from './site-patterns.js';

/** @typedef {Facts} CallFacts */
/** @typedef {RuleVerdict} Verdict */

/** @param {PolicyOptions} opts */
export function createPolicy(opts) {
  const m = createPolicyMemory(opts);
  return {
    /** Before a tool call runs. @param {CallFacts} f @returns {Verdict} */
    checkCall: (f) => runRules(CALL_RULES, f, m),
    /** Does the policy want to look at a request the page made during an action? Synchronous and cheap. @param {HeldRequest} req */
    wantsRequest: (req) => wantsRequest(m, req),
    /** A held request: go, ask, or drop. @param {HeldRequest} req @param {StepContext} ctx @returns {Verdict} */
    judgeRequest: (req, ctx) => runRules(REQUEST_RULES, { req, ctx }, m),
    /** A step whose requests cannot be held is asked about before it runs. @param {StepContext} ctx @returns {ConfirmRequest} */
    unheldStep: (ctx) => unheldStepRequest(ctx),
    /**
     * Before a step acts: a sender the hold cannot see that was open when it began (a worker's
     * socket opened before the run, Firefox) asks, unless the user allowed it for the task.
     * @param {HeldRequest} req @param {{ cause: string }} ctx @returns {Verdict}
     */
    unheldSender: (req, ctx) => unheldSocketVerdict(m, req, ctx),
    /**
     * The user's answer to a card: "Allow for this task" widens the scope (an origin) or allows one
     * kind of write (method, origin, path) for the rest of the run.
     * @param {ConfirmRequest} request @param {ConfirmAnswer} answer
     */
    answered: (request, answer) => noteAnswer(m, request, answer),
    /**
     * What the page showed the model (the text of a result that read a page): its values are page
     * data from now on (a request carrying one to another site asks), the references of the
     * lookalike check, and the provenance of what the agent types.
     * @param {unknown} result a tool result's data: its strings are read
     */
    notePage(result) {
      const texts = stringsOf(result);
      m.page.note(texts);
      m.pageWords.add(texts);
    },
    /** Strings that must not leave for another site unasked: what the agent typed. @param {string} s */
    remember(s) { if (s && s.length >= 3 && !m.known.includes(s)) m.known.push(s); },
    /** A write left the browser: the same one again asks first. @param {HeldRequest} req */
    noteSent(req) { m.sentWrites.add(writeSignature(req)); },
    /** The server refused it (4xx, 5xx, no answer): trying it again is a retry, not a second submit. @param {HeldRequest} req */
    noteFailed(req) { m.sentWrites.delete(writeSignature(req)); },
    scope: opts.scope,
  };
}
/** @typedef {ReturnType<typeof createPolicy>} Policy */

/**
 * Does the policy want to look at a request? Writes, downloads, navigations and anything carrying a
 * secret; a subresource GET only when it could carry data to a site outside the task.
 * @param {PolicyMemory} m @param {HeldRequest} req
 */
function wantsRequest(m, req) {
  if (req.kind === 'download' || req.framesUnheld) return true;
  // A channel write (a frame, a beacon, a data-channel message) is a write. A WebSocket's opening
  // handshake sends nothing but its URL: judged like a subresource GET (below) by what that carries.
  if (req.kind === 'channel' && req.channel !== 'websocket') return true;
  if (req.method === 'OPTIONS') return false;
  if (!SAFE_METHODS.has(req.method) || SENDING_TYPES.has(req.type)) return true;
  if (req.topLevel) return true;
  if (m.opts.secrets?.has(req.url)) return true;
  // A subresource GET to another site that could carry data (a query, a fragment, an @, a long
  // number): judgeRequest looks at what it carries. The cheap test comes first.
  return CARRIES_DATA.test(req.url) && !inScope(m, req.url.replace(/^ws(s?):/i, 'http$1:'));
}

/** @param {PolicyMemory} m @param {ConfirmRequest} request @param {ConfirmAnswer} answer */
function noteAnswer(m, request, answer) {
  const url = m.cardUrls.get(request);
  if (url && answer !== 'no') m.approvedUrls.add(url);
  if (answer !== 'task' || !request.scopeKey) return;
  if (request.rule === 'leave_scope') {
    m.scope.add(request.scopeKey);
    m.scopeCache.clear();
  } else {
    m.allowedWrites.set(request.scopeKey, request.severity === 'high' || m.allowedWrites.get(request.scopeKey) === 'high' ? 'high' : 'normal');
  }
}
