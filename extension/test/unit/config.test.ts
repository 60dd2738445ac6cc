import { test } from "node:test";
import * as assert from "node:assert/strict";
import { section, userSection, folderSection, Inspected, Key, Keys, ApplicationKeys } from "../../src/config";

type Levels = Partial<Record<Key, Inspected<unknown>>>;
const defaults: Levels = {
  commandSafety: { defaultValue: true },
  agentBudgets: { defaultValue: {} },
  decisionLog: { defaultValue: "" },
  serverPath: { defaultValue: "" },
  holdTimeout: { defaultValue: "10m" },
};
function with_(over: Levels): (k: Key) => Inspected<unknown> | undefined {
  return (k) => ({ ...defaults[k], ...over[k] });
}

test("the keys are the settings of SPEC §6", () => {
  assert.deepEqual([...Keys], ["commandSafety", "agentBudgets", "decisionLog", "serverPath", "holdTimeout", "rules"]);
  assert.deepEqual([...ApplicationKeys], ["agentBudgets", "decisionLog", "serverPath", "holdTimeout"]);
});

test("a workspace can only turn commandSafety off", () => {
  const cases: [string, Inspected<unknown>, boolean][] = [
    ["default", {}, true],
    ["user off", { globalValue: false }, false],
    ["user on", { globalValue: true }, true],
    ["workspace off", { globalValue: true, workspaceValue: false }, false],
    ["folder off", { workspaceFolderValue: false }, false],
    ["workspace on cannot undo user off", { globalValue: false, workspaceValue: true }, false],
    ["folder on cannot undo user off", { globalValue: false, workspaceFolderValue: true }, false],
    ["not a boolean is off", { globalValue: "yes" }, false],
  ];
  for (const [name, over, want] of cases) {
    assert.equal(section(with_({ commandSafety: over })).commandSafety, want, name);
  }
});

test("application keys come from user settings only", () => {
  const s = section(with_({
    agentBudgets: { globalValue: { copilot: { network: "allow" } }, workspaceValue: { copilot: { "irreversible-deletion": "allow" } } },
    decisionLog: { workspaceValue: "/tmp/evil.db" },
    serverPath: { globalValue: "/opt/cs", workspaceValue: "/tmp/evil" },
  }));
  assert.deepEqual(s, {
    commandSafety: true,
    agentBudgets: { copilot: { network: "allow" } },
    decisionLog: "",
    serverPath: "/opt/cs",
    holdTimeout: "10m",
  });
});

test("unknown keys inspect to nothing", () => {
  assert.deepEqual(section(() => undefined), { commandSafety: true });
});

test("userSection sends the user's keys only", () => {
  const s = userSection(with_({
    commandSafety: { globalValue: false, workspaceValue: true },
    agentBudgets: { workspaceValue: { copilot: { network: "allow" } } },
    holdTimeout: { globalValue: "5m" },
  }));
  assert.deepEqual(s, { commandSafety: false, holdTimeout: "5m" });
  assert.deepEqual(userSection(with_({})), {});
});

test("folderSection sends what the workspace and folder set", () => {
  const cases: [string, Levels, Record<string, unknown>][] = [
    ["nothing", {}, {}],
    ["workspace off", { commandSafety: { globalValue: true, workspaceValue: false } }, { commandSafety: false }],
    ["folder on cannot undo workspace off", { commandSafety: { workspaceValue: false, workspaceFolderValue: true } }, { commandSafety: false }],
    ["workspace on", { commandSafety: { workspaceValue: true } }, { commandSafety: true }],
    ["budgets: folder over workspace", { agentBudgets: { globalValue: { a: {} }, workspaceValue: { w: {} }, workspaceFolderValue: { f: {} } } }, { agentBudgets: { f: {} } }],
    ["user only is not sent", { decisionLog: { globalValue: "/x.db" } }, {}],
  ];
  for (const [name, over, want] of cases) assert.deepEqual(folderSection(with_(over)), want, name);
});

test("rules: the user's in the user and merged sections, a workspace's only in its folder section", () => {
  const user = [{ program: "kx", effects: ["read"] }];
  const ws = [{ program: "zork", effects: ["system-change"] }];
  const get = with_({ rules: { defaultValue: [], globalValue: user, workspaceValue: ws } });
  assert.deepEqual(section(get).rules, user);
  assert.deepEqual(userSection(get).rules, user);
  assert.deepEqual(folderSection(get).rules, ws);
  assert.equal(section(with_({})).rules, undefined);
});
