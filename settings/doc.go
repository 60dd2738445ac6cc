// Package settings reads the user's `ml-ai.*` settings (SPEC §6): the
// `ml-ai.commandSafety` toggle, `ml-ai.agentBudgets`, `ml-ai.decisionLog`,
// `ml-ai.serverPath`, `ml-ai.holdTimeout` and `ml-ai.rules` (parsed here,
// checked by gate.CompileRules), from the VS Code-family user
// settings files, from each workspace root's `.vscode/settings.json`, or from
// the sections a client returns for `workspace/configuration`.
//
// It imports the standard library, github.com/fsnotify/fsnotify,
// github.com/tailscale/hujson (JSONC), budgets and effects only. It reads no
// environment variables itself: callers build an [Env].
//
// Settings fail closed:
//   - a missing file contributes nothing (the defaults: gate on, built-in budgets);
//   - a file that does not parse keeps that file's last good values (or
//     nothing) and yields an error [Problem] naming the file and line:col;
//   - so does a file that is not a regular file (a FIFO, a device, a
//     directory, or a symlink to one), one over [MaxFileSize], and one whose
//     read does not finish within [ReadTimeout]: every file is read through
//     [ReadFile], which checks the opened descriptor before reading;
//   - an unknown `ml-ai.*` key or a value of the wrong type is an error
//     [Problem]; the key is ignored and the rest of the file still applies;
//   - a workspace can only tighten: its `commandSafety: false` applies, its
//     budget entries apply only where stricter than the user's, and anything
//     looser, as well as its `decisionLog`, `serverPath` and `holdTimeout`, is
//     ignored with a warning [Problem].
//
// [Load] and [FromSections] build a [Snapshot] once; a [Loader] does the same
// but remembers each file's last good values, which problems it already
// reported, and what each file was when read, so it reads again only files a
// stat shows changed; a [Watcher] re-loads on file changes (fsnotify) and
// hands each new [Snapshot] to a callback, and [Watcher.Current] checks the
// files (one stat each) before a decision so a save applies to the next one.
package settings
