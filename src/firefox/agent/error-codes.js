// The one catalog of error codes that tools, content scripts, the loop and the router return. Each
// code has a sentence for the user saying what happened and what to do next; a result's own message
// adds the specifics. ToolErr.code and RouterReply.code are typed against it, so a code that is not
// here fails the typecheck. Provider failures keep their own catalog (providers/errors.js).

export const ERROR_CODES = Object.freeze({
  // Arguments and targets
  INVALID_ARGUMENTS: 'The request was missing something or had a wrong value; fix the arguments and try again.',
  INVALID_URL: 'That is not an http(s) address that can be opened; give a full URL such as https://example.com/.',
  UNKNOWN_TOOL: 'There is no tool by that name.',
  NOT_FOUND: 'Nothing on the page matches; take a fresh snapshot and use a ref from it.',
  STALE_REF: 'The page changed since the snapshot. Take a new snapshot.',
  ELEMENT_REMOVED: 'The element left the page. Take a new snapshot.',
  NOT_VISIBLE: 'The element is on the page but not visible; reveal it first (open its menu or tab).',
  COVERED: 'Something covers the element; close it first.',
  DISABLED: 'The element is disabled; something else must happen first.',
  READ_ONLY: 'The field is read-only.',
  NOT_EDITABLE: 'That element does not take typing or a value; type into a textbox from the snapshot, and use click or select_option for a custom widget.',
  SLIDER_NO_VALUE: 'The slider states no value (no aria-valuenow), so it cannot be set to one; focus it and use press_keys with ArrowRight / ArrowLeft, Home or End.',
  NOT_CHECKABLE: 'That element is not a checkbox, switch or radio button.',
  NOT_A_SELECT: 'That element is neither a <select> nor an ARIA combobox or listbox; click it to open it, take a snapshot, then click the option.',
  NO_SUCH_OPTION: 'The dropdown has no such option.',
  NOT_FILE_INPUT: 'That element is not a file input, its label, or a button that opens one; target the upload button or label, or the <input type=file> itself (selector "input[type=file]").',
  DROP_ZONE_NEEDS_CONTENT: 'That element is a drop zone without a file input, and files by path cannot be dropped; give each file as {name, content} or {name, base64} and it is dropped on the zone.',
  VALUE_REJECTED: 'The page did not accept the value.',
  STATE_UNCHANGED: 'The action ran but nothing changed.',
  UNKNOWN_COLLECTION: 'There is no such list on the page.',
  FRAME_UNKNOWN: 'There is no such frame; call get_frames.',
  FRAME_UNRESPONSIVE: 'The page or one of its frames did not answer in time (a long script, or still loading); wait and take a snapshot again, act on the rest of the page, or reload it.',
  FRAME_NOT_SCRIPTABLE: 'That frame holds no web page Tabwright can read (it failed to load, is blank, or is a browser page); act on the rest of the page.',
  NO_OUTLINE: 'There is no snapshot to compare with yet.',
  // Tabs, pages and the browser
  TAB_GONE: 'The tab was closed; open the page again and retry.',
  DEBUGGER_UNAVAILABLE: 'The page cannot be driven directly: its debugger is in use (DevTools, another extension) or not allowed.',
  CDP_FAILED: 'A command to the page failed.',
  TAB_BUSY: 'The tab is busy with another action or run.',
  NO_SUCH_TAB: 'There is no such tab in this window.',
  PAGE_NOT_SCRIPTABLE: 'Tabwright cannot work on this page: browser pages, error pages and extension stores are off limits; open a web page.',
  PAGE_CHANGED: 'The page navigated while the request ran; take a snapshot again.',
  NO_CONTENT_REPLY: 'The page did not answer; it may still be loading, so take a snapshot again.',
  CONTENT_ERROR: 'The page script failed.',
  NAVIGATION_FAILED: 'The page could not be opened.',
  NAVIGATION_TIMEOUT: 'The page did not finish loading in time.',
  TIMEOUT: 'It did not happen within the time allowed.',
  NO_HISTORY: 'There is no page to go to in that direction.',
  FETCH_FAILED: 'The address could not be fetched.',
  FETCH_TIMEOUT: 'The address did not answer in time.',
  REDIRECT_REFUSED: 'The address redirected to another site, or to a place Tabwright could not check, and Tabwright follows no such redirect; fetch the final address itself, or open it with navigate (its redirects are checked).',
  SCREENSHOT_FAILED: 'The page could not be captured.',
  UPLOAD_FAILED: 'The files could not be set.',
  DOWNLOADS_UNAVAILABLE: 'The downloads list could not be read.',
  NOT_A_PDF: 'That is not a PDF.',
  PDF_FAILED: 'The PDF could not be read.',
  UNSUPPORTED: 'This browser cannot do that.',
  UNAVAILABLE: 'That is not available here.',
  TOOL_FAILED: 'The tool failed unexpectedly.',
  // Modes, safety and the user
  NOT_ALLOWED_IN_ASK_MODE: 'Ask mode only reads: switch to Act mode to change anything.',
  USER_DECLINED: 'The user declined this step; nothing was done.',
  CONFIRMATION_REQUIRED: 'This step needs the user\'s confirmation and nobody is there to give it.',
  SECRET_REFUSED: 'A secret is sent or typed only into its own field on its own site (strict secret mode, or a secret the person gave).',
  OUT_OF_SCOPE: 'That would leave the sites of this task.',
  FORBIDDEN: 'That request is not allowed from here.',
  // An administrator's policy (storage.managed)
  SITE_BLOCKED: 'Your organization does not allow Tabwright to act on this site; it can still read it in Ask mode.',
  FEATURE_OFF: 'Your organization has turned this feature off.',
  PASSWORD_IN_MESSAGE: 'A password or code in your message is kept as a secret: the model sees only its name ([secret 1]), and Tabwright types it only into a password or code field of this site. Next time you can leave it out: when a site asks you to sign in, Tabwright hands you the tab.',
  SET_BY_ORGANIZATION: 'This setting is set by your organization and cannot be changed here.',
  PROVIDER_NOT_ALLOWED: 'Your organization does not allow this model provider; choose one it allows.',
  // The run
  ABORTED: 'The run was stopped.',
  SKIPPED: 'The run ended before this step.',
  BUSY: 'A run is already going on in this tab; stop it first.',
  RUNNING: 'A run is going on; wait for it or stop it.',
  EMPTY: 'There was nothing to send.',
  STEP_LIMIT: 'The run reached its step cap; send a message to go on, or raise the cap in Settings.',
  BUDGET_REACHED: 'The run stopped before a model call that would pass its budget (per run or per day); raise the budget in Settings or send a message to go on.',
  LOOP_DETECTED: 'The agent kept repeating itself and was stopped; send more guidance to go on.',
  CLAIM_NOT_SEEN: 'The page does not show what the agent said it did; look at the page again, then fix what is missing or call done with an accurate summary.',
  INTERNAL_ERROR: 'Something unexpected failed inside Tabwright.',
  TAB_CLOSED: 'The tab was closed, and the run ended with it.',
  EMPTY_COMPLETION: 'The model answered with nothing, twice; send the message again or choose another model.',
  RUN_NOT_STARTED: 'The run could not start; check the provider in Settings, then send the message again (the conversation is kept).',
  RUN_FAILED: 'The run failed.',
  NO_RUN: 'There is no run to act on.',
  NO_USER: 'Nobody is there to answer.',
  HANDOFF_CANCELLED: 'You cancelled while the site waited for you (a sign-in, a code or a challenge); the conversation is kept, send a message to go on.',
  SECRET_NOT_GIVEN: 'Tabwright types a password or code only when the person gave it; the person does this step themselves.',
  PERSON_IN_CONTROL: 'The person has this tab (a sign-in, a code or a challenge); Tabwright reads nothing from it until they are done.',
  NOT_WAITING: 'Nothing is waiting for that answer.',
  INTERRUPTED: 'Tabwright\'s background stopped before this step finished; it may or may not have happened, so look at the page before repeating it.',
  NOTHING_TO_CONTINUE: 'There is no interrupted run in this tab; send a message instead.',
  NOTHING_TO_RESUME: 'There is nothing to resume.',
  RESTARTED: 'The browser or the extension restarted during the run, which was interrupted.',
  RESTART_LOOP: 'The background kept restarting during this run.',
  INVALID_STEPS: 'The plan\'s steps are not valid.',
  EMPTY_PLAN: 'The plan has no steps; give at least one.',
  INVALID_ANSWER: 'That answer is not one of the choices.',
  // Scheduler, settings and requests
  INVALID_SCHEDULE: 'The schedule is not valid.',
  INVALID_JOB: 'The job is not valid.',
  INVALID_TRANSITION: 'The job cannot change to that state now.',
  NO_BACKGROUND: 'The job\'s page could not be opened.',
  CANCELLED: 'It was cancelled.',
  INVALID_SETTINGS: 'Some settings had a wrong value; fix the fields named and save again (nothing was changed).',
  BAD_IMPORT: 'The settings file could not be imported; nothing was changed. Choose a file exported from Tabwright\'s settings.',
  UNKNOWN_REQUEST: 'Tabwright does not know that request.',
  INVALID_REQUEST: 'The request was missing a field or had a wrong one; nothing was done.',
  // Site adapters and skills
  INVALID_ADAPTER: 'The site adapter is not valid; fix the fields named (nothing was saved).',
  INVALID_SKILL: 'The skill is not valid; fix the fields named (nothing was saved).',
  SKILL_NOT_FOUND: 'There is no skill by that name; list the skills to see their names.',
  SKILL_PARAMETERS: 'The skill needs values for its parameters; fill them in and run it again.',
  // Actions
  AMBIGUOUS_OPTION: 'Several options match that label (or read exactly the same); give the full label, the value or the index.',
  DRAG_NO_EFFECT: 'The drag ran but nothing on the page moved or changed (no order, position or value); the page may need the drag to start on a handle (a grip icon) or a longer press, or may not support dragging there: take a snapshot and check.',
  PICKER_BUSY: 'The element picker is already open on this page; wait for the user to choose or cancel.',
  PICKER_TIMEOUT: 'The user did not choose an element in the picker in time; ask them what they meant instead.',
  // The MCP bridge and WebMCP (docs/MCP.md)
  TAB_NOT_GRANTED: 'This MCP client may not use that tab; the user chooses its tabs in Settings → MCP bridge.',
  CONFIRMATION_TIMEOUT: 'Nobody answered the confirmation in time, so nothing was sent.',
  STOPPED_BY_USER: 'The user pressed Stop in the browser, so this ended; do not repeat it unless the user asks.',
  MCP_BAD_CODE: 'That is not a pairing code; it has 10 letters and digits.',
  MCP_CODE_MISMATCH: 'That code is not the one the waiting bridge printed.',
  MCP_NO_BRIDGE: 'No MCP bridge is waiting to be paired: start the MCP client (it starts the bridge), check that MCP bridge is on and its port matches, then try again.',
  MCP_NOT_WAITING: 'This bridge is not waiting to be paired.',
  MCP_PAIRING_FAILED: 'The pairing did not finish; restart the bridge and use its new code.',
  MCP_TOO_MANY: 'Too many MCP clients are paired; revoke one first.',
  MCP_NOT_PAIRED: 'This MCP client is not paired with Tabwright.',
  MCP_REVOKED: 'The user revoked this MCP client.',
  MCP_BAD_SIGNATURE: 'The bridge could not prove its pairing, so Tabwright refused it.',
  MCP_NOT_CONNECTED: 'The bridge is not connected to Tabwright; turn on Settings → MCP bridge in the browser.',
  BAD_FRAME: 'A bridge message was malformed and was ignored.',
  FRAME_TOO_LARGE: 'A bridge message was larger than the link carries, so it was not sent.',
  UNEXPECTED_FRAME: 'A bridge message came out of turn and was refused.',
  MCP_NO_HELLO: 'The program on that port did not introduce itself as a Tabwright bridge.',
  MCP_VERSION: 'The bridge and Tabwright speak different versions of their protocol; update the one that is older.',
  MCP_NO_PROOF: 'The bridge did not prove it holds the pairing secret, so Tabwright refused it.',
  MCP_NO_READY: 'The bridge did not accept Tabwright\'s signature.',
  MCP_TOO_MANY_BAD_FRAMES: 'The bridge sent too many malformed messages, so Tabwright closed the connection.',
  TOO_MANY_BAD_FRAMES: 'Tabwright sent the bridge too many malformed messages, so the bridge closed the connection.',
  MCP_REPLAY: 'A pairing or sign-in message was used before, so it was refused.',
  MCP_ALREADY_PAIRED: 'This bridge is already paired.',
  MCP_REFUSED: 'Tabwright refused this bridge.',
  RESULT_TOO_LARGE: 'The result was too large to send; ask for less.',
  WEBMCP_UNAVAILABLE: 'This page declares no WebMCP tools.',
  PAGE_TOOL_FAILED: "The page's own tool failed.",
  PAGE_TOOL_UNKNOWN: 'The page declares no WebMCP tool by that name; call page_tools for the list.',
  PAGE_TOOL_TIMEOUT: "The page's own tool did not answer in time; look at the page before calling it again (it may have done its work).",
  PAGE_CHANNEL_CLOSED: 'Tabwright\'s link to this page\'s own scripts is not open (the page was loaded before Tabwright was installed or updated); reload the page.',
  // Developer tools and the tab recorder
  JS_EXCEPTION: 'The code ran and threw an exception; its message and stack say where.',
  JS_SYNTAX_ERROR: 'The code does not parse; fix it and try again (an expression, or a function body with return).',
  JS_BLOCKED: 'This page\'s Content-Security-Policy forbids running code in it; read the page with snapshot or get_html instead.',
  JS_TIMEOUT: 'The code did not finish within the time allowed (a promise may never settle); nothing more can be said about what it did, so look at the page.',
  NOT_TEXT: 'That response is not text, so its body is not shown.',
  BODY_UNAVAILABLE: 'The browser no longer has that response\'s body (the page navigated, or it was never kept).',
  CSS_FAILED: 'The style sheet could not be added to the page.',
  RECORDING_UNAVAILABLE: 'This browser cannot record a tab: Firefox gives extensions no tab capture. Use Chrome to record.',
  RECORDING_NOT_ALLOWED: 'Chrome lets Tabwright record a tab by itself only after you invoke Tabwright on that tab (its "Record this tab" key or the toolbar button); otherwise the panel\'s Record button asks you to pick the tab in Chrome\'s share picker.',
  RECORDING_BUSY: 'A recording is already going on; stop it first.',
  NOT_RECORDING: 'Nothing is being recorded.',
  RECORDING_FAILED: 'The recording could not be made or saved.',
  // Traces and workflows
  TRACE_NOT_FOUND: 'That run has no trace (traces were off, or it was deleted or expired).',
  BAD_TRACE: 'That file is not a Tabwright trace; nothing was imported.',
  INVALID_WORKFLOW: 'The workflow is not valid; fix the fields named (nothing was saved).',
  WORKFLOW_NOT_FOUND: 'There is no workflow by that name or id; list the workflows to see the saved ones.',
  WORKFLOW_PARAMETERS: 'The workflow needs values for its parameters; fill them in and run it again.',
  WORKFLOW_PAGE_CHANGED: 'The page is not the one this workflow step ran on; the workflow stopped before acting.',
  WORKFLOW_TARGET_MISSING: 'The element this workflow step acts on is gone from the page; the workflow stopped before acting.',
  WORKFLOW_TARGET_AMBIGUOUS: 'Several elements match this workflow step\'s target; the workflow stopped rather than guess.',
  WORKFLOW_STEP_FAILED: 'A workflow step did not succeed; the workflow stopped there.',
  WORKFLOW_REPAIR_FAILED: 'The model could not repair the workflow step; the workflow stopped there.',
  NOTHING_TO_SAVE: 'The run has no steps that can be replayed (it only read the page, or its steps failed).',
  // The headless runner and its queue workers (src/runner/, docs/SCALE.md)
  RUNNER_TIMEOUT: 'The run took longer than the runner allows; it was stopped (a held write was refused, never let go).',
  RUN_RECOVERED: 'The worker running this was cut off after its write landed (its lookup shows it); the run was not made again.',
  RUN_DEADLINE: 'The run passed the worker\'s deadline and was given up: its tab was closed, and whether its write landed is unknown.',
  RUN_CUT_OFF: 'The worker running this was cut off mid-run and nothing shows whether its write landed; a person must check before it runs again.',
  // Verified completion
  WRITE_FAILED: 'A change the agent sent did not go through: whatever the page shows, the server refused it or never answered. Look at the page, try once more if that makes sense, or say plainly that it failed and why.',
  NO_WRITE_SEEN: 'The task asked for a change, but nothing was sent to any server during the run; if it was made another way, say how it can be seen.',
  // Verdicts on a finished run (agent/outcome.js): why it is not verified, or why it failed
  WRITE_REFUSED: 'The server refused a change the agent sent.',
  NO_ANSWER_YET: 'A change was sent, but the server has not answered it, so nothing shows it was done; look at the page again to see whether the change is there.',
  ANSWERED_BY_PAGE: 'The page itself answered the change (its service worker), not the server: it is queued, not confirmed.',
  ACCEPTED_NOT_CONFIRMED: 'The server accepted the change for later processing; it has not confirmed it was done.',
  ANSWER_UNREADABLE: 'The server answered, but what it said could not be read.',
  CHALLENGE_REPEATED: 'Tabwright asked the agent to check its claim, and it only repeated it.',
  NOTHING_TO_CHECK: 'A read-only answer: there is nothing on a server to check.',
  STEPS_FAILED: 'Some of the steps failed, and the agent did not show they were made good.',
  USER_DECLINED_CHANGE: 'You declined the change the task would have made, so it was not made.',
  ROLLED_BACK: 'The change was accepted, then undone: the page no longer shows it.',
  PARTLY_REFUSED: 'The server did only part of the change and refused the rest.',
  FIELD_DROPPED: 'The server saved the change without some of what was sent: its copy differs.',
  FORM_SHOWN_AGAIN: 'After the form was sent the server showed the form again: nothing says it was accepted.',
  WRITE_AFTER_DONE: 'The page sent a change after the agent said it was done.',
  NO_VERDICT: 'The run did not finish, so nothing it did can be vouched for.',
});

