// Scheduled jobs: the shapes shared by the scheduler core (agent/scheduler/), its browser glue
// (service/jobs.js), the schedule tools and the jobs page.
import type { Mode, ToolResult } from './core';

/** What a user or the model asks for; normalizeSchedule turns it into a Schedule. */
export type ScheduleInput =
  | { kind: 'once'; runAt?: string | number; afterSeconds?: number }
  | { kind: 'interval'; minutes: number; startAt?: string | number }
  | {
      kind: 'calendar';
      repeat: 'daily' | 'weekdays' | 'weekly' | 'monthly' | 'cron';
      /** "HH:MM", 24-hour, wall-clock time in timeZone */
      time?: string;
      /** weekly: 0 = Sunday … 6 = Saturday */
      days?: number[];
      /** monthly: 1–31; a shorter month runs on its last day */
      dayOfMonth?: number;
      cron?: string;
      /** IANA name; defaults to the browser's zone */
      timeZone?: string;
    };

/** A stored schedule: relative times already fixed to instants (ms since the epoch). */
export type Schedule =
  | { kind: 'once'; runAt: number }
  | { kind: 'interval'; minutes: number; anchorAt: number }
  | {
      kind: 'calendar';
      repeat: 'daily' | 'weekdays' | 'weekly' | 'monthly' | 'cron';
      time?: string;
      days?: number[];
      dayOfMonth?: number;
      cron?: string;
      timeZone: string;
    };

/** The tab a job runs in: the tab it was created for, or a URL opened in a background tab at run time. */
export type JobTarget =
  | { type: 'tab'; tabId: number; url?: string; title?: string }
  | { type: 'url'; url: string };

export type JobState =
  | 'pending' | 'queued' | 'running' | 'completed' | 'failed' | 'needs_user_input' | 'paused' | 'cancelled';

/** resume: continue the tab's conversation later; task: a stored prompt run on its own; workflow: a saved workflow replayed, no model calls. */
export type JobKind = 'task' | 'resume' | 'workflow';

/** A workflow job's workflow and the values of its parameters. */
export interface JobWorkflow { id: string; values: Record<string, string> }

/** How one run ended, as the scheduler records it. 'busy' means the tab was running something else. */
export type JobRunStatus = 'completed' | 'failed' | 'needs_user_input' | 'cancelled' | 'busy';

export interface JobRunResult {
  status: JobRunStatus;
  text?: string;
  error?: { code: string; message: string };
  /** the run's verdict (agent/outcome.js): what the jobs page shows beside the status */
  outcome?: import('./core').Outcome;
  /** a failure that the next run cannot fix (the target tab is gone): the job stops */
  permanent?: boolean;
  /** the tab the run used (a URL target opens one) */
  tabId?: number;
}

export interface JobRun {
  startedAt: number;
  finishedAt: number;
  /** a run cut short by a browser or worker restart is recorded as 'interrupted' and run again */
  status: Exclude<JobRunStatus, 'busy'> | 'interrupted';
  text?: string;
  error?: { code: string; message: string };
  /** the run's verdict (agent/outcome.js): verified, not verified or failed, with reasons and receipt */
  outcome?: import('./core').Outcome;
}

export interface Job {
  id: string;
  kind: JobKind;
  title: string;
  prompt: string;
  mode: Mode;
  target: JobTarget;
  schedule: Schedule;
  /** kind workflow: which workflow, with which values */
  workflow?: JobWorkflow;
  state: JobState;
  /** when it runs next; null when it will not run unless the user acts */
  nextRunAt: number | null;
  createdAt: number;
  updatedAt: number;
  /** times a busy tab pushed the current run back */
  deferrals: number;
  /** restarts that cut the current run short; bounded so a run that crashes the worker stops */
  recoveries: number;
  runStartedAt?: number;
  /** for once jobs: whether the run has happened */
  hasRun: boolean;
  /** pause when the run in progress ends */
  pauseAfterRun?: boolean;
  /** the person asked for this run (Run now): it starts even while every job is paused or runs ask first */
  approved?: boolean;
  lastResult?: JobRun;
  /** newest last, at most HISTORY_LIMIT entries */
  history: JobRun[];
  /** while needs_user_input: what the run waits for the person about, when it says (a budget reached; a sign-in, a code, a challenge) */
  waitingFor?: JobWaitReason;
}

/**
 * Why a job's run waits for the person: a budget reached (its code, a sentence and the pause) or what
 * a site needs of them (a sign-in, a code, a challenge: from agent/handoff/).
 */
export interface JobWaitReason {
  code?: string;
  message?: string;
  budget?: import('./spend').BudgetPause;
  kind?: import('./handoff').HandoffKind;
  site?: string;
  factor?: 'code' | 'push';
}
/** What a site needs of the person, as a job's wait reason. */
export type JobWaitingFor = JobWaitReason & { kind: import('./handoff').HandoffKind; site: string };

/** What create and update accept. */
export interface JobInput {
  kind?: JobKind;
  /** kind workflow: which workflow, with which values */
  workflow?: JobWorkflow;
  title?: string;
  prompt: string;
  mode?: Mode;
  target: JobTarget;
  schedule: ScheduleInput;
}

export type JobPatch = Partial<Omit<JobInput, 'kind'>>;

/** runtime.sendMessage requests the jobs page and panel send; answered by service/jobs.js. */
export type JobsRequest =
  | { type: 'jobs.list' }
  | { type: 'jobs.create'; job: JobInput }
  | { type: 'jobs.update'; id: string; patch: JobPatch }
  | { type: 'jobs.pause'; id: string }
  | { type: 'jobs.resume'; id: string }
  | { type: 'jobs.runNow'; id: string }
  | { type: 'jobs.delete'; id: string };

/** What the schedule tools may do: create a job (validated and deduplicated like any other). */
export interface JobsAccess {
  create(input: JobInput): Promise<ToolResult<{ job: Job; deduped: boolean }>>;
  /** the user's IANA time zone */
  timeZone: string;
}
