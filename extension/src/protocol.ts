// The wire vocabulary of `command-safety serve`.
//
// This file mirrors jsonrpc/methods.go and the gate.Verdict JSON of SPEC §7;
// keep the two in step. It must not import `vscode`.

/** Method names of the command-safety JSON-RPC protocol (jsonrpc/methods.go). */
export const Methods = {
  /** Request: {@link ClassifyParams} → {@link Verdict}. */
  classify: "commandSafety/classify",
  /** Request: {@link ResolveParams} → null: a human approved or rejected a prompt. */
  resolve: "commandSafety/resolve",
  /** Notification (server → client, opt-in): {@link HeldParams}. */
  held: "commandSafety/held",
} as const;

/** The configuration section the server asks for with `workspace/configuration`. */
export const ConfigSection = "ml-ai";

/** A decision of the gate (SPEC §2), strictest first. */
export type Decision = "refuse" | "prompt" | "allow";

/** One classified part of a command (SPEC §7). */
export interface Effect {
  effect: string;
  text: string;
  span: [number, number];
  program?: string;
  reason?: string;
  rule?: string;
  /** The user rule (`ml-ai.rules`) that taught the part's program: "user:acme". */
  userRule?: string;
  decision?: Decision;
}

/** A verdict as the server sends it (gate.Verdict, SPEC §7). */
export interface Verdict {
  id?: string;
  logId?: number;
  time: string;
  command: string;
  cwd: string;
  workspaces: string[];
  agent: string;
  mode: string;
  /** The dialect the command was classified in: "bash", "zsh", "sh" or "unknown" (both bash and zsh). */
  shell?: string;
  decision: Decision;
  effects: Effect[];
  decidedBy: Effect | null;
  rule: string;
  reason: string;
  classificationEnabled: boolean;
  micros: number;
  /** What "Allow from now on" would teach as a user rule (gate.Teach); only on prompts. */
  teach?: Teachable;
  /** Set by the extension (never by the server) when the gate is down and it failed closed. */
  failedClosed?: boolean;
  /** The verdict's log line (PROTOCOL.md), when initializationOptions.verdictLine asked for it. */
  line?: string;
}

/** Params of `commandSafety/classify`. */
export interface ClassifyParams {
  command: string;
  cwd: string;
  agent?: string;
  mode?: string;
  workspaceFolders?: string[];
  /** The shell that runs the command: "bash", "zsh", "sh" or "unknown" (absent: unknown). */
  shell?: string;
}

/** The outcome of a prompt that a human answered. */
export type Outcome = "approved" | "rejected";

/** Params of `commandSafety/resolve`. */
export interface ResolveParams {
  /** The verdict's logId (the decision log row). */
  id: number;
  outcome: Outcome;
  reviewer: string;
}

/** initializationOptions of `initialize`: defaults for requests that name none. */
export interface InitializationOptions {
  agent: string;
  mode: string;
  /** Ask for `commandSafety/held` notifications. */
  held?: boolean;
  /** Ask for each verdict's log line in the classify reply's `line` instead of a `window/logMessage`. */
  verdictLine?: boolean;
}

/** One command a hook in hold mode waits on (jsonrpc.HeldCommand). */
export interface HeldCommand {
  logId: number;
  command: string;
  cwd: string;
  agent: string;
  reason: string;
  time: string;
  heldUntil: string;
  /** What "Allow from now on" would teach (gate.Teach). */
  teach?: Teachable;
}

/** A program a user rule could teach (gate.Teachable). */
export interface Teachable {
  program: string;
  subcommand?: string;
  /** The prompted part's text: the rule's example. */
  example: string;
}

/** Params of `commandSafety/held`: every command held right now. */
export interface HeldParams {
  held: HeldCommand[];
}