/** @typedef {keyof typeof ERROR_CODES} ErrorCode */

/**
 * The one way to word an error: the catalog's sentence, then the specifics of this case (which
 * element, which address, the number) in brackets. A call site names the code and gives only the
 * specifics, never a sentence of its own, so each situation is said once, here.
 * A message already worded for this code (passed on from a reply or a caught error) is kept as it is.
 * @param {ErrorCode} code @param {string} [detail] the specifics; empty or missing: the sentence alone
 */
export function say(code, detail) {
  const sentence = ERROR_CODES[code];
  if (!detail) return sentence;
  return detail.startsWith(sentence) ? detail : `${sentence} (${detail})`;
}

/**
 * The specifics of a message worded by say (the whole message when it is not one), for a place that
 * shows the code's sentence on its own or has room only for the specifics.
 * @param {string} code @param {string} message
 */
export function detailOf(code, message) {
  const sentence = isErrorCode(code) ? ERROR_CODES[code] : '';
  if (!sentence || !message.startsWith(sentence)) return message;
  const rest = message.slice(sentence.length).trim();
  return rest.startsWith('(') && rest.endsWith(')') ? rest.slice(1, -1) : rest || message;
}

/**
 * An error as a run's events and outcomes carry it: the code and its worded message.
 * @template {ErrorCode} C
 * @param {C} code @param {string} [detail]
 * @returns {{ code: C, message: string }}
 */
