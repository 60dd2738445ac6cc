// Whether Copilot's own terminal tool goes through the gate: the VS Code
// agent hook that `command-safety hook install vscode --user` writes, and
// when to offer installing it. It must not import `vscode`.

import * as path from "node:path";

/** HookFile is where the user-level hook lives; VS Code reads ~/.copilot/hooks (SPEC §8). */
export function hookFile(home: string): string {
  return path.join(home, ".copilot", "hooks", "command-safety.json");
}

/** installArgs are the bundled binary's arguments that install the hook. */
export const installArgs: readonly string[] = ["hook", "install", "vscode", "--user"];

/** HookState says whether the hook file holds our entry. */
export interface HookState {
  /** gated: the file holds a command-safety entry for VS Code's preToolUse. */
  gated: boolean;
  /** detail is one sentence for the status tooltip and the log. */
  detail: string;
  /** command is our entry's command line, when gated. */
  command?: string;
}

/** isOurCommand matches the command `hook install` writes (hooks.IsOurs in Go). */
export function isOurCommand(command: unknown): boolean {
  if (typeof command !== "string" || !command.includes("command-safety")) return false;
  return / hook (vscode|copilot-cli)(\s|$)/.test(command);
}

/**
 * hookState reads the hook file's text (undefined: no file) the way VS Code
 * reads it: an entry under hooks.preToolUse (Copilot CLI's layout, which
 * install writes) or hooks.PreToolUse whose command is ours.
 */
export function hookState(text: string | undefined, file: string): HookState {
  if (text === undefined) return { gated: false, detail: `Copilot's terminal tool is not gated: ${file} does not exist.` };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (_e) {
    return { gated: false, detail: `Copilot's terminal tool is not gated: ${file} is not valid JSON.` };
  }
  const hooks = isRecord(data) ? data.hooks : undefined;
  if (isRecord(hooks)) {
    for (const event of ["preToolUse", "PreToolUse"]) {
      const list = hooks[event];
      if (!Array.isArray(list)) continue;
      for (const e of list) {
        if (!isRecord(e) || e.type !== "command") continue;
        const command = [e.bash, e.command, e.linux, e.osx].find(isOurCommand);
        if (typeof command === "string") {
          return { gated: true, detail: `Copilot's terminal tool is gated: ${file} runs command-safety before every tool.`, command };
        }
      }
    }
  }
  return { gated: false, detail: `Copilot's terminal tool is not gated: ${file} has no command-safety entry.` };
}

/** OfferChoice is what the human answered the offer; "" when never asked. */
export type OfferChoice = "" | "install" | "later" | "never";

/** The notification's text and buttons. */
export const offerText = "Gate Copilot's own terminal tool? ML.ai Command Safety can judge every command Copilot runs in its terminal (a VS Code agent hook in ~/.copilot/hooks).";
export const offerButtons = { install: "Install", later: "Not now", never: "Never" } as const;

/**
 * shouldOffer says whether to show the offer now: never when the hook is
 * already installed (idempotent) or the human said Never, and at most once
 * per window session (Not now asks again in the next one).
 */
export function shouldOffer(state: HookState, stored: OfferChoice, askedThisSession: boolean): boolean {
  if (state.gated || stored === "never" || askedThisSession) return false;
  return true;
}

/** choiceOf maps the clicked button (undefined: dismissed) to the choice to store. */
export function choiceOf(button: string | undefined): OfferChoice {
  switch (button) {
    case offerButtons.install:
      return "install";
    case offerButtons.never:
      return "never";
  }
  return "later";
}

/**
 * needsRepair says whether the entry the extension installed runs another
 * binary than this extension's: after an update the old version's folder is
 * gone, and VS Code runs the tool when a hook cannot start. Only an entry
 * the extension wrote itself (the stored choice is "install") is rewritten.
 */
export function needsRepair(state: HookState, stored: OfferChoice, binary: string): boolean {
  if (!state.gated || stored !== "install" || state.command === undefined) return false;
  const quote = (b: string) => (/^[A-Za-z0-9_./+:@%=,-]+$/.test(b) ? b : `'${b.replace(/'/g, "'\\''")}'`);
  // `hook install` writes command-safety-hook beside the binary for the
  // pre-command event (it answers without linking SQLite): either is ours.
  const hookBinary = binary.replace(/command-safety(\.exe)?$/, "command-safety-hook$1");
  const command = state.command;
  return ![binary, hookBinary].some((b) => command.startsWith(`${quote(b)} hook `));
}

/** statusLine is the status bar tooltip's line about Copilot's terminal tool. */
export function statusLine(state: HookState): string {
  return state.gated
    ? "Copilot's terminal tool: gated (VS Code agent hook)."
    : "Copilot's terminal tool: not gated. Run \"ML.ai Command Safety: Gate Copilot's Terminal Tool\" to install the hook.";
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
