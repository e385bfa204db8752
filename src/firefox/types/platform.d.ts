// What differs between the browsers, behind one interface. Implemented by each tree's platform/.
export interface Platform {
  name: 'chrome' | 'firefox';
  /** inject the content scripts into one frame (default the top one) whose page loaded before the extension did */
  injectContent(tabId: number, frameId?: number): Promise<void>;
  /** run extension script files in one frame of a tab, on demand (read_page's Readability) */
  injectFiles(tabId: number, files: string[], frameId?: number): Promise<void>;
  /** wire the toolbar button to the side panel / sidebar */
  setupPanel(): void;
  /**
   * Remove the extension's Origin header from requests to these origins (configured local model
   * servers such as Ollama, which refuse chrome-extension:// and moz-extension:// origins), and
   * from no others. Replaces the previous list; [] removes the rule.
   */
  setLocalEndpoints(origins: string[]): Promise<void>;
  /** Chrome's Prompt API (the `LanguageModel` global) where the browser has it, else null. */
  languageModel(): import('../providers/builtin.js').LanguageModelAPI | null;
  /** trusted input (Chrome: CDP through chrome.debugger); absent where the browser has none (Firefox) */
  trusted?: TrustedInput;
  /**
   * put tabs into one tab group named title (groupId: the group to add to), answering the group's id;
   * absent, or null, where the browser has no tab groups (the runs overview then lists the set)
   */
  groupTabs?(tabIds: number[], title: string, groupId?: number): Promise<number | null>;
  /** a PNG of the viewport, or of a region of the document (CSS pixels, document coordinates) */
  screenshot(tabId: number, opts: ScreenshotOptions): Promise<{ dataUrl: string; width: number; height: number }>;
  /** set files on a file input from paths on this computer (Chrome: CDP DOM.setFileInputFiles); absent in Firefox */
  setFilePaths?(tabId: number, selector: string, paths: string[]): Promise<void>;
  /** hold the tab's requests until the handlers decide (Chrome: CDP Fetch; Firefox: blocking webRequest); null when it cannot */
  holdRequests?(tabId: number, handlers: import('./safety').HoldHandlers): Promise<import('./safety').EffectHold | null>;
  /**
   * the first bytes (base64) of a file a held tab is downloading (Chrome: read by the request hold at
   * Fetch's response stage, before the download began; Firefox: asked again of the server with a
   * Range GET); undefined when none could be read
   */
  downloadBytes?(url: string): Promise<string | undefined>;
  /** the text of a PDF's pages (pdf.js: Chrome in the offscreen document, Firefox in the background page) */
  readPdf(url: string, opts: { from?: number; to?: number; maxChars?: number }): Promise<PdfText>;
  /** run execute_js's source (agent/js-eval.js) in the top frame's page world (Chrome: CDP Runtime.evaluate; Firefox: the page's eval) */
  evaluate(tabId: number, source: string, timeoutMs: number): Promise<import('../agent/js-eval.js').EvalOutcome>;
  /** the tab's request log, kept from the first watch (Chrome: CDP Network; Firefox: webRequest) */
  network: NetworkLog;
  /** add or remove a style sheet in the tab's top frame (Chrome: scripting.insertCSS; Firefox: tabs.insertCSS) */
  insertCss(tabId: number, css: string): Promise<void>;
  removeCss(tabId: number, css: string): Promise<void>;
  /** the tab recorder (Chrome: tabCapture into the offscreen document's MediaRecorder); absent where the browser has none (Firefox) */
  recorder?: TabRecorder;
}

/** One request of a tab, as network_requests shows it. */
export interface NetworkEntry {
  /** short id, unique in the tab's log: network_requests body_of takes it */
  id: string;
  method: string;
  url: string;
  /** lower-case resource type: document, fetch, xhr, script, stylesheet, image, font, media, websocket, other */
  type: string;
  status?: number;
  mimeType?: string;
  /** bytes received (encoded), when known */
  size?: number;
  /** from the request's start to its end */
  ms?: number;
  startedAt: number;
  /** why it failed (net::ERR_…, blocked, cancelled) */
  error?: string;
  fromCache?: boolean;
  requestHeaders?: Record<string, string>;
  responseHeaders?: Record<string, string>;
}

export interface NetworkLog {
  /** start keeping the tab's requests (idempotent); later ones only: a browser does not keep earlier ones */
  watch(tabId: number): Promise<void>;
  /** stop keeping new requests (the log stays until the tab closes) */
  unwatch(tabId: number): Promise<void>;
  watching(tabId: number): boolean;
  /** oldest first, at most the newest 500 */
  list(tabId: number): NetworkEntry[];
  /** a response body as text, capped; null when the browser no longer has it or it is not text */
  body(tabId: number, id: string, maxChars: number): Promise<{ text: string; truncated: boolean } | null>;
}

export interface RecordingStatus {
  recording: boolean;
  tabId?: number;
  startedAt?: number;
  bytes?: number;
  audio?: boolean;
}

export interface RecordingFile {
  /** the tab that was recorded */
  tabId: number;
  /** the downloaded file's name, under the downloads folder */
  filename: string;
  downloadId: number;
  bytes: number;
  seconds: number;
  mimeType: string;
  /** why it ended: the user or the agent stopped it, the time or size cap, the tab closed */
  reason: 'stopped' | 'max_duration' | 'max_size' | 'tab_closed';
}

export interface TabRecorder {
  start(tabId: number, opts: { audio: boolean; maxSeconds: number; maxBytes: number }): Promise<RecordingStatus>;
  /** stop and save the recording; resolves once the download has started */
  stop(): Promise<RecordingFile>;
  status(): Promise<RecordingStatus>;
  /** a recording that ended by itself (cap reached, tab closed) was saved */
  onFinished(listener: (file: RecordingFile) => void): void;
  /** the person pressed the record key on a tab (Chrome's "record-tab" command): start or stop there */
  onShortcut?(listener: (tabId: number) => void): void;
}

export interface PdfText { pages: number; from: number; to: number; text: string; truncated: boolean }

export interface ScreenshotOptions {
  /** a region in document coordinates; absent: the visible viewport */
  clip?: { x: number; y: number; width: number; height: number };
  /** the page's scroll position and viewport, for turning a clip into a capture */
  viewport: { scrollX: number; scrollY: number; width: number; height: number; dpr: number };
}

export interface PointerOptions {
  x: number;
  y: number;
  button?: 'left' | 'right' | 'middle';
  clickCount?: number;
  modifiers?: string[];
}

/** Input the page sees as the user's own (isTrusted === true). Methods throw an error with a `code` when the debugger cannot attach. */
export interface TrustedInput {
  move(tabId: number, p: PointerOptions): Promise<void>;
  click(tabId: number, p: PointerOptions): Promise<void>;
  drag(tabId: number, from: { x: number; y: number }, to: { x: number; y: number }, steps?: number): Promise<void>;
  wheel(tabId: number, p: { x: number; y: number }, dx: number, dy: number): Promise<void>;
  /** one key or chord: "Enter", "Control+A", "Shift+Tab" */
  keys(tabId: number, chord: string): Promise<void>;
  /** types character by character; stops at a main-frame navigation */
  typeText(tabId: number, text: string): Promise<{ typed: number; interrupted: boolean }>;
  insertText(tabId: number, text: string): Promise<void>;
  setFiles(tabId: number, selector: string, paths: string[]): Promise<void>;
  navigating(tabId: number): boolean;
  resetNavigation(tabId: number): void;
}
