// Messages between the panel (or any extension page), the background router and content scripts.
import type { Mode, ToolResult } from './core';
import type { JobsRequest } from './jobs';

export interface ProviderSettings {
  kind: 'openai';
  baseUrl: string;
  model: string;
  apiKey: string;
}

export interface Settings {
  provider: ProviderSettings;
  defaultMode: Mode;
  maxSteps: number;
}

/** One entry of the transcript the panel renders. The router owns it; panels mirror it. */
export type TranscriptItem =
  | { kind: 'user'; id: string; text: string; mode: Mode }
  | { kind: 'assistant'; id: string; text: string; streaming: boolean; final?: boolean }
  | { kind: 'tool'; id: string; name: string; args: unknown; result?: ToolResult }
  | { kind: 'error'; id: string; code: string; message: string };

/** runtime.sendMessage requests handled by the background router. */
export type RouterRequest =
  | { type: 'chat.send'; tabId: number; text: string; mode: Mode }
  | { type: 'chat.stop'; tabId: number }
  | { type: 'chat.clear'; tabId: number }
  | { type: 'chat.state'; tabId: number }
  | { type: 'tool.run'; tabId: number; name: string; args?: Record<string, unknown> }
  | { type: 'tool.list' }
  | { type: 'provider.models' }
  | { type: 'settings.get' }
  | { type: 'settings.set'; settings: Partial<Settings> }
  | JobsRequest;

/** Pushed over the port named `panel:<tabId>`. */
export type PanelEvent =
  | { type: 'state'; items: TranscriptItem[]; running: boolean }
  | { type: 'upsert'; item: TranscriptItem }
  | { type: 'delta'; id: string; text: string }
  | { type: 'running'; running: boolean };

export type RouterReply<T = unknown> = { ok: true; data: T } | { ok: false; code: string; message: string };
