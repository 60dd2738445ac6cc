import { test } from "node:test";
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runCommand } from "../../src/run";

// Only harmless commands, in a temp dir with HOME pointed into it.
function sandbox(): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cs-run-"));
  return { dir, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir } };
}

test("runs in cwd and returns exit code and output", async () => {
  const { dir, env } = sandbox();
  fs.writeFileSync(path.join(dir, "hello.txt"), "hi\n");
  const r = await runCommand({ command: "pwd; cat hello.txt; echo err >&2; exit 3", cwd: dir, env });
  assert.equal(r.exitCode, 3);
  assert.equal(r.output, `${fs.realpathSync(dir)}\nhi\nerr\n`);
  assert.equal(r.timedOut, false);
  assert.equal(r.cancelled, false);
  assert.equal(r.truncatedBytes, 0);
});

test("caps output, keeping the tail", async () => {
  const { dir, env } = sandbox();
  const r = await runCommand({ command: "seq 1 100000", cwd: dir, env, maxOutput: 1024 });
  assert.equal(r.exitCode, 0);
  assert.equal(Buffer.byteLength(r.output), 1024);
  assert.ok(r.output.endsWith("99999\n100000\n"));
  assert.ok(r.truncatedBytes > 500_000);
});

test("a timeout kills the command and its children", async () => {
  const { dir, env } = sandbox();
  const t0 = Date.now();
  const r = await runCommand({ command: "sleep 30 & sleep 30; echo never", cwd: dir, env, timeoutMs: 200, killGraceMs: 200 });
  assert.equal(r.timedOut, true);
  assert.equal(r.exitCode, null);
  assert.equal(r.signal, "SIGTERM");
  assert.ok(!r.output.includes("never"));
  assert.ok(Date.now() - t0 < 5000, "bounded");
});

test("cancellation kills the command", async () => {
  const { dir, env } = sandbox();
  const ac = new AbortController();
  setTimeout(() => ac.abort(), 100);
  const r = await runCommand({ command: "echo started; sleep 30", cwd: dir, env, signal: ac.signal });
  assert.equal(r.cancelled, true);
  assert.equal(r.output, "started\n");
  assert.ok(r.durationMs < 5000);
});

test("an already aborted signal never runs long", async () => {
  const { dir, env } = sandbox();
  const ac = new AbortController();
  ac.abort();
  const r = await runCommand({ command: "sleep 30", cwd: dir, env, signal: ac.signal });
  assert.equal(r.cancelled, true);
  assert.ok(r.durationMs < 5000);
});

test("a background job holding stdout does not hold the result", async () => {
  const { dir, env } = sandbox();
  const r = await runCommand({ command: "(sleep 3 &) ; echo done", cwd: dir, env, timeoutMs: 20_000 });
  assert.equal(r.exitCode, 0);
  assert.equal(r.output, "done\n");
  assert.ok(r.durationMs < 2900, `took ${r.durationMs} ms`);
});

test("a missing shell or cwd is a result, not a rejection", async () => {
  const { dir, env } = sandbox();
  const r = await runCommand({ command: "true", cwd: path.join(dir, "nope"), env });
  assert.equal(typeof r.spawnError, "string");
  assert.equal(r.exitCode, null);
});
