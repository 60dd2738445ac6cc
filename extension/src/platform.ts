// Where the server binary is, per platform. It must not import `vscode`.

import * as path from "node:path";
import * as os from "node:os";

/** A platform-specific VS Code target that the extension is packaged for. */
export interface Target {
  /** The vsce --target name. */
  vsce: string;
  goos: string;
  goarch: string;
}

/** Targets lists every platform a .vsix is built for (issue 5). */
export const Targets: readonly Target[] = [
  { vsce: "linux-x64", goos: "linux", goarch: "amd64" },
  { vsce: "linux-arm64", goos: "linux", goarch: "arm64" },
  { vsce: "darwin-x64", goos: "darwin", goarch: "amd64" },
  { vsce: "darwin-arm64", goos: "darwin", goarch: "arm64" },
  { vsce: "win32-x64", goos: "windows", goarch: "amd64" },
];

/** targetFor maps Node's platform and arch to a target, or undefined when none is built. */
export function targetFor(platform: string, arch: string): Target | undefined {
  return Targets.find((t) => t.vsce === `${platform}-${arch}`);
}

/** binaryName is the server's file name on platform. */
export function binaryName(platform: string): string {
  return platform === "win32" ? "command-safety.exe" : "command-safety";
}

/** bundledServerPath is the binary shipped in the extension's bin/ for platform. */
export function bundledServerPath(extensionRoot: string, platform: string): string {
  return path.join(extensionRoot, "bin", binaryName(platform));
}

/**
 * serverPath picks the binary to run: `ml-ai.serverPath` when set (a leading
 * `~` is the home directory), else the bundled one.
 */
export function serverPath(setting: string | undefined, extensionRoot: string, platform: string, home = os.homedir()): string {
  const s = (setting ?? "").trim();
  if (s === "") return bundledServerPath(extensionRoot, platform);
  if (s === "~") return home;
  if (s.startsWith("~/") || s.startsWith("~\\")) return path.join(home, s.slice(2));
  return s;
}

/**
 * resolveCwd is the directory a command runs in: cwd when absolute, resolved
 * against the first workspace folder when relative, and the first workspace
 * folder (else home) when empty.
 */
export function resolveCwd(cwd: string | undefined, folders: readonly string[], home = os.homedir()): string {
  const base = folders[0] ?? home;
  const c = (cwd ?? "").trim();
  if (c === "") return base;
  return path.isAbsolute(c) ? path.normalize(c) : path.resolve(base, c);
}
