// Traces: what one run did, step by step, kept in IndexedDB (service/trace-store.js).
// Built by agent/traces/recorder.js, shown by ui/traces.js, exported as JSON and as an HTML report.
import type { ContentPart, Mode, RunStatus, ToolResult, Usage } from './core';

/** Where a model request went: the ledger's destination. */
export interface TraceProvider {
  kind: string;
  label: string;
  model: string;
  /** the origin requests were sent to (from the provider's label or base URL), '' when unknown */
  origin: string;
}

/** One message of a request, kept once per trace (the pool): a request names its messages by index. */
export interface TraceMessage {
  role: string;
  /** text, or parts; an image's data is replaced by its size and a small thumbnail */
  content: string | (ContentPart | { type: 'image'; mediaType: string; bytes: number; thumbnail?: string })[];
  toolCalls?: { id: string; name: string; arguments: string }[];
  toolCallId?: string;
  name?: string;
}

/** Page data a request carried: the system prompt's page, and each tool result that came from a page. */
export interface PageDataEntry {
  /** 'system': the tab's URL and title in the system prompt; 'tool': a tool result */
  source: 'system' | 'tool' | 'image';
  tool?: string;
  toolCallId?: string;
  /** the page the data came from */
  url: string;
  chars: number;
  /** first sent in this request (false: carried again from an earlier one) */
  fresh: boolean;
}

export interface ModelStep {
  kind: 'model';
  /** position in the run, from 0 */
  i: number;
  /** ms since the epoch when the request was sent */
  at: number;
  /** the whole request, to the last event */
  ms: number;
  /** until the first event of the answer */
  firstMs?: number;
  /** main: a turn of the loop; summary: compaction; repair: a workflow step the model fixed; other: a request without tools */
  purpose: 'turn' | 'summary' | 'repair' | 'other';
  provider: TraceProvider;
  /** indexes into Trace.messages */
  messages: number[];
  tools: string[];
  /** characters of the tool definitions sent */
  toolChars: number;
  pageData: PageDataEntry[];
  reply: { text: string; toolCalls: { id: string; name: string; arguments: string }[] };
  usage?: Usage;
  costUsd?: number;
  error?: { code: string; message: string };
}

export interface ToolStep {
  kind: 'tool';
  i: number;
  at: number;
  ms: number;
  id: string;
  name: string;
  args: unknown;
  /** the result, long strings cut; an image replaced by a thumbnail */
  result?: ToolResult;
  /** the tab's URL and title when the call was made */
  url: string;
  title?: string;
  /** a hash of the last outline the run saw before this step (its own, for snapshot) */
  outlineHash?: string;
  /** the element it acted on, as the page named it */
  target?: { role: string; name: string };
  /** 'page': the tool read or acted on the page (its time is page time); 'tool': other work */
  time: 'page' | 'tool';
  thumbnail?: string;
  /** a workflow replay's step: its index in the workflow and how it was bound */
  replay?: { step: number; bound?: string; repaired?: boolean };
}

export type TraceStep = ModelStep | ToolStep;

export interface TraceTotals {
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd?: number;
  modelMs: number;
  toolMs: number;
  pageMs: number;
  wallMs: number;
  toolCalls: number;
  errors: number;
}

export interface Trace {
  v: 1;
  /** the same id as the run's history record */
  id: string;
  tabId: number;
  /** agent: a model-driven run; replay: a workflow run */
  kind: 'agent' | 'replay';
  mode: Mode;
  /** the user's request (or the workflow's name), secrets masked */
  task: string;
  url: string;
  title: string;
  /** the host the run started on */
  site: string;
  workflowId?: string;
  status: RunStatus;
  error?: { code: string; message: string };
  /** the run's verdict, its reasons and the receipt of its writes (agent/outcome.js; older traces have none) */
  outcome?: import('./core').Outcome;
  startedAt: number;
  endedAt: number;
  provider: TraceProvider | null;
  messages: TraceMessage[];
  steps: TraceStep[];
  totals: TraceTotals;
}

/** The trace list's entries: a trace without its messages and steps. */
export type TraceSummary = Omit<Trace, 'messages' | 'steps'>;

export interface TraceSettings {
  /** record traces of runs (default true) */
  record: boolean;
  /** keep at most this many */
  keepRuns: number;
  /** delete traces older than this many days */
  keepDays: number;
}
