// The tool registry: every tool the agent (and the tool runner) can call, and which of them each mode offers.
/** @import { Tool, Mode } from '../../types/core' */
import { click, type } from './page.js';
import { snapshot, readPage, pageCapabilities, extractData, describeRef } from './perception.js';
import { navigate } from './navigation.js';
import { done } from './control.js';

/** @type {readonly Tool[]} */
export const ALL_TOOLS = Object.freeze([snapshot, readPage, click, type, navigate, done, pageCapabilities, extractData, describeRef]);

/** Tools whose results carry page content, fenced as untrusted. */
export const PAGE_CONTENT_TOOLS = new Set(['snapshot', 'read_page', 'click', 'type', 'navigate', 'page_capabilities', 'extract_data', 'describe_ref']);

/** @param {string} name */
export function findTool(name) {
  return ALL_TOOLS.find((t) => t.name === name);
}

/**
 * Ask mode offers read-only tools and answers in plain text (no done).
 * @param {Mode} mode
 */
export function toolsForMode(mode) {
  // Runner-only tools (describe_ref) are for developers and evals, never offered to the model.
  const offered = ALL_TOOLS.filter((t) => !t.runnerOnly);
  return mode === 'ask' ? offered.filter((t) => t.readOnly && !t.terminal) : offered;
}
