// Root hooks for the unit tests: the hold's settle period after done is real time (5 s in the
// product); the fake pages here send nothing late, so runs end at once. Tests of the settle period
// give their own times (a fake clock).
import { HOLD_TIMES } from '../../src/chrome/agent/safety/guard.js';

const product = { ...HOLD_TIMES };
export const mochaHooks = {
  beforeEach() { HOLD_TIMES.afterDoneMs = 0; },
  afterAll() { Object.assign(HOLD_TIMES, product); },
};
