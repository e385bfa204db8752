// Messages between the panel (or any extension page), the background router and content scripts.
import type { ChatMessage, CompactionReason, ConfirmAnswer, ConfirmRequest, DoneCheck, Mode, PlanStatus, PlanStepStatus, ToolResult, Usage } from './core';

/** Native wire formats, Chrome's on-device model, and OpenAI-compatible presets (providers/presets.js). */
export type ProviderKind =
  | 'openai' | 'anthropic' | 'gemini' | 'ollama' | 'builtin'
  | 'openrouter' | 'groq' | 'mistral' | 'deepseek' | 'xai' | 'together' | 'fireworks' | 'azure'
  | 'lmstudio' | 'llamacpp' | 'vllm' | 'jan' | 'localai'
  | 'sglang' | 'cerebras' | 'perplexity' | 'moonshot' | 'qwen' | 'nvidia' | 'huggingface' | 'cloudflare' | 'minimax';
import type { JobsRequest } from './jobs';

export interface ProviderSettings {
  kind: ProviderKind;
  baseUrl: string;
  model: string;
  apiKey: string;
  /** time allowed for the response headers (default 90 s) */
  timeoutMs?: number;
  /** retries after a 429, 5xx, network error or time-out (default 3) */
  maxRetries?: number;
  /** 'prompt': tools described in the prompt, for models without native tool calling */
  toolMode?: 'native' | 'prompt';
  /** a stable id and a name the user chose, for the options page's provider list */
  id?: string;
  name?: string;
  /** USD per million tokens, for the panel's cost counter; absent means "tokens only" */
  pricing?: { input: number; output: number };
  /** the model's context window and longest answer in tokens, when the user knows better than the provider (providers/limits.js) */
  contextWindow?: number;
  maxOutput?: number;
  /** the OpenAI kind's API: Chat Completions (default) or Responses (providers/openai-responses.js) */
  api?: 'chat' | 'responses';
  /** which tools the model is offered (agent/tool-tiers.js): auto (by its window, the default), or forced */
  toolTier?: 'auto' | 'full' | 'compact';
}

/** Which provider and model a role uses; an empty model means the provider's own. */
export interface RoleModel { providerId: string; model: string }

export type ScreenshotPolicy = 'auto' | 'always' | 'never';

export interface Settings {
  provider: ProviderSettings;
  /** Settings → Budget: tokens or money per run and per day (service/spend.js); absent: no cap */
  budget?: import('./spend').BudgetSettings;
  defaultMode: Mode;
  maxSteps: number;
  /** every configured provider; `provider` is the active one (kept for older readers) */
  providers?: ProviderSettings[];
  roles?: { planner?: RoleModel; executor?: RoleModel; vision?: RoleModel };
  screenshotPolicy?: ScreenshotPolicy;
  /** host patterns: `allow` skips cards for writes inside the task's sites; `confirm` asks before every acting step */
  sites?: { allow: string[]; confirm: string[] };
  /** refuse, rather than ask, when a secret would be typed or sent anywhere but its own field and site */
  strictSecrets?: boolean;
  /** how long the hold stays past the last acting step once the agent said done, in ms (agent/safety/guard.js HOLD_TIMES.afterDoneMs when absent; 1,000 to 60,000) */
  settleMs?: number;
  /** scheduled jobs close the tabs they opened for a URL when their run ends (default true) */
  closeJobTabs?: boolean;
  /** set once the user has chosen a provider (first run is over) */
  onboarded?: boolean;
  /** the MCP bridge (docs/MCP.md): the background connects to bridges on 127.0.0.1 from `port` on (off by default) */
  mcp?: { enabled: boolean; port: number };
  /** WebMCP: the page's own declared tools are offered to runs and MCP clients (off by default) */
  webmcp?: boolean;
  /** offer the developer tools (execute_js, network_requests, inspect_styles, inject_css) in Act mode; off by default */
  devTools?: boolean;
  /** the tab recorder's caps and whether it records the tab's sound (Chrome) */
  recorder?: RecorderSettings;
  /** traces of runs: whether to record them, how many and how old to keep */
  traces?: import('./traces').TraceSettings;
  /** how many runs go at once: jobs and MCP clients' runs beyond it wait (queued); the person's own Send always starts (service/run-slots.js; default 4) */
  maxRunsAtOnce?: number;
  /** scheduled jobs: pauseAll holds every job (due ones wait, none starts); askBeforeRun makes each due job wait for the person's Run now */
  jobs?: { pauseAll?: boolean; askBeforeRun?: boolean };
  /** what an administrator's policy set (service/settings-managed.js): on the settings in force, never stored */
  managed?: ManagedState;
}

