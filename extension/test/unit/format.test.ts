import { test } from "node:test";
import * as assert from "node:assert/strict";
import * as format from "../../src/format";
import { Verdict } from "../../src/protocol";
import { failClosedVerdict } from "../../src/state";

function prompt(command: string): Verdict {
  const part = { effect: "network", text: "npm install x", span: [0, 13] as [number, number], program: "npm", decision: "prompt" as const };
  return {
    time: "t", command, cwd: "/w", workspaces: ["/w"], agent: "copilot", mode: "", decision: "prompt",
    effects: [{ effect: "read", text: "ls", span: [0, 2] }, part, { ...part }], decidedBy: part, rule: "network",
    reason: "`npm install x` is network; the copilot budget asks a human for network", classificationEnabled: true, micros: 5,
  };
}

test("fence is longer than any backtick run in the command", () => {
  const cases: [string, string][] = [
    ["ls", "```sh\nls\n```"],
    ["echo `date`", "```sh\necho `date`\n```"],
    ["echo ````", "`````sh\necho ````\n`````"],
  ];
  for (const [text, want] of cases) assert.equal(format.fence(text), want);
});

test("confirmation carries the exact command text, the deciding part, effects and reason", () => {
  const cmd = "npm install x && echo '*done*'";
  const c = format.confirmation(prompt(cmd), "Install x for the build");
  assert.equal(c.title, "Run this command?");
  assert.ok(c.markdown.endsWith("**Command** (in `/w`):\n\n```sh\n" + cmd + "\n```"), c.markdown);
  assert.match(c.markdown, /Why it asks:\*\* npm install x \(network\)/);
  assert.match(c.markdown, /Effects:\*\* read, network\n/);
  assert.ok(c.markdown.includes("copilot budget asks a human for network"));
  assert.ok(c.markdown.startsWith("Install x for the build"));
});

test("a fail-closed confirmation says the gate is down", () => {
  const v = failClosedVerdict({ command: "git status", cwd: "/w" }, "the server is restarting", new Date(0));
  const c = format.confirmation(v);
  assert.match(c.title, /gate is down/);
  assert.ok(c.markdown.includes("```sh\ngit status\n```"));
  assert.ok(!c.markdown.includes("Why it asks"));
});

test("modalDetail and refusalMessage", () => {
  const v = prompt("npm install x");
  assert.equal(format.modalDetail(v), [
    "npm install x", "", "Reason: `npm install x` is network; the copilot budget asks a human for network",
    "Deciding part: npm install x (network)", "Effects: read, network", "In: /w",
  ].join("\n"));
  const r = { ...v, decision: "refuse" as const, reason: "`rm -rf ~` deletes outside the workspace" };
  assert.equal(format.refusalMessage(r), "Command Safety refused this command: `rm -rf ~` deletes outside the workspace");
});

test("summary and logLine", () => {
  const v = prompt("npm install x");
  assert.match(format.summary(v), /^PROMPT: npm install x — npm install x \(network\) — /);
  const f = failClosedVerdict({ command: "ls", cwd: "/w" }, "x", new Date(0));
  assert.equal(format.logLine(f), `1970-01-01T00:00:00.000Z PROMPT agent=default rule=gate-down "ls" — ${f.reason}`);
  assert.equal(format.logLine({ ...f, agent: "my agent", mode: "plan", command: 'echo "x"' }),
    `1970-01-01T00:00:00.000Z PROMPT agent="my agent" mode=plan rule=gate-down "echo \\"x\\"" — ${f.reason}`);
});

test("status covers every state", () => {
  const cases: [Parameters<typeof format.status>, RegExp, string][] = [
    [["running", true], /Safety: on$/, "normal"],
    [["running", false], /Safety: off$/, "warning"],
    [["starting", true], /starting/, "warning"],
    [["restarting", true], /restarting/, "warning"],
    [["down", true, "crashed too often"], /down/, "error"],
    [["stopped", true], /stopped/, "warning"],
  ];
  for (const [args, text, sev] of cases) {
    const s = format.status(...args);
    assert.match(s.text, text);
    assert.equal(s.severity, sev);
  }
  assert.match(format.status("down", true, "crashed too often").tooltip, /crashed too often/);
});

test("toolResultText", () => {
  const base = { signal: null, output: "out\n", truncatedBytes: 0, timedOut: false, cancelled: false, durationMs: 1200 };
  assert.equal(format.toolResultText({ ...base, exitCode: 0 }), "Exit code: 0\nOutput:\nout\n");
  assert.match(format.toolResultText({ ...base, exitCode: null, signal: "SIGTERM", timedOut: true }), /^The command timed out after 1 s and was killed\.\nKilled by signal SIGTERM/);
  assert.match(format.toolResultText({ ...base, exitCode: 1, truncatedBytes: 10 }), /first 10 bytes were dropped/);
  assert.match(format.toolResultText({ ...base, exitCode: null, spawnError: "spawn bash ENOENT" }), /could not be started: spawn bash ENOENT/);
});

test("lineLevel gives a verdict line the level its logMessage had", () => {
  assert.equal(format.lineLevel("allow"), "info");
  assert.equal(format.lineLevel("prompt"), "warn");
  assert.equal(format.lineLevel("refuse"), "error");
});

test("stderrLevel maps slog levels; anything else is an error", () => {
  const cases: [string, format.LogLevel][] = [
    ['time=2026-11-30T08:41:51.886Z level=INFO msg=initialize roots=[/w]', "debug"],
    ['time=2026-11-30T08:41:51.886Z level=DEBUG msg=x', "debug"],
    ['time=2026-11-30T08:41:51.886Z level=WARN msg="settings problem"', "warn"],
    ['time=2026-11-30T08:41:51.886Z level=ERROR msg="cannot open the decision log"', "error"],
    ["panic: runtime error: index out of range", "error"],
    ["", "error"],
    ['msg="level=INFO is data here" level=ERROR', "error"],
  ];
  for (const [line, want] of cases) assert.equal(format.stderrLevel(line), want, line);
});
