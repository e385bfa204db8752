// Shapes that cross module boundaries: conversation messages, provider streams, tools.
// Browser-free: the agent core and the providers are typed against these alone.

export type Role = 'system' | 'user' | 'assistant' | 'tool';

export type ContentPart =
  | { type: 'text'; text: string }
  | { type: 'image'; mediaType: string; data: string };

/** A tool call as the model wrote it; `arguments` is the raw JSON text, parsed by the loop. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** One message of a conversation, in Tabwright's provider-neutral form. */
export interface ChatMessage {
  role: Role;
  content: string | ContentPart[];
  toolCalls?: ToolCall[];
  /** role 'tool': the call this answers */
  toolCallId?: string;
  /** role 'tool': the tool's name (some wire formats need it) */
  name?: string;
}

export type JSONSchema = {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JSONSchema>;
  required?: string[];
  items?: JSONSchema;
  enum?: (string | number | boolean)[];
  minimum?: number;
  maximum?: number;
  default?: unknown;
  additionalProperties?: boolean | JSONSchema;
  [key: string]: unknown;
};

export interface ToolSchema {
  name: string;
  description: string;
  parameters: JSONSchema;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  /** input tokens served from the provider's prompt cache (billed lower) */
  cachedInputTokens?: number;
  /** US dollars, when the model's price is known */
  costUsd?: number;
  /** the provider reported no usage for the call: these are Tabwright's estimate (agent/spend/estimate.js) */
  estimated?: boolean;
}

/** What a model can do, from providers/models.js. Prices are US dollars per million tokens. */
export interface Capabilities {
  tools: boolean;
  vision: boolean;
  contextWindow: number;
  maxOutput: number;
  price?: { input: number; output: number; cachedInput?: number };
}

/** A whole answer (Provider.chat): the stream collected. */
export interface ChatResult {
  text: string;
  toolCalls: ToolCall[];
  usage: Usage;
  finish: string;
}

/** What a provider's chatStream yields, whatever its wire format. */
export type StreamEvent =
  | { type: 'text'; text: string }
  | { type: 'tool_call_delta'; index: number; id?: string; name?: string; argumentsDelta?: string }
  | { type: 'usage'; usage: Usage }
  | { type: 'finish'; reason: string };

export interface ChatRequest {
  messages: ChatMessage[];
  tools: ToolSchema[];
  signal?: AbortSignal;
  maxTokens?: number;
  temperature?: number;
}

export interface Provider {
  /** e.g. 'openai' */
  kind: string;
  /** human-readable, used in error messages: "OpenAI-compatible (http://…/v1)" */
  label: string;
  model: string;
  chatStream(req: ChatRequest): AsyncIterable<StreamEvent>;
  listModels(signal?: AbortSignal): Promise<string[]>;
  /* Every provider built by providers/index.js has the three below (providers/base.js); they are
     optional here so hand-written test doubles need only chatStream and listModels. */
  chat?(req: ChatRequest): Promise<ChatResult>;
  testConnection?(signal?: AbortSignal): Promise<{ ok: true; models: string[] } | { ok: false; code: string; message: string }>;
  capabilities?(): Capabilities;
  /** what the provider's API says about the model's limits (providers/limits.js), when it says anything */
  modelInfo?(signal: AbortSignal): Promise<{ contextWindow?: number; maxOutput?: number } | null>;
  /** the model's real limits: the user's setting, else the provider's word, the table, a default (providers/limits.js) */
  limits?(): Promise<ModelLimits>;
}

/** A model's context window and longest answer, in tokens, and where the figures come from. */
export interface ModelLimits {
  contextWindow: number;
  maxOutput: number;
  source: 'settings' | 'provider' | 'table' | 'default';
}

export type ToolOk<T = unknown> = { ok: true; data: T; /** an image for the model (screenshot); the text result stays in data */ image?: { mediaType: string; data: string } };
/** code: one of the catalog's (agent/error-codes.js) */
export type ToolErr = { ok: false; code: import('../agent/error-codes.js').ErrorCode; message: string; retryable?: boolean };
export type ToolResult<T = unknown> = ToolOk<T> | ToolErr;

