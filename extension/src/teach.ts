// "Allow `PROGRAM SUBCOMMAND` from now on" (issue 16 point 5): the offer's
// texts and the `command-safety rules add` arguments that write the rule.
// It must not import `vscode`.

import * as path from "node:path";
import { Teachable } from "./protocol";

/** teachName is "kx get", or "kx" for a rule without a subcommand. */
export function teachName(t: Teachable): string {
  return t.subcommand ? `${t.program} ${t.subcommand}` : t.program;
}

/** teachButton is the button that offers the rule. */
export function teachButton(t: Teachable): string {
  return `Allow \`${teachName(t)}\` from now on`;
}

/** teachConfirm is the detail of the confirmation: what the rule lets run. */
export function teachConfirm(t: Teachable): string {
  const name = teachName(t);
  return [
    `This adds a user rule (ml-ai.rules) saying that \`${name}\` only reads files: from now on, for every agent,`,
    `\`${name}\` runs without asking when its options are ones the rule knows (it starts with none,`,
    `so \`${t.example}\` runs and other options still ask).`,
    t.subcommand ? `Other \`${t.program}\` subcommands still ask.` : "",
    "Refusals still apply (sudo, writes to your home directory, deleting outside the workspace, ...).",
    "Edit or remove it with `command-safety rules list|remove`.",
  ].filter((l) => l !== "").join(" ");
}

/**
 * teachArgs are the arguments of the `command-safety` binary that add the
 * rule, to file when given (the user settings.json of the editor the
 * extension runs in: see {@link userSettingsFile}).
 */
export function teachArgs(t: Teachable, file?: string): string[] {
  const args = ["rules", "add"];
  if (file) args.push("--file", file);
  args.push("--program", t.program);
  if (t.subcommand) args.push("--subcommand", t.subcommand);
  args.push("--effect", "read", "--example", t.example);
  return args;
}

/**
 * userSettingsFile is the user settings.json of the editor whose extension
 * host has globalStorage (the fsPath of `ExtensionContext.globalStorageUri`,
 * `<user data>/User/globalStorage/<extension id>`): `<user data>/User/settings.json`.
 * Without it `rules add` writes the first user settings file it finds
 * (VS Code's), which is not the one that editor reads under code-server,
 * `--user-data-dir`, a portable install or another VS Code-family editor.
 * undefined when the path does not have that shape.
 */
export function userSettingsFile(globalStorage: string | undefined): string | undefined {
  if (!globalStorage || !path.isAbsolute(globalStorage)) return undefined;
  const storage = path.dirname(path.normalize(globalStorage));
  if (path.basename(storage) !== "globalStorage") return undefined;
  return path.join(path.dirname(storage), "settings.json");
}

/** rulesListArgs read the rules back (`rules list --json`: `[{name, rule}]`). */
export function rulesListArgs(file: string): string[] {
  return ["rules", "list", "--file", file, "--json"];
}

/** rulesOfList is the `ml-ai.rules` value a `rules list --json` output lists, or undefined. */
export function rulesOfList(stdout: string): unknown[] | undefined {
  let rows: unknown;
  try {
    rows = JSON.parse(stdout);
  } catch (_e) {
    return undefined;
  }
  if (!Array.isArray(rows)) return undefined;
  const out: unknown[] = [];
  for (const r of rows) {
    if (typeof r !== "object" || r === null || !("rule" in r)) return undefined;
    out.push((r as { rule: unknown }).rule);
  }
  return out;
}

/** TeachCommand is the command a confirmation's link runs with a {@link Teachable}. */
export const TeachCommand = "ml-ai.commandSafety.allowFromNowOn";

/** teachLink is the Markdown link that offers the rule in a tool confirmation. */
export function teachLink(t: Teachable): string {
  // encodeURIComponent leaves ( ) ! * ' alone; a ")" would end the link.
  const arg = encodeURIComponent(JSON.stringify([{ program: t.program, subcommand: t.subcommand ?? "", example: t.example }]))
    .replace(/[()!*']/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const label = teachButton(t).replace(/[[\]]/g, "");
  return `[${label}](command:${TeachCommand}?${arg})`;
}

/** teachableOf checks a command argument: a {@link Teachable} or undefined. */
export function teachableOf(x: unknown): Teachable | undefined {
  if (typeof x !== "object" || x === null) return undefined;
  const o = x as Record<string, unknown>;
  if (typeof o["program"] !== "string" || typeof o["example"] !== "string" || o["program"] === "") return undefined;
  const t: Teachable = { program: o["program"], example: o["example"] };
  if (typeof o["subcommand"] === "string" && o["subcommand"] !== "") t.subcommand = o["subcommand"];
  return t;
}

/** SyncWaitMs is how long the extension waits for VS Code to read the file rules add wrote. */
export const SyncWaitMs = 1500;

/** sameJSON reports whether a and b are the same JSON value, whatever the order of object keys. */
export function sameJSON(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(x: unknown): string {
  if (Array.isArray(x)) return `[${x.map(canonical).join(",")}]`;
  if (typeof x === "object" && x !== null) {
    const o = x as Record<string, unknown>;
    return `{${Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(",")}}`;
  }
  return JSON.stringify(x) ?? "null";
}
