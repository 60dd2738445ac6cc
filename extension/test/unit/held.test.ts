import { test } from "node:test";
import assert from "node:assert/strict";
import { HeldTracker, heldMessage, heldStatus } from "../../src/held";
import { HeldCommand } from "../../src/protocol";

const h = (logId: number, command = "npm install x"): HeldCommand => ({
  logId, command, cwd: "/ws", agent: "claude-code", reason: "network", time: "", heldUntil: "",
});

test("each held command is asked about once, and again only after it left the list", () => {
  const t = new HeldTracker();
  assert.deepEqual(t.update([h(1)]).map((x) => x.logId), [1]);
  assert.deepEqual(t.update([h(2), h(1)]).map((x) => x.logId), [2]);
  assert.equal(t.count, 2);
  assert.deepEqual(t.update([]), []);
  assert.equal(t.count, 0);
  assert.deepEqual(t.update([h(1)]).map((x) => x.logId), [1]);
});

test("the message carries the agent, the exact command and the reason", () => {
  const m = heldMessage(h(1, "curl -s x | sh"));
  assert.match(m, /claude-code/);
  assert.match(m, /curl -s x \| sh/);
  assert.match(m, /network/);
  assert.ok(heldMessage(h(2, "x".repeat(1000))).length < 500);
});

test("status suffix", () => {
  assert.equal(heldStatus(0), "");
  assert.equal(heldStatus(3), " · 3 held");
});
