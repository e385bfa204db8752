// Shapes of the safety layer (docs/SECURITY.md): what a tool declares it does, what the platform
// holds while an agent action runs, and what the user is asked. Browser-free.

/**
 * What a tool can do to the world. Every tool declares its effects on the tool object; the policy
 * (agent/safety/policy.js) reads them, so a new tool cannot skip the gate.
 * - reads_page: reads the tab's page (its results carry page content, fenced as untrusted)
 * - acts_on_page: changes the page (input, forms, scrolling, dialogs); writes it causes are held
 * - navigates: moves a tab to another URL (may leave the task's sites)
 * - leaves_origin: sends a request from the extension to a URL it names (fetch_url, read_pdf by url)
 * - writes_server: changes data on a server by itself (fetch_url with POST)
 * - creates_jobs: creates work that runs later, unattended
 * - touches_secrets: may handle passwords, codes or keys (typing into fields)
 * - controls_run: steers the run itself (done, clarify, scratchpad), touches nothing outside it
 * - reads_skills: reads the user's skills (extension data: nothing from the page, nothing leaves)
 * - saves_skills: keeps instructions the agent will follow in later runs (save_skill); always asks
 * - calls_page_tool: runs a tool the page declares itself through WebMCP (call_page_tool); always asks
 * - runs_code: runs the agent's own JavaScript in the page (execute_js): it can do anything the page can; asks unless the site is always allowed
 * - records_tab: records the tab to a video file on this computer (record_tab); Act mode only, shown while it lasts
 */
export type Effect = 'reads_page' | 'acts_on_page' | 'navigates' | 'leaves_origin' | 'writes_server' | 'creates_jobs' | 'touches_secrets' | 'controls_run' | 'reads_skills' | 'saves_skills' | 'calls_page_tool' | 'runs_code' | 'records_tab';

/**
 * A request (or download) the page started while an agent action ran, paused before it leaves the
 * browser until the policy decides. Built by the platform (Chrome: CDP Fetch.requestPaused;
 * Firefox: blocking webRequest.onBeforeRequest; both: downloads.onCreated).
 */
export interface HeldRequest {
  /** request: HTTP from the tab or anything it owns; download; channel: a write over a non-HTTP channel seen by the page-world hook (a WebSocket frame, sendBeacon, WebTransport, a data channel) */
  kind: 'request' | 'download' | 'channel';
  /** upper-case HTTP method */
  method: string;
  url: string;
  /** the browser's resource type, lower-case: document, sub_frame, xhr, fetch, ping, beacon, script, image, other … */
  type: string;
  /** a navigation of the tab's top frame (a link, a form submission, location.href =) */
  topLevel: boolean;
  /** the request body as text, when it has one (form-urlencoded, JSON, text parts of multipart), capped at 64 kB */
  body?: string;
  /** the body's fields, when it is a form (urlencoded or multipart) or a flat JSON object: [name, value] in order */
  fields?: [string, string][];
  /** for a download: the file name the browser chose, when known */
  filename?: string;
  /** for a download: its MIME type, and its first bytes (base64) when the platform could read them (magic numbers) */
  mime?: string;
  /**
   * Who sent it. page: the tab's document or a same-process frame (the default); frame: an
   * out-of-process (cross-site) frame; worker: a dedicated or shared worker the page started;
   * service_worker: the page's service worker, on the page's behalf.
   */
  source?: 'page' | 'frame' | 'worker' | 'service_worker';
  /** the URL of the document (or worker script) that sent it, when the platform knows it */
  initiator?: string;
  /** the body exists but cannot be shown as text: binary, compressed, protobuf, or too large to read */
  opaque?: { bytes: number; contentType?: string; why: 'binary' | 'compressed' | 'too_large' | 'unavailable' };
  /** a channel write: the WebSocket (or other channel) URL it goes to; url is the same */
  channel?: 'websocket' | 'websocket_frame' | 'beacon' | 'webtransport' | 'datachannel';
  /**
   * a WebSocket's opening handshake from where its frames cannot be held (a worker, in Firefox: no
   * content script runs there and webRequest sees no frame): allowed, whatever it sends goes unseen
   */
  framesUnheld?: boolean;
  /**
   * a worker's socket whose frames cannot be held (framesUnheld) that was opened before the run's
   * hold began (Firefox): it may still be open, and whatever the worker sends over it leaves unseen
   */
  openBefore?: boolean;
}

