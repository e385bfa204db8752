// The tabs' sessions: each tab's Session, rebuilt from storage.session after the service worker
// was stopped, and the one notice a tab gets when its stored conversation had to be shortened.
/** @import { Session as SessionType } from '../session.js' */
import { Session } from '../session.js';

/**
 * The tab's session; after the service worker was stopped it is rebuilt from storage.session
 * (an interrupted run shows as interrupted, with Continue). Two callers asking at once get one session.
 * @param {object} deps
 * @param {Map<number, SessionType>} deps.sessions the live sessions, by tab
 * @param {{ load(tabId: number): Promise<import('../../types/messages').StoredSession | null> }} deps.store
 * @param {(s: SessionType) => void} deps.onChange
 * @param {(s: SessionType) => void} deps.persist
 * @returns {(tabId: number) => Promise<SessionType>}
 */
export function sessionLoader({ sessions, store, onChange, persist }) {
  /** @type {Map<number, Promise<SessionType>>} */
  const loading = new Map();
  return function session(tabId) {
    const live = sessions.get(tabId);
    if (live) return Promise.resolve(live);
    let p = loading.get(tabId);
    if (!p) {
      p = (async () => {
        const data = await store.load(tabId).catch(() => null);
        const s = data ? Session.fromJSON(data, { onChange }) : new Session(tabId, { onChange });
        if (!sessions.has(tabId)) sessions.set(tabId, s);
        if (s.interrupted) persist(s);
        return /** @type {SessionType} */ (sessions.get(tabId));
      })().finally(() => loading.delete(tabId));
      loading.set(tabId, p);
    }
    return p;
  };
}

/**
 * The session store's onTrimmed: once per tab (each later write trims again, the user needs
 * telling once), the conversation says its oldest page results are kept shortened.
 * @param {Map<number, SessionType>} sessions @returns {(tabId: number, count: number) => void}
 */
export function trimmedNotice(sessions) {
  /** Tabs whose stored conversation was shortened to fit (the user was told). @type {Set<number>} */
  const told = new Set();
  return (tabId, count) => {
    if (told.has(tabId)) return;
    told.add(tabId);
    sessions.get(tabId)?.apply({ type: 'notice', code: 'STORAGE_TRIMMED',
      message: `This conversation outgrew the browser's storage for open tabs: the ${count} oldest page results are kept shortened should Tabwright's background restart. The run itself still has them whole.` });
  };
}
