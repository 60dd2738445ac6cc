// The end-to-end checks that run inside a real VS Code (code-server), loaded
// by the e2e host extension (test/e2e/host) on startup. They use the extension installed from the
// packaged .vsix, through its exported API and the language-model tool API,
// and write their progress to $CS_E2E_RESULT for the driver (driver.ts) to
// poll. Every wait is bounded. Nothing dangerous runs: `rm -rf ~` is refused
// before any run, the tool's prompted commands are cancelled by the driver,
// and HOME is a temporary directory.

import * as childProcess from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { Check, Progress } from "./protocol";

interface Verdict {
  decision: string;
  teach?: { program: string; subcommand?: string; example: string };
  rule: string;
  reason: string;
  command: string;
  classificationEnabled: boolean;
  failedClosed?: boolean;
  decidedBy: { text: string; effect: string } | null;
}
interface API {
  classify(command: string, opts?: { cwd?: string; agent?: string; mode?: string }): Promise<Verdict>;
  gate(command: string, opts?: { cwd?: string; agent?: string; mode?: string }): Promise<boolean>;
  state(): string;
}

const env = (k: string): string => {
  const v = process.env[k];
  if (!v) throw new Error(`${k} is not set`);
  return v;
};

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function within<T>(p: Promise<T> | Thenable<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
    Promise.resolve(p).then((v) => { clearTimeout(t); resolve(v); }, (e) => { clearTimeout(t); reject(e); });
  });
}

async function waitFor(cond: () => boolean | Promise<boolean>, ms: number, what: string, every = 50): Promise<number> {
  const t0 = Date.now();
  for (;;) {
    if (await cond()) return Date.now() - t0;
    if (Date.now() - t0 > ms) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(every);
  }
}

function expect(cond: unknown, msg: string): asserts cond {
  if (!cond) throw new Error(msg);
}

/** serverPids lists the command-safety serve processes that are children of this extension host. */
function serverPids(): number[] {
  const out: number[] = [];
  for (const d of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid !== process.pid) continue;
      const cmd = fs.readFileSync(`/proc/${d}/cmdline`, "utf8").split("\0");
      if (path.basename(cmd[0] ?? "") === "command-safety" && cmd[1] === "serve") out.push(Number(d));
    } catch (_e) {
      // gone meanwhile
    }
  }
  return out;
}

/** channelText is the output channel's log file(s) under the user data dir of $CS_E2E_USER_SETTINGS. */
function channelText(): string {
  const logs = path.join(path.dirname(path.dirname(env("CS_E2E_USER_SETTINGS"))), "logs");
  let text = "";
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
      else if (e.name === "ML.ai Command Safety.log" && p.includes("ml-ai.command-safety")) text += fs.readFileSync(p, "utf8");
    }
  };
  walk(logs);
  return text;
}

function toolText(r: vscode.LanguageModelToolResult): string {
  return r.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : "")).join("");
}

