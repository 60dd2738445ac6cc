import { test } from "node:test";
import * as assert from "node:assert/strict";
import * as path from "node:path";
import { TeachCommand, rulesListArgs, rulesOfList, sameJSON, teachArgs, teachButton, teachConfirm, teachLink, teachName, teachableOf, userSettingsFile } from "../../src/teach";

test("a rule with a subcommand", () => {
  const t = { program: "kx", subcommand: "get", example: "kx get pods" };
  assert.equal(teachName(t), "kx get");
  assert.equal(teachButton(t), "Allow `kx get` from now on");
  assert.deepEqual(teachArgs(t), ["rules", "add", "--program", "kx", "--subcommand", "get", "--effect", "read", "--example", "kx get pods"]);
  assert.match(teachConfirm(t), /Other `kx` subcommands still ask/);
  assert.match(teachConfirm(t), /Refusals still apply/);
});

test("a rule without a subcommand", () => {
  const t = { program: "acme", example: "acme report.txt" };
  assert.equal(teachButton(t), "Allow `acme` from now on");
  assert.deepEqual(teachArgs(t), ["rules", "add", "--program", "acme", "--effect", "read", "--example", "acme report.txt"]);
  assert.doesNotMatch(teachConfirm(t), /subcommands still ask/);
});

test("the confirmation link carries the rule as the command's argument", () => {
  const t = { program: "kx", subcommand: "get", example: "kx get pods) [x](command:evil" };
  const link = teachLink(t);
  assert.ok(link.startsWith("[Allow `kx get` from now on](command:" + TeachCommand + "?"));
  const arg = decodeURIComponent(link.slice(link.indexOf("?") + 1, -1));
  assert.deepEqual(teachableOf(JSON.parse(arg)[0]), t);
  assert.ok(!/[()[\]]/.test(link.slice(link.indexOf("?"), -1)), "the example cannot end the link");
  assert.equal(teachableOf({ program: 1, example: "x" }), undefined);
  assert.equal(teachableOf(null), undefined);
});

test("rules add writes the user settings file of the editor it runs in", () => {
  const t = { program: "kx", subcommand: "get", example: "kx get pods" };
  const file = path.join(path.sep, "srv", "ud", "User", "settings.json");
  assert.deepEqual(teachArgs(t, file), ["rules", "add", "--file", file, "--program", "kx", "--subcommand", "get", "--effect", "read", "--example", "kx get pods"]);
  // <user data>/User/globalStorage/<id> → <user data>/User/settings.json
  assert.equal(userSettingsFile(path.join(path.sep, "srv", "ud", "User", "globalStorage", "ml-ai.command-safety")), file);
  assert.equal(userSettingsFile(path.join(path.sep, "srv", "ud", "User", "globalStorage", "ml-ai.command-safety") + path.sep), file);
  assert.equal(userSettingsFile(path.join(path.sep, "srv", "elsewhere", "ml-ai.command-safety")), undefined);
  assert.equal(userSettingsFile("relative/User/globalStorage/x"), undefined);
  assert.equal(userSettingsFile(undefined), undefined);
  assert.deepEqual(rulesListArgs(file), ["rules", "list", "--file", file, "--json"]);
});

test("the rules read back from rules list --json", () => {
  const rule = { name: "kx", program: "kx", subcommands: [{ name: "get", effects: ["read"], examples: ["kx get pods"] }] };
  assert.deepEqual(rulesOfList(JSON.stringify([{ name: "kx", rule }])), [rule]);
  assert.deepEqual(rulesOfList("[]"), []);
  assert.deepEqual(rulesOfList("null"), undefined);
  assert.deepEqual(rulesOfList("not json"), undefined);
  assert.deepEqual(rulesOfList(JSON.stringify([{ name: "kx" }])), undefined);
});

test("the rules compare as JSON values, not as key orders", () => {
  assert.ok(sameJSON([{ name: "kx", program: "kx" }], [{ program: "kx", name: "kx" }]));
  assert.ok(sameJSON([], []));
  assert.ok(!sameJSON([{ name: "kx" }], [{ name: "ky" }]));
  assert.ok(!sameJSON([{ a: 1 }, { b: 2 }], [{ b: 2 }, { a: 1 }]), "the order of rules matters");
  assert.ok(!sameJSON([{ a: [1, 2] }], [{ a: [2, 1] }]));
});
