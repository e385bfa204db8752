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
    build(opts?: { maxChars?: number }): OutlineResult;
    resolve(ref: string): Element | null;
  };
  actions: {
    click(ref: string): ToolResult;
    type(ref: string, text: string, opts?: { clear?: boolean; submit?: boolean }): ToolResult;
    readText(maxChars?: number): ToolResult;
  };
  indicator: {
    show(): void;
    hide(): void;
    state(): { shown: boolean; visible?: boolean; stop?: { x: number; y: number } };
  };
}

declare global {
  var Tabwright: TabwrightContent;
}
