// Text the extension shows a human: confirmations, refusals, the status bar
// and tool results. It must not import `vscode`.

import { Verdict } from "./protocol";
import { ServerState } from "./state";
import { RunResult } from "./run";

/**
 * fence returns a Markdown code fence for text: one more backtick than the
 * longest run of backticks in it, so a command cannot close the block early.
 */
export function fence(text: string, lang = "sh"): string {
  let longest = 0;
  for (const m of text.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  const f = "`".repeat(Math.max(3, longest + 1));
  return `${f}${lang}\n${text}\n${f}`;
}

/** escapeMarkdown makes text safe to show literally inside Markdown prose. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]<>|#~!]/g, (c) => "\\" + c);
}

/** decidingPart names the part that decided the verdict: its text and effect. */
export function decidingPart(v: Verdict): string {
  const d = v.decidedBy;
  if (!d) return "";
  return `${d.text} (${d.effect})`;
}

/** effectList is the verdict's distinct effect classes in order, "read, network". */
export function effectList(v: Verdict): string {
  return [...new Set(v.effects.map((e) => e.effect))].join(", ");
}

/** Confirmation is what the LM tool asks the human before a prompted command runs. */
export interface Confirmation {
  title: string;
  /** Markdown: the exact command text, the deciding part, the effects and the reason. */
  markdown: string;
}

/** confirmation renders a prompt verdict for the tool's confirmation dialog. */
export function confirmation(v: Verdict, explanation?: string): Confirmation {
  // The command comes last: VS Code renders this Markdown as plain text in a
  // dialog when there is no chat, and a paragraph right after a code block
  // would run into the command's last line there.
  const lines: string[] = [];
  if (explanation) lines.push(escapeMarkdown(explanation), "");
  lines.push(`**Reason:** ${escapeMarkdown(v.reason)}`, "");
  const part = decidingPart(v);
  if (part) lines.push(`**Why it asks:** ${escapeMarkdown(part)}`, "");
  const effs = effectList(v);
  if (effs) lines.push(`**Effects:** ${escapeMarkdown(effs)}`, "");
  lines.push(v.cwd ? `**Command** (in \`${v.cwd.replace(/`/g, "'")}\`):` : "**Command:**", "", fence(v.command));
  return { title: v.failedClosed ? "Run this command? (the safety gate is down)" : "Run this command?", markdown: lines.join("\n") };
}

/** modalDetail is the plain-text detail of the modal that gate() shows. */
export function modalDetail(v: Verdict): string {
  const parts = [v.command, "", `Reason: ${v.reason}`];
  const part = decidingPart(v);
  if (part) parts.push(`Deciding part: ${part}`);
  const effs = effectList(v);
  if (effs) parts.push(`Effects: ${effs}`);
  if (v.cwd) parts.push(`In: ${v.cwd}`);
  return parts.join("\n");
}

/** refusalMessage is the error an agent sees for a refused command: the reason. */
export function refusalMessage(v: Verdict): string {
  return `Command Safety refused this command: ${v.reason}`;
}

/** summary is one line for the Classify command's answer. */
export function summary(v: Verdict): string {
  const part = decidingPart(v);
  return `${v.decision.toUpperCase()}: ${v.command}${part ? ` — ${part}` : ""} — ${v.reason}`;
}

/**
 * logLine is the output-channel line for a verdict the extension made itself
 * (fail-closed), in the server's format (jsonrpc/PROTOCOL.md):
 * `TIME DECISION agent=AGENT[ mode=MODE] rule=RULE "COMMAND" — REASON`.
 */
export function logLine(v: Verdict): string {
  const mode = v.mode ? ` mode=${quoteIfSpace(v.mode)}` : "";
  return `${v.time} ${v.decision.toUpperCase()} agent=${quoteIfSpace(v.agent)}${mode} rule=${quoteIfSpace(v.rule)} ${JSON.stringify(v.command)} — ${v.reason}`;
}

function quoteIfSpace(s: string): string {
  return /\s/.test(s) ? JSON.stringify(s) : s;
}

/** StatusText is the status bar item: its text and tooltip. */
export interface StatusText {
  text: string;
  tooltip: string;
  /** warning and error map to the item's background colours. */
  severity: "normal" | "warning" | "error";
}

/** status renders the server state and the toggle for the status bar. */
export function status(state: ServerState, enabled: boolean, detail = ""): StatusText {
  const why = detail ? `: ${detail}` : "";
  switch (state) {
    case "running":
      return enabled
        ? { text: "$(shield) Safety: on", tooltip: "Command Safety is on: commands are classified by effect. Click to show the log.", severity: "normal" }
        : { text: "$(shield) Safety: off", tooltip: "Command Safety is off (ml-ai.commandSafety: false): every command prompts, refusals still refuse. Click to show the log.", severity: "warning" };
    case "starting":
      return { text: "$(sync~spin) Safety: starting", tooltip: `The command-safety server is starting; every command prompts meanwhile${why}.`, severity: "warning" };
    case "restarting":
      return { text: "$(sync~spin) Safety: restarting", tooltip: `The command-safety server crashed and is restarting; every command prompts meanwhile${why}.`, severity: "warning" };
    case "down":
      return { text: "$(error) Safety: down", tooltip: `The command-safety server is down${why}. Every command prompts. Click to show the log.`, severity: "error" };
    case "stopped":
      return { text: "$(circle-slash) Safety: stopped", tooltip: "The command-safety server is stopped.", severity: "warning" };
  }
}

/** toolResultText is what the LM tool returns to the agent after running a command. */
export function toolResultText(r: RunResult): string {
  const head: string[] = [];
  if (r.spawnError !== undefined) head.push(`The command could not be started: ${r.spawnError}`);
  else if (r.timedOut) head.push(`The command timed out after ${Math.round(r.durationMs / 1000)} s and was killed.`);
  else if (r.cancelled) head.push("The command was cancelled.");
  if (r.exitCode !== null) head.push(`Exit code: ${r.exitCode}`);
  else if (r.signal !== null) head.push(`Killed by signal ${r.signal}`);
  if (r.truncatedBytes > 0) head.push(`(output truncated: the first ${r.truncatedBytes} bytes were dropped; the last part follows)`);
  head.push("Output:", r.output);
  return head.join("\n");
}

/** LogLevel is a level of the output channel. */
export type LogLevel = "error" | "warn" | "info" | "debug";

/**
 * lineLevel is the channel level of a verdict's log line: the level its
 * `window/logMessage` would have had (PROTOCOL.md: Info for allow, Warning
 * for prompt, Error for refuse).
 */
export function lineLevel(decision: Verdict["decision"]): LogLevel {
  switch (decision) {
    case "allow":
      return "info";
    case "prompt":
      return "warn";
    default:
      return "error";
  }
}

/**
 * stderrLevel picks the channel level for one line of the server's stderr
 * (log/slog text: `time=… level=INFO msg=…`): its errors and warnings show at
 * the channel's default level, its info and debug chatter only when the user
 * raises it. A line that is not slog's (a panic, a Go runtime message) is an
 * error.
 */
export function stderrLevel(line: string): LogLevel {
  const m = /(?:^|\s)level=(ERROR|WARN|INFO|DEBUG)\b/.exec(line);
  switch (m?.[1]) {
    case "WARN":
      return "warn";
    case "INFO":
    case "DEBUG":
      return "debug";
    case "ERROR":
    default:
      return "error";
  }
}