/** The organization's policy as the settings in force carry it. */
export interface ManagedState {
  /** setting paths the policy set: shown "Set by your organization", a save may not change them */
  locked: string[];
  /** runs are Ask only: nothing acts */
  askOnly: boolean;
  /** features switched off: scheduler, devTools, mcp, recorder, webmcp */
  off: string[];
  /** site patterns where acting is refused */
  blockSites: string[];
  /** site patterns where every acting step asks (also in sites.confirm) */
  confirmSites: string[];
  /** the provider kinds allowed, when the policy limits them */
  providerKinds?: string[];
  /** the base URL prefixes allowed, when the policy limits them */
  baseUrls?: string[];
}

export interface RecorderSettings { maxSeconds: number; maxMB: number; audio: boolean }

/** A finished run, kept in IndexedDB for the panel's history. */
export interface RunRecord {
  id: string;
  tabId: number;
  url: string;
  title: string;
  mode: Mode;
  startedAt: number;
  endedAt: number;
  items: TranscriptItem[];
  usage: Usage;
  /** how the run ended (older records have none) */
  status?: import('./core').RunStatus;
  /** the run's verdict with its reasons and receipt (agent/outcome.js; older records have none) */
  outcome?: import('./core').Outcome;
}

/** A run as the history list shows it: no transcript, its request's first words instead. */
export type RunSummary = Omit<RunRecord, 'items'> & { task: string };

/** One entry of the transcript the panel renders. The router owns it; panels mirror it. */
export type TranscriptItem =
  | { kind: 'user'; id: string; text: string; mode: Mode }
  /** outcome: the run's verdict and receipt (agent/outcome.js), on the final answer */
  | { kind: 'assistant'; id: string; text: string; streaming: boolean; final?: boolean; check?: DoneCheck; outcome?: import('./core').Outcome }
  | { kind: 'tool'; id: string; name: string; args: unknown; result?: ToolResult; ms?: number; target?: { role: string; name: string }; shot?: string; /** the step's icon, from the tool (shownAs) */ shows?: 'read' | 'act' | 'go' | 'run' | 'other' }
  | { kind: 'error'; id: string; code: string; message: string }
  | { kind: 'plan'; id: string; steps: string[]; status: PlanStatus | 'expired'; stepStatus: PlanStepStatus[]; outputs: string[] }
  | ({ kind: 'confirm'; id: string; status: 'pending' | ConfirmAnswer | 'expired' } & ConfirmRequest)
  | { kind: 'clarify'; id: string; question: string; answer?: string; status: 'pending' | 'answered' | 'expired' }
  /** "Your turn": the person has the tab (agent/handoff/); failed: their last attempt did not go through; evidence: why the run went on */
  | { kind: 'handoff'; id: string; moment: import('./handoff').HandoffMoment; status: import('./handoff').HandoffStatus; failed?: string; evidence?: string }
  | { kind: 'compacted'; id: string; reason: CompactionReason; before: number; after: number }
  | { kind: 'notice'; id: string; code: string; message: string; args?: string[] }
  | { kind: 'interrupted'; id: string; status: 'pending' | 'continued' }
  /** the run paused before a model call that would pass a budget (agent/run/spend-check.js); raisedTo: the cap the person chose */
  | { kind: 'budget'; id: string; pause: import('./spend').BudgetPause; suggested: number; status: 'pending' | 'raised' | 'expired'; raisedTo?: number }
  /** the site guidance the model was given (docs/ADAPTERS.md); text is Tabwright's own */
  | { kind: 'guidance'; id: string; name: string; site: string; adapterId: string | null; skills: string[]; text: string };

/** Where a tab's run stands (service/run-state.js holds the transitions). */
export type RunPhase = 'idle' | 'starting' | 'streaming' | 'acting' | 'waiting' | 'finished' | 'failed' | 'stopped' | 'interrupted';
/** What moves a run from one phase to another (service/run-state.js TRANSITIONS). */
export type RunEvent = 'start' | 'ready' | 'stream' | 'act' | 'wait' | 'finish' | 'fail' | 'stop' | 'restore' | 'clear';

