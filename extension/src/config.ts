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
export const Keys = ["commandSafety", "agentBudgets", "decisionLog", "serverPath", "holdTimeout", "rules"] as const;

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
  // Rules: the user's only here; a workspace's go in its folder section,
  // where the server lets them only add effects.
  const rules = inspect("rules")?.globalValue;
  if (rules !== undefined) out.rules = rules;
  return out;
}

/**
 * userSection is the answer for the user-scope item (no scopeUri) of the
 * server's `workspace/configuration` request: the keys set in the user
 * settings, and nothing a workspace set. The server applies its defaults to
 * keys that are absent.
 */
export function userSection(inspect: (key: Key) => Inspected<unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Keys) {
    const v = inspect(k)?.globalValue;
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/**
 * folderSection is the answer for a workspace folder's item (with scopeUri):
 * the keys set by the workspace or the folder, which the server applies only
 * where they tighten the user's (SPEC §6). Where both levels set
 * `commandSafety`, anything but true at either level wins; for other keys the
 * folder's value is taken over the workspace's.
 */
export function folderSection(inspect: (key: Key) => Inspected<unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Keys) {
    const i = inspect(k);
    const set = [i?.workspaceValue, i?.workspaceFolderValue].filter((v) => v !== undefined);
    if (set.length === 0) continue;
    if (k === "commandSafety") out[k] = set.every((v) => v === true);
    else out[k] = i?.workspaceFolderValue ?? i?.workspaceValue;
  }
  return out;
}
