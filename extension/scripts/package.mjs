// package.mjs builds the Go server for each target (CGO off) and makes one
// platform-specific .vsix per target with @vscode/vsce (--target).
//
//   node scripts/package.mjs           all targets (linux-x64, linux-arm64,
//                                      darwin-x64, darwin-arm64, win32-x64)
//   node scripts/package.mjs --local   the current platform only
//
// The .vsix files go to dist/. The Go module root is the parent directory,
// or $CS_GO_ROOT.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const ext = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// CS_GO_ROOT overrides the Go module root (for building a snapshot of the tree).
const root = path.resolve(process.env.CS_GO_ROOT || path.resolve(ext, ".."));
const pkg = JSON.parse(fs.readFileSync(path.join(ext, "package.json"), "utf8"));

const targets = [
  { vsce: "linux-x64", goos: "linux", goarch: "amd64" },
  { vsce: "linux-arm64", goos: "linux", goarch: "arm64" },
  { vsce: "darwin-x64", goos: "darwin", goarch: "amd64" },
  { vsce: "darwin-arm64", goos: "darwin", goarch: "arm64" },
  { vsce: "win32-x64", goos: "windows", goarch: "amd64" },
];

let selected = targets;
if (process.argv.includes("--local")) {
  const t = targets.find((x) => x.vsce === `${process.platform}-${process.arch}`);
  if (!t) {
    console.error(`package: no target for ${process.platform}-${process.arch}`);
    process.exit(1);
  }
  selected = [t];
}

const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { stdio: "inherit", ...opts });

run(process.execPath, [path.join(ext, "node_modules", "typescript", "bin", "tsc"), "-p", ext]);
fs.mkdirSync(path.join(ext, "dist"), { recursive: true });
const bin = path.join(ext, "bin");
const made = [];
for (const t of selected) {
  fs.rmSync(bin, { recursive: true, force: true });
  fs.mkdirSync(bin);
  const exe = path.join(bin, t.goos === "windows" ? "command-safety.exe" : "command-safety");
  const started = Date.now();
  run("go", ["build", "-trimpath", "-ldflags=-s -w", "-o", exe, "./cmd/command-safety"], {
    cwd: root,
    env: { ...process.env, CGO_ENABLED: "0", GOOS: t.goos, GOARCH: t.goarch },
  });
  fs.chmodSync(exe, 0o755);
  if (t.goos !== "windows") {
    // The agents' pre-command hook without SQLite, the server or the
    // OpenTelemetry SDK (issue 17); `hook install` writes it when it is
    // beside command-safety. Windows has no journal (flock): its hooks are
    // command-safety's.
    const hook = path.join(bin, "command-safety-hook");
    run("go", ["build", "-trimpath", "-ldflags=-s -w", "-o", hook, "./cmd/command-safety-hook"], {
      cwd: root,
      env: { ...process.env, CGO_ENABLED: "0", GOOS: t.goos, GOARCH: t.goarch },
    });
    fs.chmodSync(hook, 0o755);
  }
  const out = path.join(ext, "dist", `${pkg.name}-${t.vsce}-${pkg.version}.vsix`);
  // --skip-license: the license is stated in README.md; prepublish already ran (tsc above).
  run(process.execPath, [path.join(ext, "node_modules", "@vscode", "vsce", "vsce"), "package",
    "--target", t.vsce, "--out", out, "--skip-license", "--allow-missing-repository"], {
    cwd: ext,
    env: { ...process.env, npm_config_ignore_scripts: "false" },
  });
  made.push(out);
  console.log(`package: ${t.vsce} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
// Leave bin/ holding the current platform's server, for running from source.
const local = targets.find((x) => x.vsce === `${process.platform}-${process.arch}`);
if (local && selected.length > 1) {
  fs.rmSync(bin, { recursive: true, force: true });
  fs.mkdirSync(bin);
  run("go", ["build", "-o", path.join(bin, local.goos === "windows" ? "command-safety.exe" : "command-safety"), "./cmd/command-safety"], {
    cwd: root, env: { ...process.env, CGO_ENABLED: "0" },
  });
  if (local.goos !== "windows") {
    run("go", ["build", "-o", path.join(bin, "command-safety-hook"), "./cmd/command-safety-hook"], {
      cwd: root, env: { ...process.env, CGO_ENABLED: "0" },
    });
  }
}
for (const m of made) console.log(`package: ${path.relative(ext, m)}`);
