// The fail-closed gate core: the server's state and a classify that never
// allows anything while the server is not running. It must not import `vscode`.

import { ClassifyParams, Verdict, Decision } from "./protocol";

/** The life of the server process as the extension sees it. */
export type ServerState =
  | "starting" // spawned, not yet initialized
  | "running" // initialized: verdicts come from the server
  | "restarting" // crashed; a restart is under way
  | "down" // crashed too often, or could not start: stays closed
  | "stopped"; // the extension is deactivating

/** The rule named by a verdict the extension made because the gate was down. */
export const GateDownRule = "gate-down";

const decisions: ReadonlySet<string> = new Set<Decision>(["allow", "prompt", "refuse"]);

/**
 * failClosedVerdict is the verdict for a command the server could not judge:
 * always prompt, with a reason that says the gate is down and why. It never
 * allows and never refuses (a refusal needs the classifier).
 */
export function failClosedVerdict(params: ClassifyParams, why: string, now: Date): Verdict {
  return {
    time: now.toISOString(),
    command: params.command,
    cwd: params.cwd,
    workspaces: params.workspaceFolders ?? [],
    agent: params.agent || "default",
    mode: params.mode ?? "",
    decision: "prompt",
    effects: [],
    decidedBy: null,
    rule: GateDownRule,
    reason: `the command-safety gate is down (${why}), so every command needs your approval`,
    classificationEnabled: false,
    micros: 0,
    failedClosed: true,
  };
}

/** isVerdict reports whether v looks like a verdict the server may send. */
export function isVerdict(v: unknown): v is Verdict {
  if (typeof v !== "object" || v === null) return false;
  const o = v as Record<string, unknown>;
  return typeof o.decision === "string" && decisions.has(o.decision) &&
    typeof o.command === "string" && typeof o.reason === "string" && Array.isArray(o.effects);
}

/** Options of a {@link GateCore}. */
export interface GateCoreOptions {
  /** How long one classify may take before the gate fails closed; default 5000 ms. */
  timeoutMs?: number;
  now?: () => Date;
}

/** A state change: the new state and a human detail ("exit code 2"). */
export interface StateChange {
  state: ServerState;
  detail: string;
}

/**
 * GateCore asks the server for verdicts through `send` while the server is
 * running and fails closed otherwise: a command classified while the server is
 * starting, restarting, down or stopped, or whose request fails, times out or
 * returns something that is not a verdict, gets {@link failClosedVerdict}.
 */
export class GateCore {
  private current: StateChange = { state: "starting", detail: "" };
  private readonly listeners = new Set<(c: StateChange) => void>();
  private readonly timeoutMs: number;
  private readonly now: () => Date;

  constructor(
    private readonly send: (params: ClassifyParams) => Promise<unknown>,
    opts: GateCoreOptions = {},
  ) {
    this.timeoutMs = opts.timeoutMs ?? 5000;
    this.now = opts.now ?? (() => new Date());
  }

  /** state is the server's current state. */
  get state(): ServerState {
    return this.current.state;
  }

  /** detail says why the state is what it is ("" when running). */
  get detail(): string {
    return this.current.detail;
  }

  /** setState records a new state and tells the listeners when it changed. */
  setState(state: ServerState, detail = ""): void {
    if (this.current.state === state && this.current.detail === detail) return;
    this.current = { state, detail };
    for (const l of this.listeners) l(this.current);
  }

  /** onDidChange registers a listener for state changes; it returns a disposer. */
  onDidChange(listener: (c: StateChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** classify returns the server's verdict, or a fail-closed one. It never rejects. */
  async classify(params: ClassifyParams): Promise<Verdict> {
    if (this.current.state !== "running") {
      return failClosedVerdict(params, this.describe(), this.now());
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
      });
      const v = await Promise.race([this.send(params), timeout]);
      if (!isVerdict(v)) {
        return failClosedVerdict(params, "the server sent no verdict", this.now());
      }
      return v;
    } catch (err) {
      return failClosedVerdict(params, `the request failed: ${errorText(err)}`, this.now());
    } finally {
      if (timer !== undefined) clearTimeout(timer);
    }
  }

  private describe(): string {
    const what: Record<ServerState, string> = {
      starting: "the server is starting",
      running: "the server is running",
      restarting: "the server is restarting",
      down: "the server is not running",
      stopped: "the extension is stopping",
    };
    const d = this.current.detail;
    return d ? `${what[this.current.state]}: ${d}` : what[this.current.state];
  }
}

/** errorText renders anything thrown as one line of text. */
export function errorText(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
