// A page's own WebMCP tool (agent/tools/webmcp.js): the page's code does whatever it does, so every
// call asks, showing what the agent passes it.
/** @import { CallRule } from './rule.js' */
import { siteLabel } from '../scope.js';
import { maskDetail } from './cards.js';
import { ask, has } from './rule.js';

/** @type {CallRule} */
export const pageTool = {
  name: 'page_tool',
  appliesTo: (f) => has(f, 'calls_page_tool'),
  decide(f, m) {
    const input = f.args.input && typeof f.args.input === 'object' ? Object.entries(f.args.input) : [];
    return ask({
      category: 'write', rule: 'page_tool', severity: 'normal', action: `Call the page's tool "${m.mask(String(f.args.name ?? '')).slice(0, 100)}"`, site: siteLabel(f.url),
      details: input.map(([label, value]) => maskDetail(m, { label, value: typeof value === 'string' ? value : JSON.stringify(value) ?? '' })),
      reason: `${siteLabel(f.url)} declares this tool itself (WebMCP); what it does is the page's own code.`,
    });
  },
};
