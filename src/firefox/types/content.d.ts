// Globals shared by the classic content scripts (content/*.js), which cannot import modules.
import type { ToolResult } from './core';

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
  accname: { name(el: Element, opts?: { shown?: boolean }): string; description(el: Element): string };
  actionable: any;
  refs: any;
  listeners: { collect(): WeakSet<Element> };
  frames: { frameIdOf(iframe: Element, nonce?: string): number | null; introduced(nonce: string | undefined, count: number, ms?: number): Promise<void> };
  capabilities: any;
  reader: { read(maxChars?: number): ToolResult };
  actions: {
    click(ref: string): ToolResult;
    type(ref: string, text: string, opts?: { clear?: boolean; submit?: boolean }): ToolResult;
    readText(maxChars?: number): ToolResult;
  };
}

declare global {
  var Tabwright: TabwrightContent;
  /** vendor/readability.js (@mozilla/readability), loaded before content/reader.js */
  var Readability: any;
  /** vendor/turndown.js, loaded before content/reader.js */
  var TurndownService: any;
}
