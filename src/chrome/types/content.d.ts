// Globals shared by the classic content scripts (content/*.js), which cannot import modules.
import type { ToolResult, ToolErr, ActionTarget } from './core';

export interface OutlineResult {
  text: string;
  refs: number;
  url: string;
  title: string;
  truncated: boolean;
}

/** One node of the outline between its walk and its text (content/outline.js, outline-budget.js). */
export interface OutlineNode {
  /** a run of readable text (no role) */
  text?: string;
  role?: string;
  name?: string;
  /** the name is a hint from class/id words, not an accessible name */
  hint?: boolean;
  states?: string[];
  value?: string;
  ref?: string;
  /** a cross-origin frame's frameId (its outline is spliced in by the background); null: not readable */
  frame?: number | null;
  children?: OutlineNode[];
  /** a line that stands for content left out (off-screen) */
  summary?: string;
  /** the element the line stands for (regions can be summarised and named by a ref) */
  el?: Element;
  /** the region is summarised as this (its children left out, one snapshot call away) */
  collapsed?: string;
  /** a native select's options, as written after its line (content/select-options.js) */
  options?: string;
  /** what the walk left out once it had spent its budget: the container's children from `from` on */
  rest?: { el: Element; box: OutlineBox; from: number; items: number; actionable: number; notable: { el: Element; role: string; name: string; actionable: number }[]; chunks: OutlinePart[] };
}

/** One follow-up call a "not outlined" line names: the children of `el` from `from` up to `to` (not included), planned to fit one call. */
export interface OutlinePart {
  el: Element;
  from: number;
  to?: number;
  actionable: number;
  /** the estimated characters it shows */
  cost: number;
}

/** A container of content left out, with its children in the flat tree (read once per pass) and where the last search found one. */
export interface OutlineBox {
  el: Element;
  kids: Node[];
  hint: number;
}

/** content/dom.js: the one DOM toolkit the outline, the names and the actions use. */
export interface DomToolkit {
  /** whitespace collapsed as rendered text does */
  clean(s: string | null | undefined): string;
  /** whether clean() would leave anything */
  hasInk(s: string): boolean;
  /** the element's computed style, one live object per element */
  style(el: Element): CSSStyleDeclaration | null;
  noBox(el: Element): boolean;
  rendering(el: Element): 'visible' | 'hidden' | 'none' | 'contents';
  /** out of the accessibility tree: no box, visibility hidden, aria-hidden or inert here or above */
  isHidden(el: Element): boolean;
  /** the same for a node reached from a shown ancestor: only its own state counts */
  isHiddenSelf(el: Element): boolean;
  /** the parent in the flat tree (slot, shadow host) */
  parentOf(el: Element): Element | null;
  /** the children in the flat tree (shadow root, slot's assigned nodes, same-origin frame's body) */
  childrenOf(node: Node): Node[];
  sameOriginDocument(el: Element): Document | null;
  byId(el: Element, id: string): Element | null;
  idrefs(el: Element, attr: string): Element[];
  /** a shadow root, open or (where content scripts may see them) closed */
  shadowOf(el: Element): ShadowRoot | null;
  treeShadow(el: Element): ShadowRoot | null;
  /** every element under root through shadow roots, in document order, iteratively */
  deepElements(root: Document | ShadowRoot | Element): Generator<Element>;
  /** the topmost element at a viewport point, through shadow roots */
  deepElementFromPoint(x: number, y: number): Element | null;
  composedContains(outer: Element, inner: Element | null): boolean;
  /** the element's box when it has one and shows */
  visibleBox(el: Element): DOMRect | null;
  /** the one selector for elements a user operates */
  INTERACTIVE: string;
  /** whether the element renders as a box of its own (block, cell, flex item, inline-block): a word boundary */
  blockish(el: Element): boolean;
  /** whether a box boundary stands at the start (end = false) or the end of the element's content */
  boxAtEdge(el: Element, end: boolean): boolean;
  /** s cut to at most max characters, ending in … when cut, at a word boundary when one is near */
  cap(s: string, max: number): string;
}