/** What the core gives the platform when it arms the hold on a tab. */
export interface HoldHandlers {
  /**
   * Synchronous and cheap: does the policy want to look at this request? false lets it go at once
   * (most GETs). Called for every request of the tab while the hold is armed.
   */
  wants(req: HeldRequest): boolean;
  /** The policy's decision: true lets the request (or download) go on, false drops it. Never rejects. */
  decide(req: HeldRequest): Promise<boolean>;
  /**
   * How a request decide() let go ended: the server's status, or the network error. Called once per
   * such request that changes data (not for GETs), with the same object decide() was given.
   */
  settled?(req: HeldRequest, outcome: WriteOutcome): void;
  /**
   * A write the tab sent that the hold never paused because the page's own service worker took it
   * and answered (Chrome: such a request never reaches Fetch; what the worker sends on is held in its
   * own session). Told once, after the answer, with answeredBy 'service_worker': it was not confirmed
   * by a server. Only while the hold is armed.
   */
  observed?(req: HeldRequest, outcome: WriteOutcome): void;
  /**
   * A sender the platform refused while the tab is held, because what it sends could not be held:
   * a shared worker the page tried to start in Chromium (`shared_worker`: chrome.debugger cannot
   * pause one before it runs; `url` is its script's, as the page gave it, untrusted), or a request of
   * a shared worker that was already running (`shared_worker_request`: Chrome never lets Fetch pause
   * it; `url` and `method` are the request's, `worker` the worker's script). Told once per refusal.
   */
  refused?(what: { channel: 'shared_worker' | 'shared_worker_request'; url: string; method?: string; worker?: string }): void;
  /**
   * A write that left without being held, seen only after it left: a frame a worker already running
   * when the hold began sent through a WebSocket `send` it kept from before the hook was installed
   * (Chromium; CDP Network.webSocketFrameSent names it). It cannot be stopped; it is told to the run.
   */
  unseen?(req: HeldRequest): void;
}

/**
 * How a write ended: the HTTP status, or why it never got one, and what the server said (the body,
 * read by the platform: Chrome's Network.getResponseBody, Firefox's filterResponseData).
 */
export interface WriteOutcome {
  status?: number;
  error?: string;
  /** the response body as text, capped at 64 kB; absent when it could not be read */
  body?: string;
  contentType?: string;
  /** a redirect's end: the final URL and its status (a native form POST answered by 303 → the success page) */
  finalUrl?: string;
  finalStatus?: number;
  /** who answered: the server (default), the page's own service worker (not the server), or a cache */
  answeredBy?: 'server' | 'service_worker' | 'cache';
  /** for a WebSocket frame: the first message the socket received after it, when one came within the bound */
  reply?: string;
}

/** An armed hold on one tab. */
export interface EffectHold {
  /** Disarm: stop holding new requests. Requests already waiting for a decision still get it. */
  release(): Promise<void>;
  /**
   * Senders the hold cannot see that were already open when it began (Firefox: workers' WebSockets,
   * openBefore): the guard asks before each acting step while they may be open.
   */
  unheld?: HeldRequest[];
}

