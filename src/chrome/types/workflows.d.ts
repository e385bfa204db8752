// Workflows: a finished run compiled into steps that replay with no model calls.
// Compiled by agent/workflows/compile.js, replayed by agent/workflows/replay.js, stored by
// service/workflow-store.js, edited on ui/workflows.html.
import type { ToolContext, ToolResult } from './core';

/** An element as a person would find it again: its role, its accessible name, the landmark it sits in. Never a ref. */
export interface Fingerprint {
  role: string;
  name: string;
  /** the nearest landmark around it as the outline writes it: 'main', 'form "Order"', 'navigation "Pages"'; '' for none */
  landmark: string;
}

/** Where a step ran: the origin, and the path with id-like segments as "*" (the URL family). */
export interface PagePattern {
  origin: string;
  path: string;
}

export interface WorkflowParam {
  /** the name used in "{{name}}" placeholders: lower case, digits, underscores */
  name: string;
  /** what the parameter form shows (the field's name on the page) */
  label: string;
  /** offered in the form; absent for a secret and for a parameter with no default */
  default?: string;
  /** typed into a secret field: never stored, asked each time */
  secret?: boolean;
}

export interface WorkflowStep {
  tool: string;
  /** the element the step acts on (absent for navigate, read_page, press_keys without a target…) */
  target?: Fingerprint;
  /** the other arguments; values that are parameters read "{{name}}"; never a ref, selector or coordinates */
  args: Record<string, unknown>;
  /** the page the step must be on */
  page: PagePattern;
  /** a heading the page showed when the step ran: it must be there again before the step acts */
  sees?: string;
}

/** A repaired step a replay proposes: saved back into the workflow when the user says so. */
export interface PendingRepair {
  step: number;
  runId: string;
  at: number;
  replacement: WorkflowStep;
  /** what failed before the model fixed it */
  reason: string;
}

export interface Workflow {
  v: 1;
  id: string;
  name: string;
  description: string;
  /** the page the first step needs: a replay opens it when the tab is elsewhere */
  start: { url: string };
  params: WorkflowParam[];
  steps: WorkflowStep[];
  /** the original run's final summary, with parameter values as "{{name}}" */
  summary?: string;
  /** let the model repair a step that no longer binds (one request for that step); off by default */
  repair?: boolean;
  /** the run it was compiled from */
  fromRun?: string;
  createdAt: number;
  updatedAt: number;
  pendingRepairs?: PendingRepair[];
}

/** What the compiler left out of a run, said to the user on the review page. */
export interface CompileNote {
  /** index of the run's tool call */
  call: number;
  tool: string;
  reason: string;
}

/** What a replay reports beyond the run's outcome. */
export interface ReplayReport {
  workflowId: string;
  steps: number;
  modelCalls: number;
  repairs: PendingRepair[];
  /** the text results of the reading steps (extract_data, read_page…), for the final answer */
  outputs: string[];
}

/** What the run_workflow tool and the scheduler may ask of the workflows (service/workflows.js). */
export interface WorkflowsAccess {
  list(): Promise<{ name: string; description: string; params: WorkflowParam[]; start: string }[]>;
  find(nameOrId: string): Promise<Workflow | null>;
  /** run a workflow's steps inside the current run, through the run's own safety gate */
  replay(nameOrId: string, values: Record<string, string>, ctx: ToolContext): Promise<ToolResult>;
}
