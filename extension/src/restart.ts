// The restart policy for the server process. It must not import `vscode`.

/**
 * RestartPolicy allows at most `max` restarts within a sliding window of
 * `windowMs` (SPEC §9: 5 in 3 minutes); after that the gate stays closed.
 */
export class RestartPolicy {
  private readonly restarts: number[] = [];

  constructor(
    readonly max = 5,
    readonly windowMs = 3 * 60 * 1000,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * crashed records a crash and reports whether to restart. It returns false
   * when `max` restarts already happened within the window.
   */
  crashed(): boolean {
    const t = this.now();
    while (this.restarts.length > 0 && t - (this.restarts[0] as number) >= this.windowMs) {
      this.restarts.shift();
    }
    if (this.restarts.length >= this.max) return false;
    this.restarts.push(t);
    return true;
  }

  /** recent is the number of restarts within the window. */
  recent(): number {
    const t = this.now();
    return this.restarts.filter((r) => t - r < this.windowMs).length;
  }

  /** reset forgets past restarts (the user restarted the server by hand). */
  reset(): void {
    this.restarts.length = 0;
  }
}
