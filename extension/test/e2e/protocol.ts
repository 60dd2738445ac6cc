// The files the e2e runner (inside VS Code) and the driver (outside) share.

/** One check of the end-to-end test. */
export interface Check {
  name: string;
  ok: boolean;
  detail: string;
  ms: number;
}

/** The runner's progress, rewritten after every step (JSON). */
export interface Progress {
  checks: Check[];
  /** A dialog the runner is waiting on: the driver looks at it, then cancels it. */
  awaitingDialog?: { name: string; expect: string };
  /** Something else the runner asks of the driver ("screenshot-output", "statusbar"); answered in ack/<name>.json. */
  request?: string;
  done: boolean;
  /** Every verdict the runner caused (fail-closed ones included), for the log-file check. */
  serverVerdicts: { command: string; decision: string }[];
  error?: string;
}
