// Verdicts between the tool's prepareInvocation and invoke. It must not
// import `vscode`.

import { Verdict } from "./protocol";

/**
 * Prepared remembers the verdict prepareInvocation showed for a tool input,
 * so that invoke knows whether the human was asked (and approved: VS Code
 * calls invoke only after an approval). Entries expire after `ttlMs`.
 *
 * VS Code never reports a confirmation the human cancelled: invoke is simply
 * not called. An entry that expires is therefore handed to `onExpire`, so
 * that a prompt nobody approved does not stay pending in the decision log
 * (where approving it later would record an approval for a command that
 * never ran). A late approval is not lost: invoke without an entry
 * classifies again and asks the human itself.
 */
export class Prepared {
  private readonly entries = new Map<string, { verdict: Verdict; at: number }[]>();

  constructor(
    readonly ttlMs = 30 * 60 * 1000,
    private readonly now: () => number = Date.now,
    private readonly onExpire: (v: Verdict) => void = () => {},
  ) {}

  /** key identifies a tool input: the command and cwd as the agent gave them. */
  static key(command: string, cwd: string | undefined): string {
    return JSON.stringify([command, cwd ?? ""]);
  }

  /** put records the verdict shown for key. */
  put(key: string, verdict: Verdict): void {
    this.expire();
    const list = this.entries.get(key) ?? [];
    list.push({ verdict, at: this.now() });
    this.entries.set(key, list);
  }

  /** take removes and returns the oldest live verdict for key. */
  take(key: string): Verdict | undefined {
    this.expire();
    const list = this.entries.get(key);
    const first = list?.shift();
    if (list && list.length === 0) this.entries.delete(key);
    return first?.verdict;
  }

  /** size is the number of live entries. */
  size(): number {
    this.expire();
    let n = 0;
    for (const l of this.entries.values()) n += l.length;
    return n;
  }

  /** expire drops the entries older than ttlMs, handing each to onExpire. */
  expire(): void {
    const t = this.now();
    for (const [k, list] of this.entries) {
      const live = list.filter((e) => t - e.at < this.ttlMs);
      for (const e of list) if (t - e.at >= this.ttlMs) this.onExpire(e.verdict);
      if (live.length === 0) this.entries.delete(k);
      else this.entries.set(k, live);
    }
  }
}
