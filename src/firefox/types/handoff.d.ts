// Handing the tab to the person (agent/handoff/): what the page shows, the moment found, what the
// person did, and the card that waits for them.

/** What content/handoff.js reports of a frame: structure and a slice of visible text, never a field's value. */
export interface HandoffSignals {
  url: string;
  title: string;
  /** the document's HTTP status (Navigation Timing), when the browser tells it */
  status?: number;
  /** visible password fields, and those among them for a new password (sign-up, change password) */
  passwordFields: number;
  newPasswordFields: number;
  /** visible one-time-code fields (autocomplete one-time-code, or named otp/totp/2fa/mfa) */
  otpFields: number;
  /** visible short text fields that may take a code (numeric input mode, or at most 8 characters) */
  codeFields: number;
  /** the addresses of the frames (src), at most 20 */
  frames: string[];
  /** class names and ids that mark challenge widgets (captcha, turnstile…) */
  marks: string[];
  /** visible headings, legends and dialog titles, at most 12, each at most 160 characters */
  headings: string[];
  /** visible text, at most 2,000 characters */
  text: string;
}

export type HandoffKind = 'sign_in' | 'session_expired' | 'second_factor' | 'captcha' | 'age_gate' | 'consent';

export interface HandoffMoment {
  kind: HandoffKind;
  /** host[:port] */
  site: string;
  url: string;
  /** why, in a few words each (no page text) */
  evidence: string[];
  /** second factor: a code typed, or an approval on another device */
  factor?: 'code' | 'push';
}

/** A request the person's page sent while they were in control, and its answer; no body is kept. */
export interface PersonAttempt {
  method: string;
  url: string;
  status?: number;
  error?: string;
  /** the end of its redirects, when it had some */
  finalUrl?: string;
  /** the answer says it failed (status or body: agent/safety/answer-reading.js) */
  failed: boolean;
  /** it has an answer */
  settled: boolean;
}

export type HandoffStatus = 'waiting' | 'resumed' | 'done' | 'cancelled' | 'expired';

/** What the card shows now. */
export interface HandoffUpdate {
  moment: HandoffMoment;
  status: HandoffStatus;
  /** a failed attempt, said to the person (the pause stays) */
  failed?: string;
  /** what made the run go on */
  evidence?: string;
}

/** The card in the panel while the person has the tab. */
export interface HandoffCard {
  /** the person's own word: Done, or Cancel */
  answer: Promise<'done' | 'cancel'>;
  update(u: HandoffUpdate): void;
}

/** A password or code the person wrote in a message (agent/handoff/person-secrets.js): in memory only. */
export interface PersonSecret {
  /** what the model sees instead: "[secret 1]" */
  name: string;
  value: string;
  /** the origin of the tab the person wrote it for: typed only into a secret field there */
  origin: string;
}