/** What a tool may touch: injected, so the tools run under Node in tests. */
export interface BrowserOps {
  /**
   * send a message to a frame's content script (the frame the message names, else the top one);
   * injects the scripts first when they are missing. Never waits past a deadline (10 s plus the
   * message's own timeoutMs, or opts.deadlineMs): then FRAME_UNRESPONSIVE naming the frame.
   */
  sendToContent(tabId: number, message: ContentRequest, opts?: { deadlineMs?: number }): Promise<ToolResult>;
  /** tabs the person has (a sign-in, a challenge): nothing reads them meanwhile (service/person-control.js); absent in tests */
  personControl?: { take(tabId: number): void; give(tabId: number): void; has(tabId: number): boolean };
  navigate(tabId: number, url: string, signal?: AbortSignal): Promise<ToolResult<{ url: string; title: string }>>;
  getTab(tabId: number): Promise<{ url: string; title: string; status?: string } | null>;
  /** wait until the tab has finished loading (no-op when it already has) */
  settle(tabId: number, signal?: AbortSignal): Promise<void>;
  // Actions.
  /** trusted input (Chrome, CDP); null where the browser has none: the tools use synthetic events */
  trusted: import('./platform').TrustedInput | null;
  screenshot(tabId: number, opts: import('./platform').ScreenshotOptions): Promise<{ dataUrl: string; width: number; height: number }>;
  /** files from paths on this computer (Chrome only); null elsewhere */
  setFilePaths: ((tabId: number, selector: string, paths: string[]) => Promise<void>) | null;
  history(tabId: number, which: 'back' | 'forward' | 'reload', signal?: AbortSignal): Promise<ToolResult<{ url: string; title: string }>>;
  listTabs(tabId: number): Promise<TabInfo[]>;
  openTab(url: string, opts: { active?: boolean; openerTabId?: number; signal?: AbortSignal }): Promise<TabInfo>;
  activateTab(tabId: number): Promise<TabInfo>;
  closeTab(tabId: number): Promise<void>;
  /** record tabs the page opens from now on; stop() returns them once loaded */
  watchNewTabs(openerTabId: number): { stop(): Promise<{ tabId: number; url: string; title: string }[]> };
  fetchUrl(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string; maxChars?: number; signal?: AbortSignal }): Promise<ToolResult<{ url: string; status: number; contentType: string; text: string; truncated: boolean }>>;
  listDownloads(opts: { limit?: number; query?: string }): Promise<DownloadInfo[]>;
  readPdf(url: string, opts: { from?: number; to?: number; maxChars?: number }): Promise<import('./platform').PdfText>;
  /** run extension script files in a frame (default the top one) */
  injectScripts(tabId: number, files: string[], frameId?: number): Promise<ToolResult>;
  /** the tab's frames (browser frameIds); [] when they cannot be listed */
  listFrames(tabId: number): Promise<FrameInfo[]>;
  /**
   * Hold the requests and downloads the tab starts from now on until release(): each one the
   * handlers want waits for decide() before it leaves (docs/SECURITY.md). null where it cannot be held.
   */
  holdEffects(tabId: number, handlers: import('./safety').HoldHandlers): Promise<import('./safety').EffectHold | null>;
  /** the developer tools' access to the tab (service/devtools.js) */
  devtools: DevtoolsOps;
  /** the tab recorder; null where the browser has none (Firefox) */
  recorder: import('./platform').TabRecorder | null;
}

/** What execute_js, network_requests and inject_css ask of the browser. */
export interface DevtoolsOps {
  evaluate(tabId: number, source: string, timeoutMs: number): Promise<import('../agent/js-eval.js').EvalOutcome>;
  network: import('./platform').NetworkLog;
  /** add a style sheet to the tab; returns its id (reverted on New chat, gone when the page navigates) */
  addCss(tabId: number, css: string): Promise<string>;
  /** remove one sheet by id, or all of the tab's */
  removeCss(tabId: number, id?: string): Promise<number>;
  listCss(tabId: number): { id: string; chars: number }[];
}

export interface FrameInfo {
  frameId: number;
  parentFrameId: number;
  url: string;
  /** it can host the content scripts (an http(s) page that loaded); others are never messaged */
  scriptable?: boolean;
  /** its last navigation failed (refused, unreachable, blocked): an error page */
  failed?: boolean;
  /** its document has not been parsed yet (still downloading): no script can answer there yet */
  loading?: boolean;
}

export interface TabInfo { tabId: number; url: string; title: string; active: boolean }
export interface DownloadInfo { id: number; url: string; filename: string; state: string; bytes: number; totalBytes: number; startTime: string; mime: string }

