import { test } from "node:test";
import * as assert from "node:assert/strict";
import * as path from "node:path";
import { Targets, targetFor, binaryName, bundledServerPath, serverPath, resolveCwd } from "../../src/platform";

test("every packaged target maps to a Go GOOS/GOARCH", () => {
  assert.deepEqual(Targets.map((t) => t.vsce), ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "win32-x64"]);
  const cases: [string, string, string | undefined][] = [
    ["linux", "x64", "linux/amd64"],
    ["linux", "arm64", "linux/arm64"],
    ["darwin", "x64", "darwin/amd64"],
    ["darwin", "arm64", "darwin/arm64"],
    ["win32", "x64", "windows/amd64"],
    ["win32", "arm64", undefined],
    ["freebsd", "x64", undefined],
  ];
  for (const [p, a, want] of cases) {
    const t = targetFor(p, a);
    assert.equal(t ? `${t.goos}/${t.goarch}` : undefined, want, `${p}-${a}`);
  }
});

test("binary name and bundled path", () => {
  assert.equal(binaryName("linux"), "command-safety");
  assert.equal(binaryName("darwin"), "command-safety");
  assert.equal(binaryName("win32"), "command-safety.exe");
  assert.equal(bundledServerPath("/ext", "linux"), path.join("/ext", "bin", "command-safety"));
  assert.equal(bundledServerPath("/ext", "win32"), path.join("/ext", "bin", "command-safety.exe"));
});

test("ml-ai.serverPath wins when set", () => {
  const cases: [string | undefined, string][] = [
    [undefined, path.join("/ext", "bin", "command-safety")],
    ["", path.join("/ext", "bin", "command-safety")],
    ["  ", path.join("/ext", "bin", "command-safety")],
    ["/opt/cs/command-safety", "/opt/cs/command-safety"],
    ["~/bin/command-safety", path.join("/home/u", "bin/command-safety")],
  ];
  for (const [setting, want] of cases) assert.equal(serverPath(setting, "/ext", "linux", "/home/u"), want, String(setting));
});

test("resolveCwd", () => {
  const cases: [string | undefined, string[], string][] = [
    [undefined, ["/w", "/v"], "/w"],
    ["", ["/w"], "/w"],
    ["  ", [], "/home/u"],
    ["/abs/dir", ["/w"], "/abs/dir"],
    ["/abs/../x", ["/w"], "/x"],
    ["sub/dir", ["/w"], "/w/sub/dir"],
    ["..", ["/w/a"], "/w"],
    ["sub", [], "/home/u/sub"],
  ];
  for (const [cwd, folders, want] of cases) assert.equal(resolveCwd(cwd, folders, "/home/u"), want, String(cwd));
});