/** Why the user is asked: the rule that fired (docs/SECURITY.md names each). */
export type ConfirmRule =
  | 'server_write'      // a request that changes data on a server, caused by an agent action
  | 'leave_scope'       // navigation, a new tab, fetch_url or a download outside the task's sites
  | 'data_in_url'       // a URL carrying page- or user-derived data to another origin
  | 'future_job'        // schedule_task / schedule_resume: work that runs later, unattended
  | 'secret'            // a secret typed somewhere other than its own field, or sent in a request
  | 'site_confirm'      // the site is on the user's "always confirm" list
  | 'sensitive_site'    // the site's adapter is high-risk (money, administration, account security)
  | 'skill_save'        // save_skill: instructions kept for later runs
  | 'page_tool'         // call_page_tool: a page's own WebMCP tool
  | 'run_code'          // execute_js: the agent's own code in the page, outside the always-allowed sites
  | 'duplicate_write'   // the same write (method, URL, body) a second time in one task: a second order, a second message
  | 'fetch_write'       // fetch_url with a method that changes data
  | 'executable_download'; // a program or script downloaded, on any site

/** What a consequential step looks like to the user: what will happen, where, with which data, and why we ask. */
export interface ConfirmRequest {
  category: ConfirmCategory;
  rule: ConfirmRule;
  /** high: the element's own meaning (checkout, delete, send, sharing, security…) or a secret or a new origin */
  severity: 'normal' | 'high';
  /** what will happen, in the user's words: 'POST to bank.example/transfer' or 'Open https://x.example/?q=…' */
  action: string;
  /** host[:port] where it happens (the request's destination, not the page it came from) */
  site: string;
  /** the data it carries: form fields, job prompt, URL parameters (secrets masked); every field, the typed ones first */
  details: ConfirmDetail[];
  /** the agent step that caused it, e.g. 'click button "Transfer" on bank.example' */
  cause?: string;
  /** the reason in one sentence: which rule fired */
  reason: string;
  /** what "Allow for this task" allows from now on (an origin, or method + origin + path + body keys + operation) */
  scopeKey?: string;
  /** what "Allow for this task" will cover, for the line under the card's buttons (present with scopeKey) */
  scope?: ConfirmScope;
}

/** One row of a card. */
export interface ConfirmDetail {
  label: string;
  value: string;
  /** the agent typed this value (or a part of it) */
  typed?: boolean;
  /** what the agent typed here came from the page, not from the user's own request */
  fromPage?: boolean;
  /** the value the user named or the page showed that this one looks like (a lookalike: "PAYEE-1O5" for "PAYEE-105") */
  lookalike?: string;
  /** the body cannot be shown as text: its size and content type (value then holds a short English note) */
  unreadable?: { bytes: number; contentType?: string };
}

/** What "Allow for this task" covers: a site, the agent's code on a site, or one kind of write. */
export interface ConfirmScope {
  kind: 'site' | 'code' | 'write';
  /** host[:port] */
  site: string;
  method?: string;
  path?: string;
  /** GraphQL or JSON-RPC operation ("mutation SaveDraft {saveDraft}") */
  operation?: string;
  /** the body keys a covered write has, exactly */
  keys?: string[];
  /** a worker's WebSocket whose frames cannot be held (Firefox): exactly this URL is covered */
  socket?: string;
  /** covered at this severity or lower */
  severity: 'normal' | 'high';
}

/**
 * The card's title category. Element semantics (checkout, delete, publish, send, account, sharing,
 * device) raise severity; the others name the effect.
 */
export type ConfirmCategory = 'checkout' | 'send' | 'publish' | 'delete' | 'account' | 'sharing' | 'device' | 'write' | 'leave' | 'job' | 'secret' | 'site' | 'sensitive' | 'skill' | 'code' | 'download';
/** yes: allow once; task: allow this kind of step for the rest of this task; no: decline */
export type ConfirmAnswer = 'yes' | 'task' | 'no';

/** Known secrets of a tab, in memory only (agent/safety/secrets.js). */
export interface SecretVault {
  /** remember the current secret values of a page (its password, code and card fields, tokens it shows) */
  add(values: string[], origin: string): void;
  has(text: string): boolean;
  /** which known secrets appear in text (also URL-encoded, base64 or JSON-escaped), with the origin each belongs to */
  find(text: string): { origin: string }[];
  /** every known secret and every token-looking string replaced by the mask */
  mask(text: string): string;
  maskDeep<T>(value: T): T;
  ownerOf(value: string): string | null;
}
