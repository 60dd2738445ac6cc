// Running an approved command with bash, bounded in time and output. It must
// not import `vscode`.

import { spawn } from "node:child_process";
import { TailBuffer, DefaultOutputLimit } from "./tail";

/** What to run and its bounds. */
export interface RunOptions {
  command: string;
  cwd: string;
  /** Kill the command after this long; default 10 minutes. */
  timeoutMs?: number;
  /** Aborting kills the command (the agent's cancellation). */
  signal?: AbortSignal;
  /** Bytes of output kept (the tail); default 64 KiB. */
  maxOutput?: number;
  env?: NodeJS.ProcessEnv;
  /** The shell; default "bash". */
  shell?: string;
  /** How long after SIGTERM the command gets SIGKILL; default 2000 ms. */
  killGraceMs?: number;
}

/** What came of a run. */
export interface RunResult {
  /** The exit code, or null when a signal ended it. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** stdout and stderr interleaved, the last `maxOutput` bytes. */
  output: string;
  /** Bytes of output dropped from the front. */
  truncatedBytes: number;
  timedOut: boolean;
  cancelled: boolean;
  /** The shell could not be started (the message says why). */
  spawnError?: string;
  durationMs: number;
}

/** DefaultTimeoutMs is how long a command may run when the caller names no bound. */
export const DefaultTimeoutMs = 10 * 60 * 1000;

/**
 * runCommand runs `bash -c command` in cwd with stdin closed. On timeout or
 * cancellation it ends the whole process group (SIGTERM, then SIGKILL). It
 * never rejects: failures are in the result.
 */
export function runCommand(opts: RunOptions): Promise<RunResult> {
  const started = Date.now();
  const out = new TailBuffer(opts.maxOutput ?? DefaultOutputLimit);
  const posix = process.platform !== "win32";
  return new Promise((resolve) => {
    let timedOut = false;
    let cancelled = false;
    let settled = false;
    let spawnError: string | undefined;
    const timers: ReturnType<typeof setTimeout>[] = [];

    const child = spawn(opts.shell ?? "bash", ["-c", opts.command], {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: posix, // its own process group, so a kill reaches its children
      windowsHide: true,
    });

    const kill = (sig: NodeJS.Signals): void => {
      if (child.pid === undefined) return;
      if (!posix && (child.exitCode !== null || child.signalCode !== null)) return;
      try {
        if (posix) process.kill(-child.pid, sig);
        else child.kill(sig);
      } catch (_err) {
        // already gone
      }
    };
    const stop = (): void => {
      kill("SIGTERM");
      const t = setTimeout(() => kill("SIGKILL"), opts.killGraceMs ?? 2000);
      t.unref?.();
      timers.push(t);
    };

    const onAbort = (): void => {
      cancelled = true;
      stop();
    };
    if (opts.signal) {
      if (opts.signal.aborted) onAbort();
      else opts.signal.addEventListener("abort", onAbort, { once: true });
    }
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, opts.timeoutMs ?? DefaultTimeoutMs);
    timers.push(timer);

    child.stdout?.on("data", (b: Buffer) => out.write(b));
    child.stderr?.on("data", (b: Buffer) => out.write(b));
    child.on("error", (err) => {
      spawnError = err.message;
      finish(null, null);
    });
    child.on("close", (code, sig) => finish(code, sig));
    // A background job that keeps stdout open must not hold the result back:
    // once bash has exited, its output gets a moment to drain, then we stop.
    child.on("exit", (code, sig) => {
      const t = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        finish(code, sig);
      }, 1000);
      t.unref?.();
      timers.push(t);
    });

    function finish(code: number | null, sig: NodeJS.Signals | null): void {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      opts.signal?.removeEventListener("abort", onAbort);
      const r: RunResult = {
        exitCode: code,
        signal: sig,
        output: out.text(),
        truncatedBytes: out.dropped,
        timedOut,
        cancelled,
        durationMs: Date.now() - started,
      };
      if (spawnError !== undefined) r.spawnError = spawnError;
      resolve(r);
    }
  });
}
