// The person takes the tab (a sign-in, a code, a challenge: agent/handoff/): the run waits (a job
// shows needs_user_input with the reason), nothing reads the tab (service/person-control.js), the
// indicator leaves it, and a person with no panel open is notified. All of it ends with the card's
// last update.
/** @import { Interaction } from '../types/core' */
/** @import { HandoffCard, HandoffMoment } from '../types/handoff' */
/** @import { Session } from './session.js' */
import { needKey } from '../agent/handoff/need.js';

/**
 * @param {object} deps
 * @param {ReturnType<typeof import('./browser-ops.js').createBrowserOps>} deps.ops
 * @param {() => ReturnType<typeof import('./jobs.js').startJobs>} deps.jobs
 * @param {(tabId: number, show: boolean) => void} deps.showIndicator
 */
export function createPersonTurn({ ops, jobs, showIndicator }) {
  /**
   * @param {Session} s @param {Interaction} inner @param {HandoffMoment} moment @param {AbortSignal} [signal]
   * @returns {HandoffCard}
   */
  return function personTurn(s, inner, moment, signal) {
    const card = /** @type {NonNullable<Interaction['handoff']>} */ (inner.handoff)(moment, signal);
    s.state.transition('wait');
    ops.personControl?.take(s.tabId);
    jobs().setWaitingForUser(s.tabId, true, reasonOf(moment));
    showIndicator(s.tabId, false);
    if (!jobs().jobIn(s.tabId) && s.listeners.size === 0) notifyTurn(s.tabId, moment);
    let over = false;
    return {
      answer: card.answer,
      update(u) {
        card.update(u);
        if (u.status === 'waiting') { jobs().setWaitingForUser(s.tabId, true, reasonOf(u.moment)); return; }
        if (over) return;
        over = true;
        ops.personControl?.give(s.tabId);
        jobs().setWaitingForUser(s.tabId, false);
        if (u.status !== 'cancelled' && u.status !== 'expired') { showIndicator(s.tabId, true); s.state.transition('act'); }
      },
    };
  };
}

/** @param {HandoffMoment} m */
function reasonOf(m) { return { kind: m.kind, site: m.site, ...(m.factor ? { factor: m.factor } : {}) }; }

/**
 * A run in a tab nobody watches needs the person: a notification that brings the tab forward
 * (service/jobs.js answers its click).
 * @param {number} tabId @param {HandoffMoment} m
 */
function notifyTurn(tabId, m) {
  if (!browser.notifications) return;
  void browser.notifications.create(`tabwright-turn:${tabId}:${Date.now()}`, {
    type: 'basic',
    iconUrl: browser.runtime.getURL('icons/tabwright-128.png'),
    title: browser.i18n.getMessage('handoffNotifyTitle', [m.site]) || m.site,
    message: browser.i18n.getMessage(needKey(m), [m.site]) || m.site,
  }).catch(() => { /* notifications blocked: the panel's card still waits */ });
}