/** One tab's conversation as kept in storage.session (survives the Chrome service worker being stopped). */
export interface StoredSession {
  v: 1;
  tabId: number;
  conversationId: string;
  mode: Mode;
  messages: ChatMessage[];
  items: TranscriptItem[];
  note: string;
  running: boolean;
  /** the run's phase when saved (older sessions have only running) */
  phase?: RunPhase;
  updatedAt: number;
}

/** A finished or interrupted conversation in the IndexedDB history (survives a browser restart). */
export interface HistoryEntry {
  id: string;
  tabId: number;
  title: string;
  url?: string;
  items: TranscriptItem[];
  messages: ChatMessage[];
  updatedAt: number;
}

/** runtime.sendMessage requests handled by the background router. */
export type RouterRequest =
  | { type: 'chat.send'; tabId: number; text: string; mode: Mode }
  | { type: 'chat.stop'; tabId: number }
  | { type: 'chat.clear'; tabId: number }
  | { type: 'chat.state'; tabId: number }
  | { type: 'chat.continue'; tabId: number }
  | { type: 'chat.retry'; tabId: number }
  | { type: 'plan.approve'; tabId: number; id: string; steps: string[] }
  | { type: 'plan.reject'; tabId: number; id: string }
  | { type: 'confirm.answer'; tabId: number; id: string; answer: ConfirmAnswer }
  | { type: 'clarify.answer'; tabId: number; id: string; text: string }
  | { type: 'handoff.answer'; tabId: number; id: string; answer: 'done' | 'cancel' }
  | { type: 'handoff.focus'; tabId: number }
  | { type: 'handoff.fill'; tabId: number; id: string; code: string }
  | { type: 'history.list'; limit?: number }
  | { type: 'history.delete'; id: string }
  | { type: 'tool.run'; tabId: number; name: string; args?: Record<string, unknown> }
  | { type: 'tool.list' }
  | { type: 'page.highlight'; tabId: number; ref: string }
  | { type: 'recorder.status' }
  | { type: 'recorder.start'; tabId: number }
  | { type: 'recorder.stop' }
  | { type: 'provider.models'; provider?: ProviderSettings }
  | { type: 'settings.get' }
  | { type: 'settings.set'; settings: Partial<Settings> }
  | { type: 'history.list' }
  | { type: 'history.get'; id: string }
  | { type: 'history.clear' }
  | { type: 'adapters.list' }
  | { type: 'adapters.setEnabled'; id: string; enabled: boolean }
  | { type: 'adapters.save'; text: string }
  | { type: 'adapters.remove'; id: string }
  | { type: 'adapters.export' }
  | { type: 'adapters.import'; data: unknown }
  | { type: 'skills.list'; tabId?: number }
  | { type: 'skills.save'; text: string }
  | { type: 'skills.remove'; name: string }
  | { type: 'skills.setEnabled'; name: string; enabled: boolean }
  | { type: 'skills.export' }
  | { type: 'skills.import'; data: unknown }
  | { type: 'skills.run'; tabId: number; name: string; values?: Record<string, string> }
  // Traces and workflows: service/handlers/traces.js and workflows.js.
  | { type: 'traces.list' }
  | { type: 'traces.get'; id: string }
  | { type: 'traces.delete'; id: string }
  | { type: 'traces.clear' }
  | { type: 'workflows.list' }
  | { type: 'workflows.get'; id: string }
  | { type: 'workflows.draft'; runId: string }
  | { type: 'workflows.save'; workflow: import('./workflows').Workflow }
  | { type: 'workflows.delete'; id: string }
  | { type: 'workflows.run'; tabId: number; id: string; values?: Record<string, string>; repair?: boolean }
  | { type: 'workflows.applyRepair'; id: string; step: number; accept: boolean }
  | { type: 'workflows.export'; id?: string }
  | { type: 'workflows.import'; data: unknown }
  | JobsRequest
  // The MCP bridge (service/handlers/mcp.js, docs/MCP.md).
  | { type: 'mcp.status' }
  | { type: 'mcp.pair'; code: string; grant: import('../mcp-protocol/grants.js').Grant }
  | { type: 'mcp.grant'; id: string; grant: import('../mcp-protocol/grants.js').Grant }
  | { type: 'mcp.revoke'; id: string }
  | { type: 'mcp.stop'; tabId: number }
  | { type: 'mcp.driver'; tabId: number }
  // Spending and budgets (service/handlers/spend.js): every run's figures, and a paused run's raised cap.
  | { type: 'spend.status' }
  | { type: 'spend.raise'; tabId: number; id: string; amount: number }
  // The runs overview (service/runs-overview.js).
  | { type: 'runs.list' };

