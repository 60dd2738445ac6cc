// Glue between VS Code and `command-safety serve` (SPEC §9). All judgement is
// in the Go binary; the logic the extension has (fail closed, restarts, output
// caps, messages) lives in modules that do not import `vscode`.

import { execFile } from "node:child_process";
import * as fs from "node:fs/promises";
import * as os from "node:os";
import * as readline from "node:readline";
import * as vscode from "vscode";
import {
  CloseAction,
  ErrorAction,
  LanguageClient,
  LanguageClientOptions,
  RevealOutputChannelOn,
  ServerOptions,
  State,
  TransportKind,
} from "vscode-languageclient/node";
import { ConfigSection, HeldCommand, HeldParams, InitializationOptions, Methods, Outcome, ResolveParams, Teachable, Verdict } from "./protocol";
import { SyncWaitMs, TeachCommand, rulesListArgs, rulesOfList, sameJSON, teachArgs, teachButton, teachConfirm, teachLink, teachName, teachableOf, userSettingsFile } from "./teach";
import { HeldTracker, heldMessage, heldStatus } from "./held";
import { GateCore, errorText } from "./state";
import { RestartPolicy } from "./restart";
import { resolveCwd, serverPath } from "./platform";
import { Key, folderSection, section, userSection } from "./config";
import * as format from "./format";
import { Prepared } from "./pending";
import { runCommand, DefaultTimeoutMs } from "./run";
import { HookState, OfferChoice, choiceOf, hookFile, hookState, installArgs, needsRepair, offerButtons, offerText, shouldOffer, statusLine } from "./copilothook";

/** ChannelName is the one output channel (SPEC §7). */
const ChannelName = "ML.ai Command Safety";

/**
 * ToolAgent is the agent name the language-model tool classifies under (its
 * budget in `ml-ai.agentBudgets`): VS Code does not tell a tool which agent
 * calls it, and Copilot agent mode is the one that does.
 */
const ToolAgent = "copilot";

/** ToolShell is the shell the language-model tool runs commands in (run.ts: `bash -c`). */
const ToolShell = "bash";

/** OfferKey stores the human's answer to "Gate Copilot's own terminal tool?". */
const OfferKey = "ml-ai.commandSafety.copilotHookOffer";

/** Options of the exported API's classify and gate. */
export interface ClassifyOptions {
  cwd?: string;
  agent?: string;
  mode?: string;
  /** The shell that runs the command: "bash", "zsh", "sh" or "unknown" (default). */
  shell?: string;
}

/** API is what `activate` returns to other extensions. */
export interface API {
  /** classify returns the verdict for command; while the gate is down, a prompt. */
  classify(command: string, opts?: ClassifyOptions): Promise<Verdict>;
  /** gate returns true to run command, false not to; a prompt asks the human with a modal. */
  gate(command: string, opts?: ClassifyOptions): Promise<boolean>;
  /** state is the server's state: starting, running, restarting, down or stopped. */
  state(): string;
}

