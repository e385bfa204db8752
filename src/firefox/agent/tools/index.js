// The tool registry: every tool the agent (and the tool runner) can call, and which of them each mode
// offers. What a tool does is declared on the tool itself (its effects, types/safety.d.ts).
/** @import { Tool, Mode } from '../../types/core' */
import { snapshot, readPage, pageCapabilities, extractData, describeRef } from './perception.js';
import { click, hover, type, pressKeys, dragDrop, scroll } from './input.js';
import { setField, selectOption, check, uncheck, uploadFile } from './forms.js';
import { handleDialog } from './dialogs.js';
import { goBack, goForward, reload, tabs, waitFor } from './tabs.js';
import { screenshot, getHtml, consoleLogs, fetchUrl, listDownloads, readPdf } from './reading.js';
import { askUserWhichElement } from './picker.js';
import { navigate } from './navigation.js';
import { done, clarify, scratchpad } from './control.js';
import { scheduleTask, scheduleResume } from './schedule.js';
import { getFrames } from './frames.js';
import { skills, saveSkill } from './skills.js';
import { executeJs, networkRequests, inspectStyles, injectCss } from './devtools.js';
import { recordTab, stopRecording } from './recording.js';
import { runWorkflow } from './workflows.js';
import { onlyReads } from '../safety/effects.js';

/** @type {readonly Tool[]} */
export const ALL_TOOLS = Object.freeze([snapshot, readPage, click, type, navigate, done, clarify, scratchpad, scheduleTask, scheduleResume,
  hover, pressKeys, dragDrop, scroll, setField, selectOption, check, uncheck, uploadFile, handleDialog,
  goBack, goForward, reload, tabs, waitFor, screenshot, getHtml, consoleLogs, fetchUrl, listDownloads, readPdf, askUserWhichElement,
  pageCapabilities, extractData, describeRef, getFrames, skills, saveSkill,
  recordTab, stopRecording, executeJs, networkRequests, inspectStyles, injectCss, runWorkflow]);

/** @param {string} name */
export function findTool(name) {
  return ALL_TOOLS.find((t) => t.name === name);
}

/**
 * How a call of this tool is shown in the panel (the icon of its step): read, act, go or run, from
 * what the tool declares it does; a tool that declares `shows` says it itself. A name no tool has
 * (an old transcript, a page tool) is shown as other.
 * @param {string} name @returns {NonNullable<Tool['shows']> | 'other'}
 */
export function shownAs(name) {
  const tool = findTool(name);
  if (!tool) return 'other';
  if (tool.shows) return tool.shows;
  const does = new Set(tool.effects);
  if (does.has('navigates')) return 'go';
  if (does.has('acts_on_page') || does.has('runs_code') || does.has('calls_page_tool')) return 'act';
  if (does.has('controls_run') || does.has('creates_jobs') || does.has('saves_skills')) return 'run';
  return 'read';
}

/**
 * Ask mode offers read-only tools and answers in plain text (no done). Plan mode's planner reads
 * like Ask; its steps run as Act (agent/plan.js). Developer tools come only in Act mode and only
 * when the user turned them on; a tool that needs what the browser lacks (the recorder) is left out.
 * @param {Mode} mode @param {{ developer?: boolean, recorder?: boolean, workflows?: boolean }} [can] workflows: the user has saved one
 */
export function toolsForMode(mode, can = {}) {
  // Runner-only tools (describe_ref) are for developers and evals, never offered to the model.
  const offered = ALL_TOOLS.filter((t) => !t.runnerOnly && (!t.developer || (can.developer === true && mode === 'act')) && (!t.needs || can[t.needs] === true));
  if (mode === 'act') return offered;
  // The planner only looks at the page before proposing steps: its requests stay small.
  if (mode === 'plan') return offered.filter((t) => t.looksAtPage);
  return offered.filter(onlyReads);
}