/** What the walk may still spend (content/outline-budget.js). */
export interface OutlineSpend { maxChars: number; budget: number; chars: number; lines: number; visited: number; stopped: boolean }

export interface OutlineBudget {
  DEFAULT_CHARS: number;
  /** the walk's allowance as a share of the budget */
  WALK_SHARE: number;
  MAX_PASSES: number;
  LINE_COST: number;
  spend(allowance: number, budget: number): OutlineSpend;
  spent(s: OutlineSpend): boolean;
  skip(node: Node, out: OutlineNode[], s: OutlineSpend): void;
  restLine(n: OutlineNode): string;
  fit(nodes: OutlineNode[], maxChars: number, ownLine: (n: OutlineNode, depth: number) => { line: string; inline: boolean }, keep?: Element | null): void;
  cutLine(n: OutlineNode, maxChars: number): string;
}

/** content/roles.js: explicit and implicit ARIA roles and the role sets. */
export interface Roles {
  /** the first known token of role="", else the implicit role ('' for none); presentational roles on focusable elements are ignored */
  roleOf(el: Element): string;
  /** the HTML-AAM implicit role ('' when none worth naming, 'presentation' for alt="" images) */
  implicitRole(el: Element, tag?: string): string;
  /** roleOf() for an element known to have no role attribute: the implicit role, presentation as 'none' */
  implicitRoleOf(el: Element, tag?: string): string;
  focusable(el: Element): boolean;
  /** widgets a user operates: each gets a ref */
  WIDGET: Set<string>;
  /** roles named from their content (accname 1.2 §4.3.2) */
  NAME_FROM_CONTENT: Set<string>;
  LANDMARK: Set<string>;
}

/** Why an element is actionable (content/actionable.js reason()); '' when it is not. */
export type ActionReason = '' | 'role' | 'label' | 'summary' | 'editable' | 'listener' | 'draggable' | 'tabindex' | 'pointer';

/** content/actionable.js: what a user can act on and the names of unnamed controls. */
export interface Actionable {
  /** the role the outline shows (a label standing in for its hidden input takes the input's role) */
  /** marked: false when the caller knows el carries none of the attributes marked() looks for (its role is then the implicit one) */
  roleFor(el: Element, marked?: boolean, tag?: string): string;
  reason(el: Element, role: string, ctx: { listeners: WeakSet<Element>; insideAction: boolean }, marked?: boolean, tag?: string): ActionReason;
  /** whether el carries any attribute role and reason read (aria-hidden, inert, role, contenteditable, onclick, draggable, tabindex) */
  marked(el: Element): boolean;
  /** cursor:pointer set on el itself, not inherited from its flat-tree parent */
  pointerStart(el: Element): boolean;
  /** up to three readable class/id/icon words, '' when there are none */
  hintOf(el: Element): string;
  /** the accessible name with the fallbacks for actionable but unnamed elements */
  nameFor(el: Element, role: string, why?: string, shown?: boolean, tag?: string, ownRole?: string): string;
  wordsOf(token: string): string[];
}

/** What a ref remembers of its element, to re-bind after a re-render. */
export interface RefFingerprint { role: string; name: string; landmark: string; index: number }

/** content/refs.js: the ref registry. */
export interface RefRegistry {
  /** the element's ref (made on first use, kept for its life), registered with its fingerprint */
  refFor(el: Element, fp: RefFingerprint): string;
  /** the element's ref if it has one */
  refOf(el: Element): string | null;
  /** the live element behind a ref, re-bound by fingerprint after a re-render, or STALE_REF */
  lookup(ref: string): { el: Element; rebound?: boolean } | ToolErr;
  resolve(ref: string): Element | null;
  /** starts an outline pass: twin counts are rebuilt by it */
  beginPass(): void;
  /** the element's index among elements with the same role, name and landmark in this pass */
  countTwin(role: string, name: string, landmark: string): number;
  setFrameId(id: number): void;
  /** every element under root, through shadow roots and same-origin frames, iteratively */
  allElements(root: Document | ShadowRoot): Element[];
  readonly frameId: number;
}