export function errorOf(code, detail) {
  return { code, message: say(code, detail) };
}

/**
 * A failed result (tools, router replies): the code and its worded message.
 * @template {ErrorCode} C
 * @param {C} code @param {string} [detail] the specifics (see say)
 * @param {{ retryable?: boolean }} [extra]
 * @returns {{ ok: false, code: C, message: string, retryable?: true }}
 */
export function fail(code, detail, extra = {}) {
  return { ok: false, code, message: say(code, detail), ...(extra.retryable ? { retryable: /** @type {const} */ (true) } : {}) };
}

/**
 * A thrown error with a catalog code: the classes that carry a code across a throw (the recorder's,
 * the debugger session's) extend it, so their message is worded by say like every other.
 */
export class CatalogError extends Error {
  /** @param {ErrorCode} code @param {string} [detail] */
  constructor(code, detail) {
    super(say(code, detail));
    this.name = 'CatalogError';
    /** @type {ErrorCode} */
    this.code = code;
    this.detail = detail ?? '';
  }

  /**
   * Passes on an error already worded by the catalog (a reply from another context), as this class.
   * @param {ErrorCode} code @param {string} [message] the worded message; missing: the sentence
   */
  static passOn(code, message) {
    const err = new this(code);
    if (message) err.message = message;
    return err;
  }
}