/** What an action acts on: a ref from the snapshot, visible text, a CSS selector, or a viewport point. */
export interface ActionTarget { ref?: string; text?: string; selector?: string; x?: number; y?: number; /** the frame a text/selector/point target is in (get_frames); a ref names its own */ frameId?: number }

export interface ToolContext {
  tabId: number;
  browser: BrowserOps;
  signal?: AbortSignal;
  /** the scheduler, for schedule_task and schedule_resume; absent where nothing can be scheduled */
  jobs?: import('./jobs').JobsAccess;
  /** set by the agent loop for the tools that steer the run (clarify, scratchpad); absent in the tool runner */
  agent?: AgentHooks;
  /** the user's skills, for skills and save_skill; absent where there are none */
  skills?: SkillsAccess;
  /** characters one tool result may put before the model in this run (agent/budget.js budgetsFor); default RESULT_BUDGET_CHARS */
  resultChars?: number;
  /** the recorder's limits from settings (record_tab) */
  recording?: { maxSeconds: number; maxBytes: number; audio: boolean };
  /** the saved workflows, for run_workflow; absent where there are none */
  workflows?: import('./workflows').WorkflowsAccess;
  /** the run's safety gate, set by the agent loop: a workflow the model runs passes each step through it */
  guard?: import('../agent/safety/guard.js').Guard;
}

/** What the skill tools may ask of the skills store (service/knowledge.js). */
export interface SkillsAccess {
  forUrl(url: string): Promise<import('./knowledge').Skill[]>;
  get(name: string): Promise<import('./knowledge').Skill | null>;
  save(text: string, source: 'agent' | 'user'): Promise<{ ok: true; skill: import('./knowledge').Skill } | { ok: false; errors: { field: string; message: string }[] }>;
}

/** What control tools may ask of the running loop. */
export interface AgentHooks {
  /** pause the run until the user answers; resolves with the answer, or null when nobody can answer */
  clarify(question: string): Promise<string | null>;
  /** replace the pinned scratchpad note */
  setNote(text: string): void;
}

export type { ConfirmRequest, ConfirmCategory, ConfirmAnswer, Effect } from './safety';
import type { ConfirmRequest, ConfirmAnswer, Effect } from './safety';

/** How a run talks to the user while it is paused. Implemented by the router (panel cards) or a test. */
export interface Interaction {
  approvePlan(planId: string, steps: string[], signal?: AbortSignal): Promise<{ approved: boolean; steps: string[] }>;
  confirm(req: ConfirmRequest, signal?: AbortSignal): Promise<ConfirmAnswer>;
  clarify(question: string, signal?: AbortSignal): Promise<string>;
  /** the run would pass a budget with its next model call: the raised cap the person chose (in the pause's unit), or null to end the run (agent/run/spend-check.js) */
  budget?(pause: import('./spend').BudgetPause, signal?: AbortSignal): Promise<number | null>;
  /** the person takes the tab (a sign-in, a code, a challenge): a card that waits for them; absent where nobody can (the run goes on) */
  handoff?(moment: import('./handoff').HandoffMoment, signal?: AbortSignal): import('./handoff').HandoffCard;
}

/**
 * A call as its card's sentence may name it (ui/tool-sentence.js builds it from the transcript item):
 * the element acted on (its accessible name, ref or selector; byText: or the visible text the call
 * gave, for tools that read text as the element), the page's address, the keys pressed, the option
 * chosen, the job's title, each quoted or cut as a card has room for.
 */
export interface SaidCall {
  name: string;
  /** the call succeeded (false while it has no result yet) */
  ok: boolean;
  /** end: for a call with two elements (drag_drop), the one its from_ or to_ arguments name */
  element(byText?: boolean, end?: 'from' | 'to'): string;
  url(): string;
  keys(): string;
  option(): string;
  title(): string;
  /** one argument, quoted and cut as a card has room for ('' when the call gave none) */
  quoted?(key: string): string;
  /** one argument as the call gave it, to choose the sentence by (an action, a method, a yes or no) */
  arg?(key: string): unknown;
  /** the files a call gives (upload_file), by name, quoted */
  files?(): string;
}

/**
 * A tool card's sentence in the user's language: the tool's message (`t('toolSays_…', …)`, a key
 * every locale has: a test checks) filled from the call.
 */
