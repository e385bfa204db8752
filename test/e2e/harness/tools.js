// Running tools through the tool runner (`tool.run`) exactly as the agent would, for the action suites.
import { ask, tabIdOf } from './env.js';
import { findRef } from '../../fixtures/llm/conversation.js';

/** @import { TestEnv } from './env.js' */

/**
 * @param {TestEnv} env @param {number} tabId @param {string} name @param {Record<string, unknown>} [args]
 * @returns {Promise<any>}
 */
export function tool(env, tabId, name, args = {}) {
  return ask(env.control, { type: 'tool.run', tabId, name, args });
}

/** Like tool(), but fails the test with the tool's own message when it returns an error. */
export async function ok(/** @type {TestEnv} */ env, /** @type {number} */ tabId, /** @type {string} */ name, /** @type {Record<string, unknown>} */ args = {}) {
  const r = await tool(env, tabId, name, args);
  if (!r.ok) throw new Error(`${name}(${JSON.stringify(args)}) failed: ${r.code}: ${r.message}`);
  return r;
}

/** The ref of an element with this role and name in a fresh snapshot. @param {TestEnv} env @param {number} tabId @param {string} role @param {string} name */
export async function refOf(env, tabId, role, name) {
  const snap = await ok(env, tabId, 'snapshot');
  return findRef(String(snap.data), role, name);
}

/**
 * Open a fixture page; returns the page driver and its tab id.
 * @param {TestEnv} env @param {string} path @param {{ waitUntil?: 'load' | 'domcontentloaded' }} [opts] a page with a frame that never loads never reaches "load"
 */
export async function openFixture(env, path, opts) {
  const url = `${env.site.url}/${path}`;
  const page = await env.browser.openPage(url, opts);
  const tabId = await tabIdOf(env, url);
  return { page, tabId, url };
}
