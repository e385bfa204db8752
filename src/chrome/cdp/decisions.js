// The hold's decisions still on their way to Chrome, by tab. A release waits until each decision has
// reached Chrome, not only until it is made: Fetch.disable lets every request still paused go on
// unasked, so a write refused as the run stopped (Stop while its card waited) went to the server
// when the disable overtook the failRequest.

export function createDecisions() {
  /** @type {Map<number, Set<Promise<unknown>>>} */
  const deciding = new Map();
  return {
    /** A decision begins on the tab; call what this returns once Chrome has been told. @param {number} tabId */
    begin(tabId) {
      const pending = deciding.get(tabId) ?? new Set();
      deciding.set(tabId, pending);
      /** @type {() => void} */
      let told = () => {};
      const telling = new Promise((resolve) => { told = () => resolve(undefined); });
      pending.add(telling);
      return () => { pending.delete(telling); told(); };
    },
    /** Resolves once no decision of the tab is on its way, those begun meanwhile included. @param {number} tabId */
    async settled(tabId) {
      while (deciding.get(tabId)?.size) await Promise.all([...(deciding.get(tabId) ?? [])]);
    },
  };
}