export type ToolSays = (t: (key: string, subs?: string | string[]) => string, call: SaidCall) => string;

export interface Tool {
  name: string;
  description: string;
  parameters: JSONSchema;
  /** what the tool can do (types/safety.d.ts); the policy and the modes read it, and a tool that declares nothing fails a test */
  effects: readonly Effect[];
  /** the effects of one call, when they depend on its arguments (fetch_url with POST writes); defaults to effects */
  effectsFor?(args: Record<string, any>): readonly Effect[];
  /** where a call goes, for the task scope: a URL (default: args.url), or the page of the tab it switches to */
  destination?(args: Record<string, any>, ctx: ToolContext): Promise<string | null>;
  /**
   * the most characters of this call's result the model may receive, when the tool fits its own
   * output to a budget (agent/budget.js); others are capped at the default budget
   */
  resultChars?(args: Record<string, any>, budget: number): number;
  /**
   * its place in the compact tier offered to small models (agent/tool-tiers.js): a short description and,
   * when the full schema is long, a subset of its parameters (arguments are still checked against the full one)
   */
  compact?: { description: string; parameters?: JSONSchema };
  /**
   * looks at the whole page (its outline, its text): the tools Plan mode's planner is offered, and
   * the read-only tier a model too small for acting gets (agent/tools/index.js, agent/tool-tiers.js)
   */
  looksAtPage?: boolean;
  /** how its calls are shown in the panel, when its effects do not say it (agent/tools/index.js shownAs) */
  shows?: 'read' | 'act' | 'go' | 'run';
  /** the sentence a call of it gets on its card (ui/tool-sentence.js); every tool declares one (a test checks) */
  says?: ToolSays;
  /**
   * how a saved workflow replays its calls (agent/workflows/compile.js): 'targeted' acts on one element
   * (the step keeps its fingerprint), 'target-optional' may name one, 'page' runs with its arguments
   * alone, 'silent' is the model's own reading or bookkeeping (left out without a note); absent: never
   * a step (the compiler notes that it was left out)
   */
  replay?: 'targeted' | 'target-optional' | 'page' | 'silent';
  /** what it read is a replay's output: a replayed step's result is handed back (agent/workflows/replay.js); reads only */
  replayOutput?: boolean;
  /** enters data into the page (a field, a choice, a file): a workflow with such a step is there to change something (agent/workflows/replay-outcome.js) */
  entersData?: boolean;
  /** the argument holding what a call types: never its target (even when named text), and a saved workflow makes it a parameter */
  typedArg?: string;
  /** offered even when a skill limits the run to its own tools: the run must still be able to finish and to ask (agent/run/prepare.js) */
  alwaysOffered?: boolean;
  /** ends the run when it succeeds */
  terminal?: boolean;
  /** offered through the tool runner only, never to the model (debugging and evals) */
  runnerOnly?: boolean;
  /** a developer tool: offered only in Act mode and only when the user turned on Settings → Developer tools */
  developer?: boolean;
  /** what the browser must have for the tool to be offered (the tab recorder: Chrome only) */
  needs?: 'recorder' | 'workflows';
  run(args: Record<string, any>, ctx: ToolContext): Promise<ToolResult>;
}

export type Mode = 'ask' | 'act' | 'plan';

/** What the loop reports while it runs. */
export type AgentEvent =
  | { type: 'text_delta'; messageId: string; text: string }
  | { type: 'assistant_done'; messageId: string; text: string }
  | { type: 'tool_call'; id: string; name: string; args: unknown }
  /** args: the call's arguments again, with any secret masked (they replace what tool_call showed) */
  /** ms: how long the call took; target: the element it acted on, as the page names it (for the card's sentence) */
  | { type: 'tool_result'; id: string; name: string; result: ToolResult; args?: unknown; ms?: number; target?: { role: string; name: string } }
  /** the screenshot a step brought the model (a data: URL), for the step's card */
  | { type: 'tool_image'; id: string; image: string }
  /** outcome: the run's verdict with its evidence (agent/outcome.js); every finished run carries one */
  | { type: 'final'; text: string; check?: DoneCheck; outcome?: Outcome }
  | { type: 'usage'; usage: Usage }
  /** the provider is waiting before a retry (429 Retry-After, 5xx, network); shown, not an error */
  | { type: 'waiting'; ms: number; attempt: number; reason: string; message: string }
  | { type: 'error'; code: string; message: string }
  | { type: 'compacted'; reason: CompactionReason; before: number; after: number }
  | { type: 'plan'; planId: string; steps: string[]; status: PlanStatus }
  | { type: 'plan_step'; planId: string; index: number; status: PlanStepStatus; output?: string }
  /** args: the values a translated sentence for the code takes (the panel says it in the person's language; message stays the English one) */
  | { type: 'notice'; code: string; message: string; args?: string[] }
  /** what Tabwright told the model about the site (agent/adapters/site-guide.js), shown in the panel */
  | { type: 'guidance'; key: string; name: string; site: string; adapterId: string | null; skills: string[]; text: string };

