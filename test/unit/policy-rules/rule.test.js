// The rule runner and the tables' order: the first rule that applies and decides gives the verdict.
import { expect } from 'chai';
import { runRules, allow, refuse } from '../../../src/chrome/agent/safety/rules/rule.js';
import { CALL_RULES, REQUEST_RULES } from '../../../src/chrome/agent/safety/rules/index.js';
import { memoryOf, call } from './facts.js';
import { say } from '../../../src/chrome/agent/error-codes.js';

/** @import { CallRule } from '../../../src/chrome/agent/safety/rules/rule.js' */

describe('policy rules: the runner', () => {
  it('skips rules that do not apply, passes over a rule that finds nothing, and stops at the first decision', () => {
    /** @type {string[]} */
    const asked = [];
    /** @param {string} name @param {boolean} applies @param {ReturnType<typeof allow> | null} verdict @returns {CallRule} */
    const rule = (name, applies, verdict) => ({ name, appliesTo: () => { asked.push(`applies ${name}`); return applies; }, decide: () => { asked.push(`decide ${name}`); return verdict; } });
    const table = [rule('a', false, refuse('TOOL_FAILED', 'a')), rule('b', true, null), rule('c', true, refuse('TOOL_FAILED', 'c')), rule('d', true, allow())];
    expect(runRules(table, call({}), memoryOf())).to.deep.equal({ action: 'refuse', code: 'TOOL_FAILED', message: say('TOOL_FAILED', 'c') });
    expect(asked).to.deep.equal(['applies a', 'applies b', 'decide b', 'applies c', 'decide c']);
  });

  it('allows when no rule decides', () => {
    expect(runRules([], call({}), memoryOf())).to.deep.equal({ action: 'allow' });
  });

  it('asks in a fixed order: read-only modes first, the site\'s own rules last; a leaked secret before anything a request is', () => {
    expect(CALL_RULES.map((r) => r.name)).to.deep.equal(['read_only_changes', 'read_only_other_site', 'future_job', 'skill_save', 'page_tool', 'fetch_write', 'run_code', 'destination', 'typed_secret', 'sensitive_site', 'site_confirm']);
    expect(REQUEST_RULES.map((r) => r.name)).to.deep.equal(['secret_leak', 'executable_download', 'undeclared_download', 'download_site', 'unheld_socket', 'navigation_read', 'subresource_read', 'write_out_of_scope', 'duplicate_write', 'server_write']);
  });
});