export async function run(): Promise<void> {
  const resultPath = env("CS_E2E_RESULT");
  const ackDir = env("CS_E2E_ACK");
  const ws = env("CS_E2E_WS");
  const userSettings = env("CS_E2E_USER_SETTINGS");
  const extDir = env("CS_E2E_EXTDIR");
  const progress: Progress = { checks: [], done: false, serverVerdicts: [] };
  const save = (): void => {
    fs.writeFileSync(resultPath + ".tmp", JSON.stringify(progress, null, 2));
    fs.renameSync(resultPath + ".tmp", resultPath);
  };
  const check = async (name: string, fn: () => Promise<string>): Promise<boolean> => {
    const t0 = Date.now();
    let c: Check;
    try {
      c = { name, ok: true, detail: await fn(), ms: Date.now() - t0 };
    } catch (e) {
      c = { name, ok: false, detail: e instanceof Error ? e.message : String(e), ms: Date.now() - t0 };
    }
    progress.checks.push(c);
    save();
    return c.ok;
  };
  // The driver answers a dialog by writing ack/<name>.json with the dialog's text.
  const dialogSeen = async (name: string, expectText: string, act: () => Thenable<unknown>): Promise<{ text: string; result: unknown; error?: string }> => {
    progress.awaitingDialog = { name, expect: expectText };
    save();
    let result: unknown;
    let error: string | undefined;
    try {
      result = await within(act(), 45_000, name);
    } catch (e) {
      error = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    }
    delete progress.awaitingDialog;
    save();
    const ack = path.join(ackDir, `${name}.json`);
    await waitFor(() => fs.existsSync(ack), 10_000, `the driver's answer for ${name}`, 100);
    const text = (JSON.parse(fs.readFileSync(ack, "utf8")) as { text: string }).text;
    return error === undefined ? { text, result } : { text, result, error };
  };

  // Ask the driver for something and wait for its answer (bounded).
  const askDriver = async (name: string): Promise<string> => {
    progress.request = name;
    save();
    const ack = path.join(ackDir, `${name}.json`);
    await waitFor(() => fs.existsSync(ack), 30_000, `the driver's answer for ${name}`, 100);
    delete progress.request;
    save();
    return (JSON.parse(fs.readFileSync(ack, "utf8")) as { text: string }).text;
  };

  let api: API | undefined;
  const classify = async (command: string): Promise<Verdict> => {
    expect(api, "no API");
    const v = await within(api.classify(command), 10_000, `classify ${command}`);
    // Every verdict, the extension's fail-closed ones included, is one channel line.
    progress.serverVerdicts.push({ command, decision: v.decision });
    return v;
  };
  const cfg = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration("ml-ai");

  try {
    save();
    const up = await check("activates from the installed .vsix and starts the real server", async () => {
      const ext = vscode.extensions.getExtension<API>("ml-ai.command-safety");
      expect(ext, "ml-ai.command-safety is not installed");
      expect(ext.extensionPath.startsWith(extDir), `loaded from ${ext.extensionPath}, not from the extensions dir ${extDir}`);
      api = await within(ext.activate(), 30_000, "activate");
      const a = api;
      const ms = await waitFor(() => a.state() === "running", 30_000, "server running");
      const pids = serverPids();
      expect(pids.length === 1, `want one command-safety serve child of the extension host, got ${JSON.stringify(pids)}`);
      const exe = fs.readlinkSync(`/proc/${pids[0]}/exe`);
      expect(exe.startsWith(extDir), `server binary ${exe} is not the bundled one`);
      return `running ${ms} ms after activate; pid ${pids[0]}; ${exe}`;
    });
    if (!up) return;

    await check("classify through the API returns the right verdicts", async () => {
      const want: [string, string][] = [["ls", "allow"], ["git status", "allow"], ["npm install x", "prompt"], ["rm -rf ~", "refuse"]];
      const got: string[] = [];
      for (const [c, d] of want) {
        const v = await classify(c);
        got.push(`${c} → ${v.decision} (${v.rule})`);
        expect(v.decision === d, `${c}: got ${v.decision} (${v.rule}: ${v.reason}), want ${d}`);
        expect(v.reason.length > 0, `${c}: no reason`);
      }
      return got.join("; ");
    });

    await check("ml-ai.commandSafety: false in the user settings.json turns git status into prompt within 1 s, and back", async () => {
      await cfg().update("commandSafety", false, vscode.ConfigurationTarget.Global);
      const onDisk = fs.readFileSync(userSettings, "utf8");
      expect(/"ml-ai\.commandSafety"\s*:\s*false/.test(onDisk), `user settings.json does not say false: ${onDisk}`);
      let last: Verdict | undefined;
      const off = await waitFor(async () => (last = await classify("git status")).decision === "prompt", 1000, "git status → prompt");
      expect(last?.classificationEnabled === false, "classificationEnabled is still true");
      const rm = await classify("rm -rf ~");
      expect(rm.decision === "refuse", `rm -rf ~ with the gate off: ${rm.decision}, want refuse`);
      await cfg().update("commandSafety", undefined, vscode.ConfigurationTarget.Global);
      const on = await waitFor(async () => (await classify("git status")).decision === "allow", 1000, "git status → allow");
      return `off in ${off} ms (rule ${last?.rule}); rm -rf ~ still refused; on again in ${on} ms`;
    });

    await check("a workspace can turn ml-ai.commandSafety off within 1 s, but not back on over the user's false", async () => {
      const W = vscode.ConfigurationTarget.Workspace;
      const G = vscode.ConfigurationTarget.Global;
      await cfg().update("commandSafety", false, W);
      const wsFile = fs.readFileSync(path.join(ws, ".vscode", "settings.json"), "utf8");
      expect(/"ml-ai\.commandSafety"\s*:\s*false/.test(wsFile), `workspace settings.json: ${wsFile}`);
      const off = await waitFor(async () => (await classify("git status")).decision === "prompt", 1000, "workspace false: git status → prompt");
      await cfg().update("commandSafety", true, W);
      const on = await waitFor(async () => (await classify("git status")).decision === "allow", 1000, "workspace true: git status → allow");
      await cfg().update("commandSafety", false, G);
      await waitFor(async () => (await classify("git status")).decision === "prompt", 1000, "user false: git status → prompt");
      const t0 = Date.now();
      while (Date.now() - t0 < 1000) {
        const v = await classify("git status");
        expect(v.decision === "prompt", `user false, workspace true: git status → ${v.decision}`);
        await sleep(100);
      }
      await cfg().update("commandSafety", undefined, G);
      await cfg().update("commandSafety", undefined, W);
      const back = await waitFor(async () => (await classify("git status")).decision === "allow", 1000, "both unset: git status → allow");
      return `workspace off in ${off} ms, on in ${on} ms; workspace true did not undo user false for 1 s; defaults back in ${back} ms`;
    });

    await check("the Toggle Command Safety command flips the user setting, and the status bar follows", async () => {
      await within(vscode.commands.executeCommand("ml-ai.commandSafety.toggle"), 10_000, "toggle");
      expect(cfg().inspect<boolean>("commandSafety")?.globalValue === false, "user setting not false after toggle");
      const off = await waitFor(async () => (await classify("git status")).decision === "prompt", 1000, "toggle off: git status → prompt");
      const bar = await askDriver("statusbar-off");
      expect(bar.includes("Safety: off"), `status bar: ${JSON.stringify(bar)}`);
      await within(vscode.commands.executeCommand("ml-ai.commandSafety.toggle"), 10_000, "toggle");
      expect(cfg().inspect<boolean>("commandSafety")?.globalValue === true, "user setting not true after the second toggle");
      const on = await waitFor(async () => (await classify("git status")).decision === "allow", 1000, "toggle on: git status → allow");
      await cfg().update("commandSafety", undefined, vscode.ConfigurationTarget.Global);
      return `off in ${off} ms (status bar ${JSON.stringify(bar)}), on in ${on} ms`;
    });

    await check("the Classify a Command… command shows the verdict with its reason", async () => {
      const text = await askDriver("classify-command");
      progress.serverVerdicts.push({ command: "npm install x", decision: "prompt" });
      expect(text.includes("PROMPT: npm install x") && text.includes("asks a human for network"), `notification: ${JSON.stringify(text)}`);
      return JSON.stringify(text.slice(0, 160));
    });

    await check("LM tool: ls runs with no confirmation", async () => {
      fs.writeFileSync(path.join(ws, "hello-e2e.txt"), "hi\n");
      const r = await within(vscode.lm.invokeTool("ml-ai_runCommand", { input: { command: "ls" }, toolInvocationToken: undefined }), 15_000, "invokeTool ls");
      progress.serverVerdicts.push({ command: "ls", decision: "allow" });
      const text = toolText(r);
      expect(text.includes("Exit code: 0") && text.includes("hello-e2e.txt"), `unexpected result: ${text}`);
      return JSON.stringify(text.slice(0, 120));
    });

    await check("LM tool: npm install x asks for confirmation with the command text (cancelled)", async () => {
      const seen = await dialogSeen("tool-npm-install", "npm install x", () =>
        vscode.lm.invokeTool("ml-ai_runCommand", { input: { command: "npm install x", explanation: "e2e: must be cancelled" }, toolInvocationToken: undefined }));
      progress.serverVerdicts.push({ command: "npm install x", decision: "prompt" });
      expect(seen.text.includes("npm install x"), `dialog without the command text: ${JSON.stringify(seen.text)}`);
      expect(/Reason/.test(seen.text), `dialog without a reason: ${JSON.stringify(seen.text)}`);
      expect(seen.error !== undefined && /cancel/i.test(seen.error), `a cancelled confirmation must not run the command: ${seen.error ?? JSON.stringify(seen.result)}`);
      return `dialog: ${JSON.stringify(seen.text.slice(0, 200))}; then ${seen.error}`;
    });

    await check("LM tool: rm -rf ~ fails with the reason", async () => {
      const v = await classify("rm -rf ~");
      let err = "";
      try {
        await within(vscode.lm.invokeTool("ml-ai_runCommand", { input: { command: "rm -rf ~" }, toolInvocationToken: undefined }), 15_000, "invokeTool rm");
      } catch (e) {
        err = e instanceof Error ? e.message : String(e);
      }
      progress.serverVerdicts.push({ command: "rm -rf ~", decision: "refuse" });
      expect(err.includes("refused") && err.includes(v.reason), `want an error with the reason ${JSON.stringify(v.reason)}, got ${JSON.stringify(err)}`);
      expect(fs.existsSync(userSettings), "HOME-side files must still exist");
      return err;
    });

    await check("gate(): ls true, rm -rf ~ false, npm install x asks with a modal (cancelled → false)", async () => {
      expect(api, "no API");
      const a = api;
      expect((await within(a.gate("ls"), 10_000, "gate ls")) === true, "gate(ls) is not true");
      expect((await within(a.gate("rm -rf ~"), 10_000, "gate rm")) === false, "gate(rm -rf ~) is not false");
      const seen = await dialogSeen("gate-npm-install", "npm install x", () => a.gate("npm install x"));
      expect(seen.result === false, `gate(npm install x) after cancel: ${JSON.stringify(seen.result)} ${seen.error ?? ""}`);
      expect(seen.text.includes("npm install x") && seen.text.includes("Reason:"), `modal text: ${JSON.stringify(seen.text)}`);
      progress.serverVerdicts.push({ command: "ls", decision: "allow" }, { command: "rm -rf ~", decision: "refuse" }, { command: "npm install x", decision: "prompt" });
      return "ok";
    });

    await check("Allow `e2e-acme report` from now on: the prompt offers it, a second modal confirms, rules add writes the user settings (comments kept), and the next identical command is allowed without a prompt", async () => {
      expect(api, "no API");
      const a = api;
      const cmd = "e2e-acme report"; // a program the table does not know: gate() only asks, nothing runs
      const before = await classify(cmd);
      expect(before.decision === "prompt" && before.teach?.program === "e2e-acme" && before.teach.subcommand === "report",
        `${cmd}: ${before.decision} (${before.rule}), teach ${JSON.stringify(before.teach)}`);
      const seen = await dialogSeen("gate-teach", cmd, () => a.gate(cmd));
      progress.serverVerdicts.push({ command: cmd, decision: "prompt" });
      expect(seen.result === true, `gate(${cmd}) after Allow from now on: ${JSON.stringify(seen.result)} ${seen.error ?? ""}; dialogs: ${seen.text}`);
      expect(seen.text.includes("Allow `e2e-acme report` from now on") && seen.text.includes("Add rule"), `dialogs: ${JSON.stringify(seen.text)}`);
      // Not VS Code desktop's file, which this code-server never reads.
      const desktop = path.join(env("HOME"), ".config", "Code", "User", "settings.json");
      expect(!fs.existsSync(desktop), `rules add wrote ${desktop}, not the settings of this editor (${userSettings}):\n${fs.existsSync(desktop) ? fs.readFileSync(desktop, "utf8") : ""}`);
      const onDisk = fs.readFileSync(userSettings, "utf8");
      expect(onDisk.includes("// e2e: a comment rules add must keep"), `the comment is gone from ${userSettings}:\n${onDisk}`);
      expect(/"ml-ai\.rules"/.test(onDisk) && onDisk.includes('"e2e-acme"') && onDisk.includes('"report"'), `no rule in ${userSettings}:\n${onDisk}`);
      let last: Verdict | undefined;
      const ms = await waitFor(async () => (last = await classify(cmd)).decision === "allow", 5000, `${cmd} → allow after the rule`, 250)
        .catch((e: unknown) => { throw new Error(`${e instanceof Error ? e.message : e}: last ${last?.decision} (${last?.rule}: ${last?.reason})`); });
      expect(last?.rule === "user:e2e-acme" || /user:e2e-acme/.test(JSON.stringify(last)), `allowed, but not by the user rule: ${JSON.stringify(last)}`);
      // gate() allows it now without any dialog (the driver fails on an unexpected one).
      expect((await within(a.gate(cmd), 10_000, `gate ${cmd}`)) === true, `gate(${cmd}) is not true`);
      progress.serverVerdicts.push({ command: cmd, decision: "allow" });
      return `allowed ${ms} ms after the rule (${last?.rule}); dialogs: ${JSON.stringify(seen.text.slice(0, 240))}`;
    });

    await check("a hook in hold mode is released from VS Code: its notification's Approve lets it run", async () => {
      const ext = vscode.extensions.getExtension("ml-ai.command-safety");
      expect(ext, "the extension is not installed");
      const bin = path.join(ext.extensionPath, "bin", process.platform === "win32" ? "command-safety.exe" : "command-safety");
      // The same HOME as the server: the hook writes the same decision log.
      const hook = childProcess.spawn(bin, ["hook", "claude-code", "--hold=60s"], { cwd: ws, env: process.env });
      let out = "";
      hook.stdout.on("data", (b: Buffer) => { out += b.toString(); });
      const exited = new Promise<number | null>((resolve) => hook.on("exit", (code) => resolve(code)));
      hook.stdin.end(JSON.stringify({
        session_id: "held-e2e", cwd: ws, permission_mode: "default", hook_event_name: "PreToolUse",
        tool_name: "Bash", tool_input: { command: "npm install left-pad" },
      }));
      progress.serverVerdicts.push({ command: "npm install left-pad", decision: "prompt" }); // the tail's line
      try {
        await sleep(3000); // the server notices the held row within a second or two
        const bar = await askDriver("statusbar-held");
        expect(bar.includes("1 held"), `status bar: ${JSON.stringify(bar)}`);
        const toast = await askDriver("held-approve");
        expect(toast.includes("npm install left-pad"), `notification: ${JSON.stringify(toast)}`);
        const code = await within(exited, 15_000, "the held hook to answer");
        expect(code === 0 && out.includes('"permissionDecision":"allow"'), `hook exit ${code}: ${out}`);
        return `status bar ${JSON.stringify(bar.slice(0, 60))}; hook: ${out.slice(0, 120)}`;
      } finally {
        hook.kill();
      }
    });

    await check("a held command's notification offers Allow `e2e-held-tool scan` from now on: confirmed, it writes the rule and approves the held hook; the next identical command is allowed", async () => {
      const ext = vscode.extensions.getExtension("ml-ai.command-safety");
      expect(ext, "the extension is not installed");
      const bin = path.join(ext.extensionPath, "bin", process.platform === "win32" ? "command-safety.exe" : "command-safety");
      const cmd = "e2e-held-tool scan"; // unknown program: the hook holds it; nothing runs it
      const hook = childProcess.spawn(bin, ["hook", "claude-code", "--hold=60s"], { cwd: ws, env: process.env });
      let out = "";
      hook.stdout.on("data", (b: Buffer) => { out += b.toString(); });
      const exited = new Promise<number | null>((resolve) => hook.on("exit", (code) => resolve(code)));
      hook.stdin.end(JSON.stringify({
        session_id: "held-teach-e2e", cwd: ws, permission_mode: "default", hook_event_name: "PreToolUse",
        tool_name: "Bash", tool_input: { command: cmd },
      }));
      progress.serverVerdicts.push({ command: cmd, decision: "prompt" }); // the tail's line
      try {
        const text = await askDriver("held-teach");
        expect(text.includes(cmd) && text.includes("Allow `e2e-held-tool scan` from now on") && text.includes("Add rule"), `notification and modal: ${JSON.stringify(text)}`);
        const code = await within(exited, 15_000, "the held hook to answer");
        expect(code === 0 && out.includes('"permissionDecision":"allow"'), `hook exit ${code}: ${out}`);
        const onDisk = fs.readFileSync(userSettings, "utf8");
        expect(onDisk.includes("// e2e: a comment rules add must keep") && onDisk.includes('"e2e-held-tool"') && onDisk.includes('"e2e-acme"'),
          `${userSettings} lacks the comment or a rule:\n${onDisk}`);
        let last: Verdict | undefined;
        const ms = await waitFor(async () => (last = await classify(cmd)).decision === "allow", 5000, `${cmd} → allow after the rule`, 250)
          .catch((e: unknown) => { throw new Error(`${e instanceof Error ? e.message : e}: last ${last?.decision} (${last?.rule}: ${last?.reason})`); });
        // A hook reads the user settings from disk: the same command is
        // allowed at once, without a hold.
        const again = childProcess.spawn(bin, ["hook", "claude-code", "--hold=60s"], { cwd: ws, env: process.env });
        let out2 = "";
        again.stdout.on("data", (b: Buffer) => { out2 += b.toString(); });
        const exited2 = new Promise<number | null>((resolve) => again.on("exit", (c) => resolve(c)));
        again.stdin.end(JSON.stringify({
          session_id: "held-teach-e2e", cwd: ws, permission_mode: "default", hook_event_name: "PreToolUse",
          tool_name: "Bash", tool_input: { command: cmd },
        }));
        progress.serverVerdicts.push({ command: cmd, decision: "allow" }); // the tail's line
        try {
          const code2 = await within(exited2, 10_000, "the second hook to answer without a hold");
          expect(code2 === 0 && out2.includes('"permissionDecision":"allow"') && out2.includes("user:e2e-held-tool"), `second hook exit ${code2}: ${out2}`);
        } finally {
          again.kill();
        }
        // The server's tail shows the hook's row within a tail interval (2 s);
        // the next check kills the server, and a new one does not replay rows.
        await waitFor(() => channelText().includes(`ALLOW agent=claude-code rule=user:e2e-held-tool`), 6000, "the tail's line for the second hook call", 200);
        return `hook: ${out.slice(0, 100)}; allowed ${ms} ms after (${last?.rule}); the next hook call: ${out2.slice(0, 160)}`;
      } finally {
        hook.kill();
      }
    });

    await check("killing the server makes the next command prompt, and the server comes back", async () => {
      expect(api, "no API");
      const a = api;
      const [pid] = serverPids();
      expect(pid, "no server process");
      process.kill(pid, "SIGKILL");
      const v = await classify("ls");
      expect(v.decision === "prompt", `ls right after the kill: ${v.decision} (${v.rule})`);
      const ms = await waitFor(() => a.state() === "running" && serverPids().length === 1 && serverPids()[0] !== pid, 20_000, "server back");
      const back = await classify("ls");
      expect(back.decision === "allow", `ls after the restart: ${back.decision} (${back.rule}: ${back.reason})`);
      return `right after kill: ${v.decision} (${v.rule}); back in ${ms} ms as pid ${serverPids()[0]}; ls → allow`;
    });
    // The README's output screenshot, while the log shows verdicts only.
    await askDriver("screenshot-output").catch(() => undefined);

    await check("after 5 restarts in 3 minutes the server stays down, every command prompts, the status bar says down", async () => {
      expect(api, "no API");
      const a = api;
      const kills: number[] = [];
      // One restart already happened above; kill until the policy gives up.
      for (let i = 0; i < 6 && a.state() !== "down"; i++) {
        await waitFor(() => a.state() === "down" || (a.state() === "running" && serverPids().length === 1), 20_000, `one server before kill ${i + 1}`);
        if (a.state() === "down") break;
        // Kill a server that has answered, not one still in its initialize
        // handshake: vscode-languageclient 11 can start two servers when
        // the process dies mid-handshake (a known gap, see the README).
        await waitFor(async () => !(await classify("ls")).failedClosed, 10_000, `an answer before kill ${i + 1}`);
        const [pid] = serverPids();
        expect(pid, "no server process");
        process.kill(pid, "SIGKILL");
        kills.push(pid);
        // A restart takes ~0.1 s: wait for a new server or for the end.
        await waitFor(() => a.state() === "down" || (a.state() === "running" && serverPids().length === 1 && serverPids()[0] !== pid),
          20_000, `restart or give up after kill ${i + 1}`);
      }
      await waitFor(() => a.state() === "down", 10_000, "state down");
      // One restart happened in the check above: 4 more restarts, and the 6th crash stays down.
      expect(kills.length === 5, `down after ${kills.length} kills here, want 5 (5 restarts allowed in 3 minutes)`);
      await sleep(1500);
      expect(serverPids().length === 0, `a server is running again: ${JSON.stringify(serverPids())}`);
      const v = await classify("ls");
      expect(v.decision === "prompt" && v.failedClosed === true, `ls while down: ${v.decision} (${v.rule})`);
      const r = await classify("rm -rf ~");
      expect(r.decision === "prompt" && /gate is down/.test(r.reason), `rm -rf ~ while down: ${r.decision}: ${r.reason}`);
      const bar = await askDriver("statusbar-down");
      expect(bar.includes("Safety: down"), `status bar: ${JSON.stringify(bar)}`);
      return `killed ${kills.length} more times; down; ls → prompt (${v.rule}); status bar ${JSON.stringify(bar)}`;
    });
  } catch (e) {
    progress.error = e instanceof Error ? e.stack ?? e.message : String(e);
  } finally {
    progress.done = true;
    save();
    // Stay alive while the driver takes its screenshots and reads the log.
    await waitFor(() => fs.existsSync(path.join(ackDir, "finished")), 120_000, "driver finished", 200).catch(() => undefined);
  }
}