export type CompactionReason = 'messages' | 'chars' | 'tokens' | 'overflow';
export type PlanStatus = 'pending' | 'approved' | 'rejected' | 'running' | 'done' | 'failed';
export type PlanStepStatus = 'pending' | 'running' | 'ok' | 'failed' | 'skipped';

/** The observation taken after done: does the page show what the summary claims? */
export interface DoneCheck {
  url: string;
  title: string;
  /** null when the summary quotes nothing to check */
  verified: boolean | null;
  /** quoted phrases of the summary that the page does not show */
  missing: string[];
  /** what proves the task done where the page shows nothing quoted: writes the server accepted ("POST shop.test/api/orders → 201"), jobs created */
  evidence?: string[];
  /** the run's last write, which the server refused: a done that stood after its challenge is flagged with it */
  refused?: string[];
}

/**
 * The verdict on a finished run, the same wherever it is shown (panel, History, Traces, jobs, MCP
 * run_task): verified needs positive evidence for every write the task needed; failed names the write
 * and what the server said; not_verified says why nothing can be vouched for.
 */
export type Verdict = 'verified' | 'not_verified' | 'failed';

/** Why a verdict is what it is: a code from agent/error-codes.js's catalog and its sentence for people. */
export interface OutcomeReason { code: string; message: string }

/** One write of a Verified (or Failed) run, as the person can open and export it. */
export interface ReceiptEntry {
  method: string;
  url: string;
  status?: number;
  /** the identifier or fields the server echoed back (id, number, the saved values), short */
  echoed?: string[];
  /** what the server said when it refused (an error message from the body) */
  said?: string;
  /** who answered: the server, the page's service worker, a cache */
  answeredBy?: 'server' | 'service_worker' | 'cache';
  /** epoch ms when the answer came */
  at: number;
  /** the write's own verdict */
  verdict: Verdict;
  /** the page sent it after the agent said done (held in the settle period, reported with the verdict) */
  afterDone?: boolean;
}

export interface Outcome {
  verdict: Verdict;
  reasons: OutcomeReason[];
  receipt: ReceiptEntry[];
}

export type RunStatus = 'done' | 'answered' | 'error' | 'aborted' | 'step_limit' | 'rejected' | 'loop';

export interface RunOutcome {
  status: RunStatus;
  /** the verdict (done and answered runs; a run that failed or stopped is never verified) */
  outcome?: Outcome;
  text?: string;
  error?: { code: string; message: string };
  steps: number;
}

/** Messages the background sends to a content script. */
export type ContentRequest =
  | { type: 'content.snapshot'; maxChars?: number; interactiveOnly?: boolean; viewportOnly?: boolean; ref?: string; from?: number; to?: number; nonce?: string; frameId?: number; expectFrames?: number }
  | { type: 'content.frameHello'; frameId: number; nonce: string }
  | { type: 'content.describe'; ref: string }
  | { type: 'content.capabilities'; frameId?: number }
  | { type: 'content.extract'; collection: string; fields?: string[]; limit?: number }
  | { type: 'content.click'; ref: string }
  | { type: 'content.type'; ref: string; text: string; clear?: boolean; submit?: boolean }
  | { type: 'content.read'; maxChars?: number }
  | { type: 'content.readable'; maxChars?: number }
  | { type: 'content.ping' }
  | { type: 'content.indicator'; show: boolean; driver?: string }
  | { type: 'content.indicatorState' }

  // Actions: content/input.js, widgets.js, page-events.js, picker.js; see their handlers.
  | { type: `content.${string}`; [key: string]: unknown };
