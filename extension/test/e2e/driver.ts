// The e2e driver: starts code-server with the packaged .vsix installed, opens
// the workbench in headless Chromium (playwright-core) with a payload that
// runs runner.ts inside VS Code's extension host (through the host extension
// in test/e2e/host), answers the dialogs the
// runner provokes (always with Cancel), takes the README screenshots, checks
// the output channel's log file, and exits non-zero unless every check
// passed. Every wait is bounded; everything code-server writes goes under
// $CS_E2E_DIR (HOME and XDG_* point there).
//
// Env: CS_E2E_DIR (a fresh temp dir), CS_E2E_CODE_SERVER (its bin),
// CS_E2E_VSIX, CS_E2E_CHROMIUM (default /usr/bin/chromium), CS_E2E_DOCS
// (where screenshots go; unset: none), CS_E2E_TIMEOUT_S (default 300).

import { spawn, spawnSync, ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as path from "node:path";
import { chromium, Browser, Page } from "playwright-core";
import { Check, Progress } from "./protocol";

const env = (k: string, def?: string): string => {
  const v = process.env[k] ?? def;
  if (!v) throw new Error(`${k} is not set`);
  return v;
};
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => {
      const a = s.address();
      s.close(() => (typeof a === "object" && a ? resolve(a.port) : reject(new Error("no port"))));
    });
  });
}

async function waitHttp(url: string, ms: number): Promise<void> {
  const t0 = Date.now();
  while (Date.now() - t0 < ms) {
    try {
      const r = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (r.ok) return;
    } catch (_e) {
      // not yet
    }
    await sleep(250);
  }
  throw new Error(`${url} not up within ${ms} ms`);
}

function findFiles(dir: string, name: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch (_e) {
      return;
    }
    for (const e of entries) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name === name) out.push(p);
    }
  };
  walk(dir);
  return out;
}

// runCommand runs a command by its exact palette title, checking that the
// first entry is that command (the palette also offers "similar commands").
async function runCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press("Escape");
  await page.keyboard.press("F1");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor({ state: "visible", timeout: 10_000 });
  await input.fill(">" + title);
  await sleep(700);
  const first = (await page.locator(".quick-input-list .monaco-list-row").first().innerText({ timeout: 5000 })).replace(/\u00a0/g, " ");
  if (!first.includes(title)) throw new Error(`first palette entry for ${title} is ${JSON.stringify(first)}`);
  await page.keyboard.press("Enter");
}

// showOutput opens the channel through the extension's Show Log command,
// maximizes the panel and takes the README screenshot.
async function showOutput(page: Page, docs: string | undefined): Promise<void> {
  await runCommand(page, "ML.ai Command Safety: Show Log");
  await page.locator(".output-view, .panel .monaco-editor").first().waitFor({ state: "visible", timeout: 10_000 });
  await runCommand(page, "View: Toggle Maximized Panel");
  await sleep(1500);
  if (docs) await page.screenshot({ path: path.join(docs, "extension-output.png") });
  await runCommand(page, "View: Toggle Maximized Panel");
}

