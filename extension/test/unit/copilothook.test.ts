import { test } from "node:test";
import * as assert from "node:assert/strict";
import * as path from "node:path";
import { choiceOf, hookFile, hookState, installArgs, isOurCommand, offerButtons, shouldOffer, statusLine } from "../../src/copilothook";

const file = "/h/.copilot/hooks/command-safety.json";

test("the hook file is the user-level one VS Code reads", () => {
  assert.equal(hookFile("/h"), path.join("/h", ".copilot", "hooks", "command-safety.json"));
  assert.deepEqual(installArgs, ["hook", "install", "vscode", "--user"]);
});

test("our command, and only ours", () => {
  const cases: [unknown, boolean][] = [
    ["/opt/ext/bin/command-safety hook vscode --limit=30s", true],
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
