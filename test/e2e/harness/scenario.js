// Declares a scenario once and runs it in every browser; the suite title names the browser.
import { browsers, getEnv } from './env.js';

/** @import { TestEnv } from './env.js' */

/**
 * @param {string} title
 * @param {(ctx: { env: TestEnv, kind: 'chromium' | 'firefox' }) => void} body declares it() blocks; ctx.env is ready inside them
 */
export function scenario(title, body) {
  for (const kind of browsers()) {
    describe(`${title} [${kind}]`, function () {
      this.timeout(90_000);
      const ctx = /** @type {{ env: TestEnv, kind: 'chromium' | 'firefox' }} */ ({ kind });
      before(async function () {
        this.timeout(120_000);
        ctx.env = await getEnv(kind);
      });
      body(ctx);
    });
  }
}