/** content/ref-rule.js: targets inside targets. */
export interface RefRule {
  /** leaf widgets (and headings, images): their content is part of them */
  LEAF: Set<string>;
  /** whether listeners, tabindex and cursor:pointer inside such a target are part of it */
  swallows(why: string, role: string): boolean;
  /** whether the walk goes into a shown or actionable element */
  mustDescend(el: Element, role: string, why: string): boolean;
  /** a control below el, light children or slotted */
  controlInside(el: Element): boolean;
  /** whether a target around refs (out[start…]) keeps a ref of its own */
  keepsOwnRef(why: string, roleShown: boolean, out: OutlineNode[], start: number): boolean;
  /** a target around refs, named by its content: named by its own text instead (the fingerprint keeps the full name) */
  nameApart(node: OutlineNode): void;
  MAX_INNER_REFS: number;
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
  dom: DomToolkit;
  roles: Roles;
  accname: { name(el: Element, opts?: { shown?: boolean; tag?: string; role?: string }): string; text(el: Element): string; description(el: Element): string; NAME_MAX: number };
  actionable: Actionable;
  refs: RefRegistry;
  /** content/ref-rule.js: which targets hold targets of their own */
  refRule: RefRule;
  /** content/select-options.js: a native select's options after its line */
  selectOptions: { line(select: HTMLSelectElement): string; MAX_SHOWN: number };
  lineStates: {
    hasAria(el: Element): boolean;
    states(el: Element, role: string, aria: boolean, tag: string, focused: Set<Element>): string[];
    valueOf(el: Element, aria: boolean, tag: string): string;
  };
  listeners: { collect(): WeakSet<Element> };
  frames: { frameIdOf(iframe: Element, nonce?: string): number | null; introduced(nonce: string | undefined, count: number, ms?: number): Promise<void>; frameElementOf(childId: number): Element | null };
  /** content/capabilities.js: what the page offers (actions by kind, forms, repeated collections) */
  capabilities: {
    summary(): ToolResult;
    extract(collection: string, fields?: string[], limit?: number): ToolResult;
    /** the kind of action a control's text names ('search', 'pagination', 'download'…), or '' */
    kindOf(text: string): string;
  };
  /** content/page-channel.js: event names only the page-world helper (content/page-world.js) knows */
  pageChannel: { name(kind: string): string };
  /** content/channel-hold.js is listening: the page-world helper's sends go to the background through it */
  channelHold?: boolean;
  /** content/outline-budget.js: the outline's one output budget */
  outlineBudget: OutlineBudget;
  /** content/secret-patterns.js: generated from agent/safety/secret-patterns.js (npm run sync) */
  secretPatterns: typeof import('../agent/safety/secret-patterns.js');
  /** content/secrets.js: secret fields and the masking of everything that leaves the page */
  secrets: import('./secrets').ContentSecrets;
  reader: { read(maxChars?: number): ToolResult };
  pageText: {
    readText(maxChars?: number): ToolResult;
  };
  /** content/handoff.js: what may need the person (no field's value) */
  handoff: { signals(): import('./handoff').HandoffSignals };
  indicator: {
    show(driver?: string): void;
    hide(): void;
    state(): { shown: boolean; visible?: boolean; stop?: { x: number; y: number }; label?: string };
  };
  /** content/highlight.js: a brief outline around an element (the agent's target, a cited place) */
  highlight?: { flash(el: Element, opts?: { cite?: boolean; ms?: number }): void };
  // Actions.
  input: TabwrightInput;
  /** content/editing.js: the default actions of editing keys for synthetic key events */
  editing?: { key(el: Element, key: string, mods: Mods): void; selectedText(el: Element): string | null };
  /** content/drag.js */
  drag: {
    html5Drag(src: Element, dst: Element, from: Point, to: Point): void;
    pointerDrag(src: Element, from: Point, to: Point, steps?: number): Promise<{ captured: boolean | null }>;
    isDraggable(el: Element): boolean;
    /** is the input hooks of content/page-world.js in the page's world? */
    hooksPresent(): boolean;
    /** listen for the page-world hooks' reports on elements near `near`; returns a function that stops */
    hear(near: Element, types: string[], cb: (type: string, el: Element) => void): () => void;
  };
  /** content/scroll.js */
  scroll?: { scroll(msg: Record<string, unknown>): Promise<ToolResult> };
  /** content/widgets.js: fields, selects, checkboxes and files */
  widgets?: {
    setField(el: Element, value: string): ToolResult;
    selectNative(sel: HTMLSelectElement, want: OptionWant & { labels?: string[]; values?: string[] }): ToolResult;
    selectAria(combo: Element, want: OptionWant): Promise<ToolResult>;
    setChecked(target: ActionTarget, want: boolean): Promise<ToolResult>;
    setFiles(el: Element, files: { name: string; content?: string; base64?: string; mimeType?: string }[]): ToolResult;
    fileInputFor(target: ActionTarget): Promise<{ input: HTMLInputElement } | ToolErr>;
  };
  events?: { watch(): void; effects(): Record<string, unknown> };
  picker?: { pick(message?: string, timeoutMs?: number): Promise<ToolResult> };
}

