import { test } from "node:test";
import * as assert from "node:assert/strict";
import { GateCore, failClosedVerdict, isVerdict, GateDownRule, ServerState } from "../../src/state";
import { ClassifyParams, Verdict } from "../../src/protocol";

const params: ClassifyParams = { command: "rm -rf ~", cwd: "/w", workspaceFolders: ["/w"], agent: "copilot" };
const now = () => new Date("2026-01-02T03:04:05Z");

function verdict(decision: Verdict["decision"]): Verdict {
  return {
    time: "2026-01-02T03:04:05Z", command: params.command, cwd: "/w", workspaces: ["/w"], agent: "copilot", mode: "",
    decision, effects: [{ effect: "read", text: "ls", span: [0, 2] }], decidedBy: null, rule: "read", reason: "r",
    classificationEnabled: true, micros: 3,
  };
}

test("failClosedVerdict prompts, never allows or refuses", () => {
  const v = failClosedVerdict(params, "the server is starting", now());
  assert.equal(v.decision, "prompt");
  assert.equal(v.rule, GateDownRule);
  assert.equal(v.failedClosed, true);
  assert.equal(v.command, "rm -rf ~");
  assert.match(v.reason, /gate is down \(the server is starting\)/);
  assert.deepEqual(v.workspaces, ["/w"]);
  assert.equal(v.time, "2026-01-02T03:04:05.000Z");
});

test("classify fails closed in every state but running", async () => {
  const states: ServerState[] = ["starting", "restarting", "down", "stopped"];
  for (const s of states) {
    let calls = 0;
    const core = new GateCore(async () => { calls++; return verdict("allow"); }, { now });
    core.setState(s, s === "down" ? "crashed too often" : "");
    const v = await core.classify(params);
    assert.equal(v.decision, "prompt", s);
    assert.equal(v.failedClosed, true, s);
    assert.equal(calls, 0, `${s}: the server must not be asked`);
    if (s === "down") assert.match(v.reason, /crashed too often/);
  }
});

test("classify passes the server's verdict through while running", async () => {
  for (const d of ["allow", "prompt", "refuse"] as const) {
    const seen: ClassifyParams[] = [];
    const core = new GateCore(async (p) => { seen.push(p); return verdict(d); }, { now });
    core.setState("running");
    const v = await core.classify(params);
    assert.equal(v.decision, d);
    assert.equal(v.failedClosed, undefined);
    assert.deepEqual(seen, [params]);
  }
});

test("classify fails closed on errors, timeouts and non-verdicts", async () => {
  const cases: { name: string; send: () => Promise<unknown>; want: RegExp }[] = [
    { name: "rejects", send: async () => { throw new Error("connection got disposed"); }, want: /request failed: connection got disposed/ },
    { name: "hangs", send: () => new Promise(() => undefined), want: /no answer within 50 ms/ },
    { name: "null", send: async () => null, want: /sent no verdict/ },
    { name: "bad decision", send: async () => ({ ...verdict("allow"), decision: "maybe" }), want: /sent no verdict/ },
    { name: "no effects", send: async () => ({ ...verdict("allow"), effects: undefined }), want: /sent no verdict/ },
  ];
  for (const c of cases) {
    const core = new GateCore(c.send, { now, timeoutMs: 50 });
    core.setState("running");
    const v = await core.classify(params);
    assert.equal(v.decision, "prompt", c.name);
    assert.match(v.reason, c.want, c.name);
  }
});

test("state changes reach listeners once each", () => {
  const core = new GateCore(async () => null);
  assert.equal(core.state, "starting");
  const seen: string[] = [];
  const off = core.onDidChange((c) => seen.push(`${c.state}:${c.detail}`));
  core.setState("running");
  core.setState("running");
  core.setState("restarting", "exited (SIGKILL)");
  off();
  core.setState("running");
  assert.deepEqual(seen, ["running:", "restarting:exited (SIGKILL)"]);
  assert.equal(core.state, "running");
});

test("isVerdict", () => {
  assert.equal(isVerdict(verdict("refuse")), true);
  assert.equal(isVerdict(undefined), false);
  assert.equal(isVerdict("allow"), false);
  assert.equal(isVerdict({ decision: "allow" }), false);
});
