// Messages between the panel (or any extension page), the background router and content scripts.
import type { Mode, ToolResult, Usage } from './core';

export interface ProviderSettings {
  kind: 'openai';
  baseUrl: string;
  model: string;
  apiKey: string;
  /** a stable id and a name the user chose, for the options page's provider list */
  id?: string;
  name?: string;
  /** USD per million tokens, for the panel's cost counter; absent means "tokens only" */
  pricing?: { input: number; output: number };
}

/** Which provider and model a role uses; an empty model means the provider's own. */
export interface RoleModel { providerId: string; model: string }

export type ScreenshotPolicy = 'auto' | 'always' | 'never';

export interface Settings {
  provider: ProviderSettings;
  defaultMode: Mode;
  maxSteps: number;
  /** every configured provider; `provider` is the active one (kept for older readers) */
  providers?: ProviderSettings[];
  roles?: { planner?: RoleModel; executor?: RoleModel; vision?: RoleModel };
  screenshotPolicy?: ScreenshotPolicy;
  /** host patterns: `allow` lets the agent act without asking; `confirm` always asks first */
  sites?: { allow: string[]; confirm: string[] };
  /** set once the user has chosen a provider (first run is over) */
  onboarded?: boolean;
}

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
  | { type: 'provider.models'; provider?: ProviderSettings }
  | { type: 'settings.get' }
  | { type: 'settings.set'; settings: Partial<Settings> }
  | { type: 'history.list' }
  | { type: 'history.get'; id: string }
  | { type: 'history.clear' };

/** Pushed over the port named `panel:<tabId>`. */
export type PanelEvent =
  | { type: 'state'; items: TranscriptItem[]; running: boolean }
  | { type: 'upsert'; item: TranscriptItem }
  | { type: 'delta'; id: string; text: string }
  | { type: 'running'; running: boolean }
  | { type: 'usage'; usage: Usage };

export type RouterReply<T = unknown> = { ok: true; data: T } | { ok: false; code: string; message: string };