/**
 * How a run that ended on a code is shown (ui/cards/error-card.js): each code here has its own
 * headline in every locale (`errHead_<code>`) and the buttons its card offers: Retry (send the
 * last message again), Continue (the same, said for a run that was stopped on purpose: the step cap
 * or the loop detector), Open settings. A code not listed gets the generic headline and no button.
 * Provider codes (providers/errors.js) end runs too, so they are here beside the run's own.
 */
export const RUN_END_CARDS = /** @type {Readonly<Record<string, readonly ('retry' | 'continue' | 'settings')[]>>} */ (Object.freeze({
  AUTH_FAILED: ['settings'], NOT_FOUND: ['settings'], BAD_REQUEST: ['settings', 'retry'], RUN_NOT_STARTED: ['settings', 'retry'],
  NETWORK_ERROR: ['retry', 'settings'], TIMEOUT: ['retry', 'settings'], RATE_LIMITED: ['retry'], SERVER_ERROR: ['retry'],
  STREAM_CUT: ['retry'], BAD_RESPONSE: ['retry'], EMPTY_COMPLETION: ['retry', 'settings'], CONTEXT_OVERFLOW: ['retry'],
  STEP_LIMIT: ['continue'], LOOP_DETECTED: ['continue'], INTERNAL_ERROR: ['retry'], TAB_CLOSED: [], BUDGET_REACHED: ['settings'],
}));

/** @param {string} code @returns {code is ErrorCode} */
export function isErrorCode(code) {
  return Object.hasOwn(ERROR_CODES, code);
}
