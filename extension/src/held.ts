// Commands that hooks in hold mode wait on (SPEC §10). It must not import `vscode`.

import { HeldCommand } from "./protocol";

/**
 * HeldTracker turns the server's successive `commandSafety/held` lists into
 * what the editor does: ask about each command once, and show how many wait.
 */
export class HeldTracker {
  private asked = new Set<number>();
  /** count is how many commands are held now. */
  count = 0;

  /** update takes the current list and returns the commands not asked about yet. */
  update(held: readonly HeldCommand[]): HeldCommand[] {
    this.count = held.length;
    const now = new Set(held.map((h) => h.logId));
    for (const id of this.asked) if (!now.has(id)) this.asked.delete(id);
    const fresh = held.filter((h) => !this.asked.has(h.logId));
    for (const h of fresh) this.asked.add(h.logId);
    return fresh;
  }
}

/** heldMessage is the notification text for a held command. */
export function heldMessage(h: HeldCommand): string {
  const cmd = h.command.length > 300 ? `${h.command.slice(0, 300)}…` : h.command;
  return `${h.agent || "An agent"} is waiting for your approval to run: ${cmd} — ${h.reason}`;
}

/** heldStatus is the status bar's suffix: "" when nothing is held. */
export function heldStatus(count: number): string {
  return count > 0 ? ` · ${count} held` : "";
}