/**
 * content/input.js: targets and actionability checks; content/pointer.js adds the synthetic pointer and
 * content/keys.js the synthetic keyboard.
 */
export interface TabwrightInput {
  /** the next task, unthrottled in a background tab */
  nextTask(): Promise<void>;
  /** one rendering frame in a visible tab; the next task in a hidden one */
  nextFrame(): Promise<unknown>;
  /** tag el with a one-off attribute; returns a selector for it (CDP, or a second request) */
  mark(el: Element): string;
  find(t: ActionTarget): { el: Element } | ToolErr;
  /** coverLater: a covered target answers its centre with `covered` instead of waiting (a click moves the pointer there, then settle() checks) */
  prepare(t: ActionTarget, opts?: { needPoint?: boolean; allowDisabled?: boolean; coverLater?: boolean }): Promise<{ el: Element; point: Point; covered?: boolean } | ToolErr>;
  /** the first of the centre and four inset points where el is topmost, or what covers it */
  hitPoint(el: Element): Point | { cover: Element | null };
  coveredError(name: string, el: Element, cover: Element | null): ToolErr;
  /** the outermost element around `hit` that does not contain the target */
  topCover(hit: Element, target: Element): Element;
  /** once the pointer is on el: its point, or what still covers it (checked again after ~150 ms) */
  settle(el: Element, wasCovered: boolean): Promise<Point | { cover: Element | null }>;
  /** the mouse's pointerId in this browser */
  readonly MOUSE_ID: number;
  describe(el: Element): string;
  syntheticClick(el: Element, p: Point, o: { button?: 'left' | 'right' | 'middle'; clickCount?: number; modifiers?: string[] }): void;
  syntheticKey(key: string, mods: Mods): void;
  parseChord(chord: string): { key: string; mods: string[] };
  mods(list: string[] | undefined): Mods;
  moveTo(el: Element, p: Point, o?: { buttons?: number }): void;
  fireMouse(el: Element, type: string, p: Point, o?: { button?: number; buttons?: number; detail?: number; mods?: Mods; relatedTarget?: Element | null }): boolean;
  setNativeValue(el: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, value: string): void;
  insertText(el: Element, text: string): void;
  focusField(el: Element, clear: boolean): ToolResult;
  fieldValue(el: Element): string;
  typeSynthetic(el: Element, text: string, submit: boolean): Promise<ToolResult>;
  focused(): Element;
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

/** Which option select_option asks for: by label, value or index. */
export interface OptionWant { label?: string; value?: string; index?: number }