/** ToolInput is the input schema of `ml-ai_runCommand` (package.json). */
interface ToolInput {
  command: string;
  cwd?: string;
  explanation?: string;
}

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<API> {
  const channel = vscode.window.createOutputChannel(ChannelName, { log: true });
  context.subscriptions.push(channel);
  const restarts = new RestartPolicy();
  let deactivating = false;
  let gaveUp = false;

  const core = new GateCore(async (params) => {
    if (!client) throw new Error("no client");
    const v: Verdict = await client.sendRequest(Methods.classify, params);
    // The server puts the verdict's log line in the reply (verdictLine below).
    if (v.line) channel[format.lineLevel(v.decision)](v.line);
    return v;
  });

  const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration(ConfigSection);
  const effective = (): Record<string, unknown> =>
    section((k: Key) => config().inspect(k));

  // Status bar: on, off, starting, restarting, down.
  const item = vscode.window.createStatusBarItem("ml-ai.commandSafety.status", vscode.StatusBarAlignment.Left, 100);
  item.name = ChannelName;
  item.command = "ml-ai.commandSafety.showLog";
  context.subscriptions.push(item);
  let enabled = effective().commandSafety === true;
  const held = new HeldTracker();
  // Copilot's own terminal tool is gated by a VS Code agent hook, not by
  // this extension; the status says whether that hook is installed.
  let copilotHook: HookState | undefined;
  const paint = (): void => {
    const s = format.status(core.state, enabled, core.detail);
    item.text = s.text + heldStatus(core.state === "running" ? held.count : 0);
    item.tooltip = copilotHook ? `${s.tooltip}\n\n${statusLine(copilotHook)}` : s.tooltip;
    item.backgroundColor = s.severity === "normal" ? undefined
      : new vscode.ThemeColor(s.severity === "error" ? "statusBarItem.errorBackground" : "statusBarItem.warningBackground");
    item.show();
  };
  context.subscriptions.push({ dispose: core.onDidChange(paint) });
  paint();

  const folders = (): string[] => (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === "file").map((f) => f.uri.fsPath);

  const classify = async (command: string, opts: ClassifyOptions = {}): Promise<Verdict> => {
    const ws = folders();
    const params = {
      command,
      cwd: resolveCwd(opts.cwd, ws),
      workspaceFolders: ws,
      ...(opts.agent !== undefined ? { agent: opts.agent } : {}),
      ...(opts.mode !== undefined ? { mode: opts.mode } : {}),
      ...(opts.shell !== undefined ? { shell: opts.shell } : {}),
    };
    const v = await core.classify(params);
    if (v.failedClosed) channel.warn(format.logLine(v)); // the server logs the others
    else if (v.classificationEnabled !== enabled) {
      enabled = v.classificationEnabled;
      paint();
    }
    return v;
  };

  const resolve = async (v: Verdict, outcome: Outcome, by = reviewer()): Promise<void> => {
    if (!v.logId || !client || core.state !== "running") return;
    const p: ResolveParams = { id: v.logId, outcome, reviewer: by };
    try {
      await client.sendRequest(Methods.resolve, p);
    } catch (err) {
      channel.error(`resolving verdict ${v.logId} as ${outcome} failed: ${errorText(err)}`);
    }
  };

  // "Allow `PROGRAM SUBCOMMAND` from now on": confirm what the rule lets
  // run, then write it with `command-safety rules add` (the binary checks
  // the rule's example and edits the user settings; nothing else does).
  const exec = (args: string[]): Promise<{ err: Error | null; stdout: string; stderr: string }> =>
    new Promise((done) => {
      execFile(binary(), args, { timeout: 30_000, windowsHide: true }, (err, stdout, stderr) => done({ err, stdout, stderr }));
    });
  // The user settings file of this editor (code-server, --user-data-dir,
  // Insiders, Cursor ... each has its own), when globalStorage says it.
  const settingsFile = context.globalStorageUri.scheme === "file" ? userSettingsFile(context.globalStorageUri.fsPath) : undefined;
  const teachRule = async (t: Teachable): Promise<boolean> => {
    const add = "Add rule";
    const pick = await vscode.window.showWarningMessage(
      `Allow \`${teachName(t)}\` from now on?`, { modal: true, detail: teachConfirm(t) }, add);
    if (pick !== add) return false;
    const { err, stdout, stderr } = await exec(teachArgs(t, settingsFile));
    if (err) {
      channel.error(`rules add for ${teachName(t)} failed: ${stderr || errorText(err)}`);
      void vscode.window.showErrorMessage(`Could not add the rule for \`${teachName(t)}\`: ${stderr || errorText(err)}`);
      return false;
    }
    channel.info(`rule added for ${teachName(t)}:\n${stdout}`);
    if (settingsFile) await syncRules(settingsFile);
    return true;
  };
  // VS Code may not have read the file rules add wrote (code-server applies a
  // disk edit of the user settings only after a reload; a remote window's
  // user settings are not on this machine), and the server decides with the
  // settings VS Code hands it: when VS Code's user value differs from the
  // file's, set it through the API, which writes the same rules (comments
  // kept) and tells the server.
  const syncRules = async (file: string): Promise<void> => {
    const listed = await exec(rulesListArgs(file));
    const rules = listed.err ? undefined : rulesOfList(listed.stdout);
    if (!rules) {
      channel.warn(`could not read the rules back from ${file}: ${listed.stderr || (listed.err ? errorText(listed.err) : "unexpected output")}`);
      return;
    }
    const same = (): boolean => sameJSON(config().inspect<unknown[]>("rules")?.globalValue ?? [], rules);
    if (same()) return;
    // VS Code desktop reads the edit within a moment: wait for that rather
    // than rewrite the array (an update through the API drops comments
    // inside the ml-ai.rules value; those around it stay).
    await new Promise<void>((done) => {
      const sub = vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(`${ConfigSection}.rules`) && same()) finish();
      });
      const timer = setTimeout(() => finish(), SyncWaitMs);
      const finish = (): void => {
        clearTimeout(timer);
        sub.dispose();
        done();
      };
    });
    if (same()) return;
    try {
      await config().update("rules", rules, vscode.ConfigurationTarget.Global);
    } catch (e) {
      channel.warn(`could not hand the new rules to VS Code: ${errorText(e)}`);
    }
  };

  const ask = async (v: Verdict): Promise<boolean> => {
    const run = "Run";
    const teach = v.teach && !v.failedClosed ? teachButton(v.teach) : undefined;
    const buttons = teach ? [run, teach] : [run];
    const pick = await vscode.window.showWarningMessage(
      v.failedClosed ? "Run this command? The safety gate is down." : "Run this command?",
      { modal: true, detail: format.modalDetail(v) },
      ...buttons,
    );
    if (teach && pick === teach && v.teach) {
      if (!(await teachRule(v.teach))) {
        const { teach: _offered, ...rest } = v; // ask again, without the offer
        return ask(rest);
      }
    }
    const ok = pick === run || (teach !== undefined && pick === teach);
    await resolve(v, ok ? "approved" : "rejected");
    return ok;
  };

  const gate = async (command: string, opts: ClassifyOptions = {}): Promise<boolean> => {
    const v = await classify(command, opts);
    switch (v.decision) {
      case "allow":
        return true;
      case "prompt":
        return ask(v);
      default:
        return false;
    }
  };

  // A held command: Approve or Reject resolves it (the waiting hook answers
  // within a second); Open Review starts `command-safety review` in a terminal.
  const askHeld = async (c: LanguageClient, exe: string, h: HeldCommand): Promise<void> => {
    const teach = h.teach ? teachButton(h.teach) : undefined;
    const buttons = teach ? ["Approve", "Reject", teach, "Open Review"] : ["Approve", "Reject", "Open Review"];
    let choice = await vscode.window.showWarningMessage(heldMessage(h), ...buttons);
    if (teach && choice === teach && h.teach) {
      choice = (await teachRule(h.teach)) ? "Approve" : undefined;
    }
    if (choice === "Approve" || choice === "Reject") {
      const outcome = choice === "Approve" ? "approved" : "rejected";
      try {
        await c.sendRequest(Methods.resolve, { id: h.logId, outcome, reviewer: os.userInfo().username });
        channel.info(`held command ${h.logId} ${outcome} in VS Code: ${h.command}`);
      } catch (err) {
        channel.warn(`could not resolve held command ${h.logId}: ${errorText(err)}`);
      }
    } else if (choice === "Open Review") {
      const term = vscode.window.createTerminal({ name: "Command Safety review", shellPath: exe, shellArgs: ["review"] });
      term.show();
    }
  };

  // The server.
  const startClient = async (): Promise<void> => {
    const exe = serverPath(config().get<string>("serverPath"), context.extensionPath, process.platform);
    const serverOptions: ServerOptions = { command: exe, args: ["serve"], transport: TransportKind.stdio };
    // API callers that name no agent get the server's default budget.
    // verdictLine: each verdict's line comes in its reply, not as a
    // window/logMessage before it (one message per verdict, not two).
    const init: InitializationOptions = { agent: "", mode: "", held: true, verdictLine: true };
    const clientOptions: LanguageClientOptions = {
      outputChannel: channel,
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      initializationOptions: init,
      // The server's stderr is log/slog text: route each line by its level.
      stdioOptions: {
        stdout: () => undefined, // frames only; the client reads them
        stderr: (input, ch) => {
          readline.createInterface({ input, crlfDelay: Infinity, terminal: false, historySize: 0 })
            .on("line", (line) => ch[format.stderrLevel(line)](line));
        },
      },
      synchronize: { configurationSection: ConfigSection },
      middleware: {
        workspace: {
          // Answer `ml-ai` per level: the user's keys for the unscoped item,
          // the workspace's and folder's for a folder's item. The server
          // applies workspace values only where they tighten (SPEC §6).
          configuration: (params, token, next) => {
            if (!params.items.every((i) => i.section === ConfigSection)) return next(params, token);
            return params.items.map((i) => {
              if (!i.scopeUri) return userSection((k: Key) => config().inspect(k));
              const scoped = vscode.workspace.getConfiguration(ConfigSection, vscode.Uri.parse(i.scopeUri));
              return folderSection((k: Key) => scoped.inspect(k));
            });
          },
        },
      },
      errorHandler: {
        // handled: the channel never reveals itself (the status bar says what is wrong).
        error: (_e, _m, count) => (count !== undefined && count <= 3
          ? { action: ErrorAction.Continue, handled: true }
          : { action: ErrorAction.Shutdown, handled: true }),
        closed: () => {
          if (deactivating) return { action: CloseAction.DoNotRestart, handled: true };
          if (restarts.crashed()) {
            core.setState("restarting", `restart ${restarts.recent()} of ${restarts.max} in 3 minutes`);
            return { action: CloseAction.Restart, handled: true };
          }
          gaveUp = true;
          const msg = `The command-safety server crashed ${restarts.max + 1} times in 3 minutes and will not be restarted: every command prompts until you reload the window.`;
          core.setState("down", "crashed too often");
          channel.error(msg);
          void vscode.window.showErrorMessage(msg);
          return { action: CloseAction.DoNotRestart, handled: true };
        },
      },
    };
    const c = new LanguageClient("ml-ai.commandSafety", ChannelName, serverOptions, clientOptions);
    client = c;
    // Hooks in hold mode (SPEC §10): ask about each held command once; the
    // status bar shows how many wait.
    c.onNotification(Methods.held, (p: HeldParams) => {
      for (const h of held.update(p.held ?? [])) void askHeld(c, exe, h);
      paint();
    });
    c.onDidChangeState((e) => {
      if (e.newState === State.Running) {
        core.setState("running");
        const pid = c.serverProcess?.pid;
        c.serverProcess?.once("exit", (code, sig) => {
          // Fail closed at once; the client's own close handling restarts it.
          if (client === c && core.state === "running") core.setState("restarting", `exited (${sig ?? `code ${code}`})`);
        });
        channel.info(`command-safety server running: ${exe} serve (pid ${pid})`);
      } else if (e.newState === State.Starting) {
        if (core.state !== "restarting") core.setState("starting");
      } else if (e.newState === State.Stopped) {
        if (deactivating) core.setState("stopped");
        else if (gaveUp) core.setState("down", "crashed too often");
        else if (core.state !== "restarting") core.setState("down", "stopped");
      }
    });
    core.setState("starting");
    try {
      await c.start();
    } catch (err) {
      const msg = `The command-safety server could not start (${exe}): ${errorText(err)}. Every command prompts.`;
      channel.error(msg);
      core.setState("down", "could not start");
    }
  };

  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (!e.affectsConfiguration(ConfigSection)) return;
      enabled = effective().commandSafety === true;
      paint();
      if (e.affectsConfiguration(`${ConfigSection}.serverPath`)) {
        channel.info("ml-ai.serverPath changed: restarting the server");
        const old = client;
        client = undefined;
        core.setState("starting", "serverPath changed");
        await old?.stop().catch(() => undefined);
        restarts.reset();
        gaveUp = false;
        await startClient();
      }
    }),
  );

  // The VS Code agent hook for Copilot's own terminal tool.
  const binary = (): string => serverPath(config().get<string>("serverPath"), context.extensionPath, process.platform);
  const refreshHook = async (): Promise<HookState> => {
    const file = hookFile(os.homedir());
    let text: string | undefined;
    try {
      text = await fs.readFile(file, "utf8");
    } catch (_e) {
      text = undefined;
    }
    const next = hookState(text, file);
    if (copilotHook?.gated !== next.gated) channel.info(next.detail);
    copilotHook = next;
    paint();
    return next;
  };
  const installHook = async (quiet = false): Promise<void> => {
    const exe = binary();
    const result = await new Promise<{ ok: boolean; out: string }>((resolve) => {
      execFile(exe, [...installArgs], { timeout: 30_000, windowsHide: true }, (err, stdout, stderr) =>
        resolve({ ok: !err, out: `${stdout}${stderr}`.trim() || (err ? errorText(err) : "") }));
    });
    for (const line of result.out.split("\n")) if (line) channel[result.ok ? "info" : "error"](`hook install vscode: ${line}`);
    const state = await refreshHook();
    if (quiet && result.ok && state.gated) return;
    if (result.ok && state.gated) {
      void vscode.window.showInformationMessage("Copilot's terminal tool now goes through ML.ai Command Safety (a VS Code agent hook in ~/.copilot/hooks).");
    } else {
      void vscode.window.showErrorMessage(`Installing the VS Code agent hook failed: ${result.out || state.detail} (see the ML.ai Command Safety log).`);
    }
  };
  // Offer it once, with consent: Install, Not now (ask again in a later
  // window), Never. Nothing is written unless the human clicks Install.
  void refreshHook().then(async (state) => {
    const stored = context.globalState.get<OfferChoice>(OfferKey, "");
    if (needsRepair(state, stored, binary())) {
      // The entry this extension wrote runs an older version's binary,
      // whose folder an update removed: point it at this one.
      channel.info("the VS Code agent hook runs another binary than this extension's: updating it");
      await installHook(true);
      return;
    }
    if (!shouldOffer(state, stored, false)) return;
    const button = await vscode.window.showInformationMessage(offerText, offerButtons.install, offerButtons.later, offerButtons.never);
    const choice = choiceOf(button);
    await context.globalState.update(OfferKey, choice);
    if (choice === "install") await installHook();
  });
  context.subscriptions.push(vscode.window.onDidChangeWindowState((e) => {
    if (e.focused) void refreshHook();
  }));

  // Commands.
  context.subscriptions.push(
    vscode.commands.registerCommand("ml-ai.commandSafety.installCopilotHook", async () => {
      await context.globalState.update(OfferKey, "install");
      await installHook();
    }),
    vscode.commands.registerCommand("ml-ai.commandSafety.showLog", () => channel.show(true)),
    // The link in a tool confirmation: it confirms again before writing.
    vscode.commands.registerCommand(TeachCommand, async (arg: unknown) => {
      const t = teachableOf(arg);
      if (t && (await teachRule(t))) {
        void vscode.window.showInformationMessage(`\`${teachName(t)}\` is allowed from now on; approve this run in the chat.`);
      }
    }),
    vscode.commands.registerCommand("ml-ai.commandSafety.classify", async () => {
      const command = await vscode.window.showInputBox({ title: "Classify a Command", prompt: "A shell command (bash); it is classified, not run", ignoreFocusOut: true });
      if (!command) return;
      const v = await classify(command);
      const text = format.summary(v);
      if (v.decision === "allow") void vscode.window.showInformationMessage(text);
      else if (v.decision === "prompt") void vscode.window.showWarningMessage(text);
      else void vscode.window.showErrorMessage(text);
    }),
    vscode.commands.registerCommand("ml-ai.commandSafety.toggle", async () => {
      const cur = config().inspect<boolean>("commandSafety")?.globalValue ?? true;
      await config().update("commandSafety", !cur, vscode.ConfigurationTarget.Global);
      void vscode.window.showInformationMessage(`Command Safety is now ${!cur ? "on" : "off"} in your user settings.`);
    }),
  );

  // The language-model tool.
  // A prompt the human never confirmed in VS Code (cancelled, or the chat
  // ended: VS Code does not say which) is rejected in the decision log when
  // its entry expires, with a reviewer name that says so.
  const prepared = new Prepared(undefined, undefined, (v) => {
    if (v.decision === "prompt") void resolve(v, "rejected", `${reviewer()} (not confirmed in VS Code)`);
  });
  const sweep = setInterval(() => prepared.expire(), 60_000);
  context.subscriptions.push({ dispose: () => clearInterval(sweep) });
  if (vscode.lm?.registerTool) {
    const tool: vscode.LanguageModelTool<ToolInput> = {
      prepareInvocation: async (options) => {
        const { command, cwd, explanation } = options.input;
        const v = await classify(command, { agent: ToolAgent, shell: ToolShell, ...(cwd ? { cwd } : {}) });
        if (v.decision === "refuse") throw new Error(format.refusalMessage(v));
        prepared.put(Prepared.key(command, cwd), v);
        if (v.decision === "allow") {
          return { invocationMessage: `Running \`${command.replace(/`/g, "'")}\`` };
        }
        const c = format.confirmation(v, explanation);
        const message = new vscode.MarkdownString(v.teach ? `${c.markdown}\n\n${teachLink(v.teach)}` : c.markdown);
        if (v.teach) message.isTrusted = { enabledCommands: [TeachCommand] };
        return {
          invocationMessage: `Running \`${command.replace(/`/g, "'")}\``,
          confirmationMessages: { title: c.title, message },
        };
      },
      invoke: async (options, token) => {
        const { command, cwd } = options.input;
        let v = prepared.take(Prepared.key(command, cwd));
        if (!v) {
          // Not prepared here (or long ago): classify now and ask ourselves.
          v = await classify(command, { agent: ToolAgent, shell: ToolShell, ...(cwd ? { cwd } : {}) });
          if (v.decision === "refuse") throw new Error(format.refusalMessage(v));
          if (v.decision === "prompt" && !(await ask(v))) throw new Error("The user did not approve this command.");
        } else if (v.decision === "prompt") {
          await resolve(v, "approved"); // VS Code calls invoke only after the human approved
        } else if (v.decision === "refuse") {
          throw new Error(format.refusalMessage(v));
        }
        const dir = resolveCwd(cwd, folders());
        const abort = new AbortController();
        const sub = token.onCancellationRequested(() => abort.abort());
        try {
          const r = await runCommand({ command, cwd: dir, signal: abort.signal, timeoutMs: DefaultTimeoutMs });
          return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(format.toolResultText(r))]);
        } finally {
          sub.dispose();
        }
      },
    };
    context.subscriptions.push(vscode.lm.registerTool<ToolInput>("ml-ai_runCommand", tool));
  }

  context.subscriptions.push({
    dispose: () => {
      deactivating = true;
    },
  });
  // Not awaited: the API is usable at once and fails closed until the server runs.
  void startClient();
  return { classify, gate, state: () => core.state };
}

export async function deactivate(): Promise<void> {
  const c = client;
  client = undefined;
  await c?.stop().catch(() => undefined);
}

function reviewer(): string {
  try {
    return `vscode:${os.userInfo().username}`;
  } catch (_err) {
    return "vscode";
  }
}
