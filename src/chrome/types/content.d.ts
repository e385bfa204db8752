// Globals shared by the classic content scripts (content/*.js), which cannot import modules.
import type { ToolResult, ToolErr, ActionTarget } from './core';

export interface OutlineResult {
  text: string;
  refs: number;
  url: string;
  title: string;
  truncated: boolean;
}

/** A content request handler: answers one `content.*` message type, sync or async. */
export type ContentHandler = (msg: any) => ToolResult | Promise<ToolResult>;

export interface TabwrightContent {
  listening?: boolean;
  /** request type → handler; each content file registers its own */
  handlers: Record<string, ContentHandler>;
  outline: {
    build(opts?: { maxChars?: number; interactiveOnly?: boolean; viewportOnly?: boolean; ref?: string; nonce?: string; frameId?: number }): OutlineResult | import('./core').ToolErr;
    resolve(ref: string): Element | null;
    landmarkOf(el: Element): string;
    describe(ref: string): ToolResult;
  };
  // Perception modules (content/*.js), each typed in its own file's JSDoc.
  dom: any;
  roles: any;
  accname: { name(el: Element, opts?: { shown?: boolean }): string; text(el: Element): string; description(el: Element): string; NAME_MAX: number };
  actionable: any;
  refs: any;
  listeners: { collect(): WeakSet<Element> };
  frames: { frameIdOf(iframe: Element, nonce?: string): number | null; introduced(nonce: string | undefined, count: number, ms?: number): Promise<void>; frameElementOf(childId: number): Element | null };
  capabilities: any;
  /** content/secret-patterns.js: generated from agent/safety/secret-patterns.js (npm run sync) */
  secretPatterns: typeof import('../agent/safety/secret-patterns.js');
  /** content/secrets.js: secret fields and the masking of everything that leaves the page */
  secrets: import('./secrets').ContentSecrets;
  reader: { read(maxChars?: number): ToolResult };
  pageText: {
    readText(maxChars?: number): ToolResult;
  };
  indicator: {
    show(): void;
    hide(): void;
    state(): { shown: boolean; visible?: boolean; stop?: { x: number; y: number } };
  };
  // Issue #4 (actions).
  input: TabwrightInput;
  widgets?: Record<string, (...args: any[]) => unknown>;
  events?: { watch(): void; effects(): Record<string, unknown> };
  picker?: { pick(message?: string, timeoutMs?: number): Promise<ToolResult> };
}

/** content/input.js: targets, actionability checks, synthetic pointer and keyboard input (issue #4). */
export interface TabwrightInput {
  /** the next task, unthrottled in a background tab */
  nextTask(): Promise<void>;
  /** one rendering frame in a visible tab; the next task in a hidden one */
  nextFrame(): Promise<unknown>;
  /** tag el with a one-off attribute; returns a selector for it (CDP, or a second request) */
  mark(el: Element): string;
  find(t: ActionTarget): { el: Element } | ToolErr;
  prepare(t: ActionTarget, opts?: { needPoint?: boolean; allowDisabled?: boolean }): Promise<{ el: Element; point: Point } | ToolErr>;
  describe(el: Element): string;
  deepElements(root: Document | ShadowRoot | Element): Generator<Element>;
  shadowOf(el: Element): ShadowRoot | null;
  deepElementFromPoint(x: number, y: number): Element | null;
  composedContains(outer: Element, inner: Element | null): boolean;
  syntheticClick(el: Element, p: Point, o: { button?: 'left' | 'right' | 'middle'; clickCount?: number; modifiers?: string[] }): void;
  syntheticKey(key: string, mods: Mods): void;
  parseChord(chord: string): { key: string; mods: string[] };
  mods(list: string[] | undefined): Mods;
  moveTo(el: Element, p: Point): void;
  fireMouse(el: Element, type: string, p: Point, o?: { button?: number; buttons?: number; detail?: number; mods?: Mods; relatedTarget?: Element | null }): boolean;
  setNativeValue(el: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, value: string): void;
  insertText(el: Element, text: string): void;
  focusField(el: Element, clear: boolean): ToolResult;
  fieldValue(el: Element): string;
  typeSynthetic(el: Element, text: string, submit: boolean): Promise<ToolResult>;
  focused(): Element;
  clean(s: string | null | undefined): string;
  visibleBox(el: Element): DOMRect | null;
  removed(name: string): ToolErr;
  readonly leaving: boolean;
}
export type Point = { x: number; y: number };
export type Mods = { ctrl?: boolean; shift?: boolean; alt?: boolean; meta?: boolean };

declare global {
  var Tabwright: TabwrightContent;
  /** vendor/readability.js (@mozilla/readability), loaded before content/reader.js */
  var Readability: any;
  /** vendor/turndown.js, loaded before content/reader.js */
  var TurndownService: any;
}
