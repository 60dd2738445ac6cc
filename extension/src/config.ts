// What the extension answers for the server's `workspace/configuration`
// request for section `ml-ai`. It must not import `vscode`.

/** Inspected is the shape of VS Code's WorkspaceConfiguration.inspect result. */
export interface Inspected<T> {
  defaultValue?: T;
  globalValue?: T;
  workspaceValue?: T;
  workspaceFolderValue?: T;
}

/** Keys are the settings of section `ml-ai` (SPEC §6, package.json). */
export const Keys = ["commandSafety", "agentBudgets", "decisionLog", "serverPath", "holdTimeout"] as const;

/** Key is one setting of section `ml-ai`. */
export type Key = (typeof Keys)[number];

/** ApplicationKeys are the settings a workspace must not set (user settings only). */
export const ApplicationKeys: readonly Key[] = ["agentBudgets", "decisionLog", "serverPath", "holdTimeout"];

/**
 * section computes the `ml-ai` section sent to the server. A workspace can
 * only tighten (SPEC §6): `commandSafety` is off when any level sets it to
 * anything but true,
 * and the application-scoped keys come from the user settings alone, whatever
 * a workspace file says.
 */
export function section(inspect: (key: Key) => Inspected<unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const cs = inspect("commandSafety");
  const set = [cs?.globalValue, cs?.workspaceValue, cs?.workspaceFolderValue].filter((v) => v !== undefined);
  // Anything but `true` at any level turns classification off: that is the stricter reading.
  out.commandSafety = set.length === 0 ? cs?.defaultValue !== false : set.every((v) => v === true);
  for (const k of ApplicationKeys) {
    const i = inspect(k);
    const v = i?.globalValue ?? i?.defaultValue;
    if (v !== undefined) out[k] = v;
  }
  return out;
}