/** Pushed over the port named `panel:<tabId>`. */
export type PanelEvent =
  | { type: 'state'; items: TranscriptItem[]; running: boolean }
  | { type: 'upsert'; item: TranscriptItem }
  | { type: 'delta'; id: string; text: string }
  | { type: 'running'; running: boolean; phase?: RunPhase }
  /** a provider wait (429 / retry backoff), shown in the status line; '' clears it */
  | { type: 'status'; text: string }
  /** tokens and cost summed over this tab's conversation */
  | { type: 'usage'; usage: UsageTotal }
  /** this tab's current (or last) run: its tokens and cost, today's, the budgets (service/spend.js) */
  | { type: 'runCost'; cost: import('./spend').RunCostView }
  /** an MCP client acts in this tab (its name), or no longer (null): ui/driver-bar.js */
  | { type: 'driver'; name: string | null }
  /** whether a tab is being recorded (the panel's record button and pill); file: a recording was just saved */
  | { type: 'recording'; status: import('./platform').RecordingStatus & { available: boolean }; file?: import('./platform').RecordingFile }
  /** every active run and the work queued for a slot (the runs overview), to every panel */
  | { type: 'runs'; runs: RunRow[]; queued: QueuedRow[] };

/** Who started a run: the person in a panel, a scheduled job, an MCP client (label: the job's title, the client's name). */
export interface RunOrigin { kind: 'panel' | 'job' | 'mcp'; label?: string; jobId?: string; task?: string }

/** One active run in the runs overview (ui/runs-overview.js). */
export interface RunRow {
  tabId: number;
  phase: RunPhase;
  mode: Mode;
  task: string;
  startedAt: number;
  kind: RunOrigin['kind'];
  label?: string;
  tab: { url: string; title: string };
  /** the card the run waits on the person for (plan, confirm, clarify, a budget, the person's turn at a site) */
  waiting?: TranscriptItem;
  /** the run's tabs: a browser tab group (grouped) or, where the browser has none, a labelled set */
  group?: { title: string; tabs: number[]; grouped: boolean };
  /** its tokens and cost so far (service/spend.js), once it has called a model */
  cost?: import('./spend').RunCostView;
}

/** Work waiting for a free slot (Settings → runs at once). */
export interface QueuedRow { id: string; kind: 'job' | 'mcp'; title: string; since: number; limit: number }

export interface UsageTotal {
  inputTokens: number; outputTokens: number; costUsd?: number; calls: number;
  /** some calls' usage is Tabwright's estimate (their provider reported none) */
  estimated?: boolean;
}

/** A refusal of a file or form may name each field to fix (fields). */
export type RouterReply<T = unknown> = { ok: true; data: T } | { ok: false; code: string; message: string; fields?: { field: string; message: string }[] };

/**
 * What content/channel-hold.js (a content script in every frame) sends the background about the
 * channels the request hold cannot pause; the router takes them only from this extension's content
 * scripts, for the sender's own tab and frame (service/handlers/channel-hold.js). Not part of
 * RouterRequest: Tabwright's pages never send them.
 */
export type ChannelHoldMessage =
  | { type: 'channelHold.state' }
  | {
      type: 'channelHold.send';
      /** the sending document's random id (16 hex digits): replies are paired within it */
      doc: string;
      /** the page-world helper's number for this send, within the document */
      id: number;
      what: { channel: 'websocket' | 'websocket_frame' | 'datachannel'; method: 'GET' | 'SEND'; url: string; text?: string; bytes?: number };
    }
  | { type: 'channelHold.reply'; doc: string; id: number; reply: { text?: string; bytes?: number; error?: string } };

/** The background's push to every frame of a tab when its hold begins or ends; seq grows with each change. */
export interface ChannelHoldState { type: 'channelHold.state'; held: boolean; seq: number }
