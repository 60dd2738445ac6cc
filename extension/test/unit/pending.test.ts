import { test } from "node:test";
import * as assert from "node:assert/strict";
import { Prepared } from "../../src/pending";
import { failClosedVerdict } from "../../src/state";

const v = (c: string) => failClosedVerdict({ command: c, cwd: "/w" }, "x", new Date(0));

test("take returns what put stored, once, oldest first", () => {
  const p = new Prepared(1000, () => 0);
  const k = Prepared.key("ls", undefined);
  assert.equal(k, Prepared.key("ls", ""));
  assert.notEqual(k, Prepared.key("ls", "/w"));
  p.put(k, v("a"));
  p.put(k, v("b"));
  assert.equal(p.size(), 2);
  assert.equal(p.take(k)?.command, "a");
  assert.equal(p.take(k)?.command, "b");
  assert.equal(p.take(k), undefined);
  assert.equal(p.size(), 0);
});

test("entries expire", () => {
  let t = 0;
  const p = new Prepared(1000, () => t);
  const k = Prepared.key("npm install x", "/w");
  p.put(k, v("npm install x"));
  t = 999;
  assert.equal(p.size(), 1);
  t = 1000;
  assert.equal(p.take(k), undefined);
});

test("expired entries go to onExpire once; taken ones never", () => {
  let t = 0;
  const expired: string[] = [];
  const p = new Prepared(1000, () => t, (x) => expired.push(x.command));
  p.put(Prepared.key("a", "/w"), v("a"));
  p.put(Prepared.key("b", "/w"), v("b"));
  t = 500;
  p.put(Prepared.key("c", "/w"), v("c"));
  assert.equal(p.take(Prepared.key("b", "/w"))?.command, "b"); // invoked: approved, not expired
  t = 1000;
  p.expire();
  assert.deepEqual(expired, ["a"]);
  t = 1500;
  p.expire();
  p.expire();
  assert.deepEqual(expired, ["a", "c"]);
  assert.equal(p.size(), 0);
});
