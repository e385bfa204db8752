// Mocha root hooks for the e2e run: close the shared browsers and servers at the end.
import { closeAll } from './harness/env.js';

export const mochaHooks = {
  async afterAll() {
    this.timeout(30_000);
    await closeAll();
  },
};