async function main(): Promise<number> {
  const started = Date.now();
  const dir = env("CS_E2E_DIR");
  const codeServer = env("CS_E2E_CODE_SERVER");
  const vsix = env("CS_E2E_VSIX");
  const chromiumPath = env("CS_E2E_CHROMIUM", "/usr/bin/chromium");
  const docs = process.env.CS_E2E_DOCS;
  const deadline = started + Number(env("CS_E2E_TIMEOUT_S", "300")) * 1000;

  const home = path.join(dir, "home");
  // code-server's default user data dir (${XDG_DATA_HOME}/code-server), where
  // hooks, which read the user settings from disk, find them too.
  const ud = path.join(home, ".local", "share", "code-server");
  const extDir = path.join(dir, "extensions");
  const ws = path.join(dir, "ws");
  const ackDir = path.join(dir, "ack");
  const result = path.join(dir, "result.json");
  for (const d of [home, ud, extDir, ws, ackDir, path.join(ud, "User")]) fs.mkdirSync(d, { recursive: true });
  const userSettings = path.join(ud, "User", "settings.json");
  // The comment must survive every edit of the file (rules add, the API).
  fs.writeFileSync(userSettings, "// e2e: a comment rules add must keep\n" + JSON.stringify({
    "workbench.startupEditor": "none",
    "workbench.tips.enabled": false,
    "security.workspace.trust.enabled": false,
    "extensions.ignoreRecommendations": true,
    "telemetry.telemetryLevel": "off",
    "window.commandCenter": false,
  }, null, 2));
  fs.writeFileSync(path.join(ws, "README.md"), "# e2e workspace\n");
  spawnSync("git", ["init", "-q", ws]);

  const childEnv: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    LANG: "C.UTF-8",
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, ".config"),
    XDG_DATA_HOME: path.join(home, ".local", "share"),
    XDG_CACHE_HOME: path.join(home, ".cache"),
    XDG_STATE_HOME: path.join(home, ".local", "state"),
    CS_E2E_RESULT: result,
    CS_E2E_ACK: ackDir,
    CS_E2E_WS: ws,
    CS_E2E_USER_SETTINGS: userSettings,
    CS_E2E_EXTDIR: extDir,
    CS_E2E_RUNNER: path.resolve(__dirname, "runner.js"),
    // Defence in depth: were a prompted `npm install x` ever approved, npm
    // could not reach a registry.
    npm_config_offline: "true",
    npm_config_registry: "http://127.0.0.1:9/",
  };

  const checks: Check[] = [];
  const add = (name: string, ok: boolean, detail: string, ms = 0): void => {
    checks.push({ name, ok, detail, ms });
  };

  let t = Date.now();
  const inst = spawnSync(codeServer, ["--user-data-dir", ud, "--extensions-dir", extDir, "--install-extension", vsix], {
    env: childEnv, encoding: "utf8", timeout: 120_000,
  });
  add("the .vsix installs into code-server", inst.status === 0 && fs.readdirSync(extDir).some((d) => d.startsWith("ml-ai.command-safety-")),
    (inst.stdout + inst.stderr).trim().split("\n").slice(-2).join(" | "), Date.now() - t);

  const port = await freePort();
  const config = path.join(dir, "config.yaml");
  fs.writeFileSync(config, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  const log = fs.openSync(path.join(dir, "code-server.log"), "w");
  let server: ChildProcess | undefined;
  let browser: Browser | undefined;
  let page: Page | undefined;
  try {
    t = Date.now();
    server = spawn(codeServer, ["--config", config, "--bind-addr", `127.0.0.1:${port}`, "--auth", "none", "--disable-telemetry",
      "--disable-update-check", "--disable-workspace-trust", "--user-data-dir", ud, "--extensions-dir", extDir, ws], {
      env: childEnv, stdio: ["ignore", log, log],
    });
    await waitHttp(`http://127.0.0.1:${port}/healthz`, 60_000);
    const serverUp = Date.now() - t;

    browser = await chromium.launch({
      executablePath: chromiumPath, headless: true, timeout: 60_000,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic"],
    });
    page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
    const remote = (p: string): string => `vscode-remote://127.0.0.1:${port}${p}`;
    // The host extension runs runner.js ($CS_E2E_RUNNER) on startup. Not
    // extensionTestsPath: in test mode VS Code auto-confirms dialogs.
    const payload = [["extensionDevelopmentPath", remote(path.resolve(__dirname, "../../../test/e2e/host"))]];
    const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(ws)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    t = Date.now();
    await page.goto(url, { timeout: 60_000 });
    await page.waitForSelector(".monaco-workbench", { timeout: 60_000 });
    add("code-server and the workbench come up", true, `server ${serverUp} ms, workbench ${Date.now() - t} ms`);

    // The offer to gate Copilot's own terminal tool: a notification, once;
    // Install runs the bundled binary's `hook install vscode --user` (HOME is
    // the temp dir) and writes the VS Code agent hook file.
    t = Date.now();
    const hookFile = path.join(home, ".copilot", "hooks", "command-safety.json");
    let offered = "";
    try {
      const toast = page.locator(".notification-toast", { hasText: "Gate Copilot's own terminal tool?" }).first();
      await toast.waitFor({ state: "visible", timeout: 30_000 });
      offered = (await toast.innerText()).replace(/\u00a0/g, " ").replace(/\s+/g, " ");
      await toast.getByRole("button", { name: "Install" }).click({ timeout: 5000 });
      const t1 = Date.now();
      while (Date.now() - t1 < 15_000 && !(fs.existsSync(hookFile) && fs.readFileSync(hookFile, "utf8").includes(" hook vscode"))) await sleep(200);
    } catch (e) {
      offered = `(no offer: ${e instanceof Error ? e.message.split("\n")[0] : e})`;
    }
    const installed = fs.existsSync(hookFile) ? fs.readFileSync(hookFile, "utf8") : "";
    add("the offer to gate Copilot's terminal tool installs the VS Code agent hook on Install",
      offered.includes("Install") && offered.includes("Never") && installed.includes('"preToolUse"') && installed.includes(" hook vscode --event=preToolUse --limit=") && installed.includes("\"postToolUse\""),
      `${offered.slice(0, 160)} | ${installed ? hookFile : "no hook file"}`, Date.now() - t);

    // Poll the runner; answer dialogs.
    const handled = new Set<string>();
    let progress: Progress | undefined;
    for (;;) {
      if (Date.now() > deadline) throw new Error("the runner did not finish in time");
      try {
        progress = JSON.parse(fs.readFileSync(result, "utf8")) as Progress;
      } catch (_e) {
        progress = undefined;
      }
      const dialog = page.locator(".monaco-dialog-box");
      if (progress?.awaitingDialog && !handled.has(progress.awaitingDialog.name)) {
        const { name } = progress.awaitingDialog;
        let text = "";
        try {
          await dialog.first().waitFor({ state: "visible", timeout: 15_000 });
          await sleep(300);
          text = (await dialog.first().innerText()).replace(/\u00a0/g, " ");
          if (docs && name === "tool-npm-install") await page.screenshot({ path: path.join(docs, "extension-prompt.png") });
          if (name === "gate-teach") {
            // "Allow `PROGRAM SUBCOMMAND` from now on", then the modal that
            // confirms what the rule lets run: Add rule.
            await dialog.first().getByRole("button", { name: /from now on/ }).click({ timeout: 5000 });
            const confirm = page.locator(".monaco-dialog-box", { hasText: "Add rule" }).first();
            await confirm.waitFor({ state: "visible", timeout: 15_000 });
            await sleep(300);
            text += " || " + (await confirm.innerText()).replace(/\u00a0/g, " ");
            await confirm.getByRole("button", { name: "Add rule" }).click({ timeout: 5000 });
          } else {
            await dialog.first().getByRole("button", { name: "Cancel" }).click({ timeout: 5000 });
          }
        } catch (e) {
          text = `(no dialog: ${e instanceof Error ? e.message.split("\n")[0] : e})`;
        }
        handled.add(name);
        fs.writeFileSync(path.join(ackDir, `${name}.json`), JSON.stringify({ text }));
      } else if (!progress?.awaitingDialog && (await dialog.count()) > 0 && (await dialog.first().isVisible())) {
        // A dialog nobody expects (the tool asked for `ls`?): never approve.
        const text = (await dialog.first().innerText()).replace(/\u00a0/g, " ");
        add("no unexpected dialog", false, text);
        await page.keyboard.press("Escape");
      }
      if (progress?.request && !handled.has(progress.request)) {
        const name = progress.request;
        handled.add(name);
        let text = "";
        try {
          if (name.startsWith("statusbar-")) {
            await sleep(300);
            text = (await page.locator(".statusbar").innerText({ timeout: 5000 })).replace(/\u00a0/g, " ");
          } else if (name === "classify-command") {
            await runCommand(page, "ML.ai Command Safety: Classify a Command…");
            const input = page.locator(".quick-input-widget input");
            await input.waitFor({ state: "visible", timeout: 10_000 });
            await input.fill("npm install x");
            await page.keyboard.press("Enter");
            const toast = page.locator(".notification-toast", { hasText: "npm install x" }).first();
            await toast.waitFor({ state: "visible", timeout: 10_000 });
            text = (await toast.innerText()).replace(/\u00a0/g, " ");
            await page.keyboard.press("Escape");
          } else if (name === "held-approve") {
            // The notification for a held command: press its Approve button.
            const toast = page.locator(".notification-toast", { hasText: "npm install left-pad" }).first();
            await toast.waitFor({ state: "visible", timeout: 15_000 });
            text = (await toast.innerText()).replace(/\u00a0/g, " ");
            await toast.getByRole("button", { name: "Approve" }).click({ timeout: 5000 });
          } else if (name === "held-teach") {
            // The held command's notification: Allow ... from now on, then
            // the modal that confirms what the rule lets run: Add rule.
            const toast = page.locator(".notification-toast", { hasText: "e2e-held-tool scan" }).first();
            await toast.waitFor({ state: "visible", timeout: 15_000 });
            text = (await toast.innerText()).replace(/\u00a0/g, " ");
            await toast.getByRole("button", { name: /from now on/ }).click({ timeout: 5000 });
            const confirm = page.locator(".monaco-dialog-box", { hasText: "Add rule" }).first();
            await confirm.waitFor({ state: "visible", timeout: 15_000 });
            await sleep(300);
            text += " || " + (await confirm.innerText()).replace(/\u00a0/g, " ");
            await confirm.getByRole("button", { name: "Add rule" }).click({ timeout: 5000 });
          } else if (name === "screenshot-output") {
            await showOutput(page, docs);
            text = "ok";
          }
        } catch (e) {
          text = `(failed: ${e instanceof Error ? e.message.split("\n")[0] : e})`;
          add(name, false, text);
        }
        fs.writeFileSync(path.join(ackDir, `${name}.json`), JSON.stringify({ text }));
      }
      if (progress?.done) break;
      await sleep(250);
    }
    for (const c of progress.checks) checks.push(c);
    if (progress.error) add("runner finished without an exception", false, progress.error);

    // The output channel's log file: one line per verdict.
    t = Date.now();
    const want = progress.serverVerdicts;
    let detail = "";
    const ok = await (async () => {
      while (Date.now() - t < 5000) {
        const files = findFiles(path.join(ud, "logs"), "ML.ai Command Safety.log").filter((f) => f.includes("ml-ai.command-safety"));
        if (files.length === 1) {
          const lines = fs.readFileSync(files[0] as string, "utf8").split("\n");
          const verdictLines = lines.filter((l) => / (ALLOW|PROMPT|REFUSE) agent=/.test(l));
          const miss: string[] = [];
          const counts = new Map<string, number>();
          for (const v of want) counts.set(`${v.decision.toUpperCase()} ${JSON.stringify(v.command)}`, (counts.get(`${v.decision.toUpperCase()} ${JSON.stringify(v.command)}`) ?? 0) + 1);
          for (const [k, n] of counts) {
            const [dec, cmd] = [k.slice(0, k.indexOf(" ")), k.slice(k.indexOf(" ") + 1)];
            const got = verdictLines.filter((l) => l.includes(` ${dec} agent=`) && l.includes(` ${cmd} — `)).length;
            if (got !== n) miss.push(`${k}: ${got} lines, want ${n}`);
          }
          detail = `${verdictLines.length} verdict lines for ${want.length} verdicts; ${path.relative(ud, files[0] as string)}`;
          if (miss.length === 0 && verdictLines.length === want.length) return true;
          detail += `; ${miss.join("; ")}`;
        } else {
          detail = `found ${files.length} channel log files`;
        }
        await sleep(250);
      }
      return false;
    })();
    add("the output channel's log file has one line per verdict", ok, detail, Date.now() - t);

  } catch (e) {
    add("driver", false, e instanceof Error ? e.message : String(e));
    if (page && docs) await page.screenshot({ path: path.join(dir, "failure.png") }).catch(() => undefined);
  } finally {
    fs.writeFileSync(path.join(ackDir, "finished"), "");
    await sleep(300);
    await browser?.close().catch(() => undefined);
    if (server?.pid !== undefined && server.exitCode === null) {
      server.kill("SIGTERM");
      const t0 = Date.now();
      while (server.exitCode === null && server.signalCode === null && Date.now() - t0 < 5000) await sleep(100);
      if (server.exitCode === null && server.signalCode === null) server.kill("SIGKILL");
    }
    fs.closeSync(log);
  }

  let failed = 0;
  for (const c of checks) {
    if (!c.ok) failed++;
    console.log(`${c.ok ? "ok  " : "FAIL"} ${c.name}${c.ms ? ` (${c.ms} ms)` : ""}\n     ${c.detail}`);
  }
  console.log(`e2e: ${((Date.now() - started) / 1000).toFixed(1)} s; logs in ${dir}`);
  console.log(`${checks.length - failed} passed, ${failed} failed`);
  return failed === 0 && checks.length > 0 ? 0 : 1;
}

main().then((code) => process.exit(code), (e) => {
  console.error(e);
  process.exit(1);
});
