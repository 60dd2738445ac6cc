import { test } from "node:test";
import * as assert from "node:assert/strict";
import * as path from "node:path";
import { choiceOf, hookFile, hookState, installArgs, isOurCommand, needsRepair, offerButtons, shouldOffer, statusLine } from "../../src/copilothook";

const file = "/h/.copilot/hooks/command-safety.json";

test("the hook file is the user-level one VS Code reads", () => {
  assert.equal(hookFile("/h"), path.join("/h", ".copilot", "hooks", "command-safety.json"));
  assert.deepEqual(installArgs, ["hook", "install", "vscode", "--user"]);
});

test("our command, and only ours", () => {
  const cases: [unknown, boolean][] = [
    ["/opt/ext/bin/command-safety hook vscode --limit=30s", true],
    ["/opt/ext/bin/command-safety hook vscode --event=preToolUse --limit=30s", true],
    ["'/a b/command-safety' hook copilot-cli", true],
    ["/opt/command-safety hook vscode", true],
    ["/opt/command-safety hook vscodex", false],
    ["/opt/command-safety hook claude-code", false],
    ["/usr/bin/other-gate hook vscode", false],
    [42, false],
    [undefined, false],
  ];
  for (const [cmd, want] of cases) assert.equal(isOurCommand(cmd), want, String(cmd));
});

test("hook state from the file as VS Code reads it", () => {
  const ours = "/x/command-safety hook vscode --limit=30s";
  const cases: [string | undefined, boolean][] = [
    [undefined, false],
    ["", false],
    ["{ not json", false],
    ["[]", false],
    [JSON.stringify({ version: 1 }), false],
    [JSON.stringify({ version: 1, hooks: { preToolUse: [{ type: "command", bash: ours, command: ours, timeoutSec: 30 }] } }), true],
    [JSON.stringify({ hooks: { PreToolUse: [{ type: "command", command: ours }] } }), true],
    [JSON.stringify({ hooks: { PreToolUse: [{ type: "command", linux: ours }] } }), true],
    // Another event, another type, another program: not gated.
    [JSON.stringify({ hooks: { postToolUse: [{ type: "command", bash: ours }] } }), false],
    [JSON.stringify({ hooks: { preToolUse: [{ type: "http", bash: ours }] } }), false],
    [JSON.stringify({ hooks: { preToolUse: [{ type: "command", bash: "./audit.sh" }] } }), false],
    [JSON.stringify({ hooks: { preToolUse: {} } }), false],
  ];
  for (const [text, want] of cases) {
    const s = hookState(text, file);
    assert.equal(s.gated, want, String(text));
    assert.match(s.detail, want ? /is gated/ : /not gated/);
    assert.ok(s.detail.includes(file));
  }
});

test("the offer: once, with consent, never when installed or refused", () => {
  const off = { gated: false, detail: "" };
  const on = { gated: true, detail: "" };
  assert.equal(shouldOffer(off, "", false), true);
  assert.equal(shouldOffer(off, "later", false), true, "Not now asks again in a later session");
  assert.equal(shouldOffer(off, "later", true), false, "but not twice in one session");
  assert.equal(shouldOffer(off, "never", false), false);
  assert.equal(shouldOffer(on, "", false), false, "already installed: idempotent");
  assert.equal(shouldOffer(off, "install", false), true, "installed before, but the entry is gone");
  assert.equal(choiceOf(offerButtons.install), "install");
  assert.equal(choiceOf(offerButtons.never), "never");
  assert.equal(choiceOf(offerButtons.later), "later");
  assert.equal(choiceOf(undefined), "later", "a dismissed notification is Not now");
});

test("status line", () => {
  assert.match(statusLine({ gated: true, detail: "" }), /gated/);
  assert.match(statusLine({ gated: false, detail: "" }), /not gated.*Gate Copilot's Terminal Tool/);
});

test("an entry the extension wrote follows the extension's binary after an update", () => {
  const at = (cmd: string) => hookState(JSON.stringify({ version: 1, hooks: { preToolUse: [{ type: "command", bash: cmd, command: cmd }] } }), file);
  const now = "/ext/ml-ai.command-safety-0.2.0/bin/command-safety";
  assert.equal(at(`${now} hook vscode --limit=30s`).command, `${now} hook vscode --limit=30s`);
  assert.equal(needsRepair(at(`${now} hook vscode --limit=30s`), "install", now), false);
  assert.equal(needsRepair(at(`${now}-hook hook vscode --limit=30s`), "install", now), false);
  assert.equal(needsRepair(at("/ext/ml-ai.command-safety-0.1.0/bin/command-safety-hook hook vscode --limit=30s"), "install", now), true);
  assert.equal(needsRepair(at("/ext/ml-ai.command-safety-0.1.0/bin/command-safety hook vscode --limit=30s"), "install", now), true);
  assert.equal(needsRepair(at("'/a b/command-safety' hook vscode"), "install", "/a b/command-safety"), false);
  // Installed by hand (another binary, or the human never clicked Install here): left alone.
  assert.equal(needsRepair(at("/usr/local/bin/command-safety hook vscode"), "", now), false);
  assert.equal(needsRepair(at("/usr/local/bin/command-safety hook vscode"), "never", now), false);
  assert.equal(needsRepair({ gated: false, detail: "" }, "install", now), false);
});
