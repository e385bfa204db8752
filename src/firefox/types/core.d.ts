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
}

export type ToolOk<T = unknown> = { ok: true; data: T };
export type ToolErr = { ok: false; code: string; message: string; retryable?: boolean };
export type ToolResult<T = unknown> = ToolOk<T> | ToolErr;

/** What a tool may touch: injected, so the tools run under Node in tests. */
export interface BrowserOps {
  /** send a message to the tab's content script; injects the script first when it is missing */
  sendToContent(tabId: number, message: ContentRequest): Promise<ToolResult>;
  navigate(tabId: number, url: string, signal?: AbortSignal): Promise<ToolResult<{ url: string; title: string }>>;
  getTab(tabId: number): Promise<{ url: string; title: string; status?: string } | null>;
  /** wait until the tab has finished loading (no-op when it already has) */
  settle(tabId: number, signal?: AbortSignal): Promise<void>;
  /** run extension script files in a frame (default the top one) */
  injectScripts(tabId: number, files: string[], frameId?: number): Promise<ToolResult>;
  /** the tab's frames (browser frameIds); [] when they cannot be listed */
  listFrames(tabId: number): Promise<FrameInfo[]>;
}

export interface FrameInfo {
  frameId: number;
  parentFrameId: number;
  url: string;
}

export interface ToolContext {
  tabId: number;
  browser: BrowserOps;
  signal?: AbortSignal;
}

export interface Tool {
  name: string;
  description: string;
  parameters: JSONSchema;
  /** safe in Ask mode: reads, never changes the page */
  readOnly: boolean;
  /** ends the run when it succeeds */
  terminal?: boolean;
  /** offered through the tool runner only, never to the model (debugging and evals) */
  runnerOnly?: boolean;
  run(args: Record<string, any>, ctx: ToolContext): Promise<ToolResult>;
}

export type Mode = 'ask' | 'act';

/** What the loop reports while it runs. */
export type AgentEvent =
  | { type: 'text_delta'; messageId: string; text: string }
  | { type: 'assistant_done'; messageId: string; text: string }
  | { type: 'tool_call'; id: string; name: string; args: unknown }
  | { type: 'tool_result'; id: string; name: string; result: ToolResult }
  | { type: 'final'; text: string }
  | { type: 'usage'; usage: Usage }
  | { type: 'error'; code: string; message: string };

export type RunStatus = 'done' | 'answered' | 'error' | 'aborted' | 'step_limit';

export interface RunOutcome {
  status: RunStatus;
  text?: string;
  error?: { code: string; message: string };
  steps: number;
}

/** Messages the background sends to a content script. */
export type ContentRequest =
  | { type: 'content.snapshot'; maxChars?: number; interactiveOnly?: boolean; viewportOnly?: boolean; ref?: string; nonce?: string; frameId?: number; expectFrames?: number }
  | { type: 'content.frameHello'; frameId: number; nonce: string }
  | { type: 'content.describe'; ref: string }
  | { type: 'content.capabilities'; frameId?: number }
  | { type: 'content.extract'; collection: string; fields?: string[]; limit?: number }
  | { type: 'content.click'; ref: string }
  | { type: 'content.type'; ref: string; text: string; clear?: boolean; submit?: boolean }
  | { type: 'content.read'; maxChars?: number }
  | { type: 'content.readable'; maxChars?: number }
  | { type: 'content.ping' };
