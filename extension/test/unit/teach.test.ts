import { test } from "node:test";
import * as assert from "node:assert/strict";
import { teachArgs, teachButton, teachConfirm, teachName } from "../../src/teach";

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
