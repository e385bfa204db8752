// Mocha root hooks for the e2e run: close the shared browsers (one per kind and the second ones of
// harness/env.js getVariantEnv) and the servers at the end.
import { closeAll } from './harness/env.js';

export const mochaHooks = {
  async afterAll() {
    this.timeout(60_000);
    await closeAll();
  },
};
