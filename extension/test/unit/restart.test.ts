import { test } from "node:test";
import * as assert from "node:assert/strict";
import { RestartPolicy } from "../../src/restart";

test("at most 5 restarts in 3 minutes, then stay down", () => {
  let t = 0;
  const p = new RestartPolicy(5, 180_000, () => t);
  for (let i = 0; i < 5; i++) {
    assert.equal(p.crashed(), true, `restart ${i + 1}`);
    t += 10_000;
  }
  assert.equal(p.recent(), 5);
  assert.equal(p.crashed(), false, "a sixth crash within 3 minutes stays down");
  assert.equal(p.crashed(), false);
});

test("restarts older than the window are forgotten", () => {
  let t = 0;
  const p = new RestartPolicy(5, 180_000, () => t);
  for (let i = 0; i < 5; i++) {
    p.crashed();
    t += 1000;
  }
  t = 180_000; // the first restart (at 0) is now exactly 3 minutes old; the others are not
  assert.equal(p.crashed(), true);
  assert.equal(p.crashed(), false);
  t = 10 * 60_000;
  assert.equal(p.recent(), 0);
  assert.equal(p.crashed(), true);
});

test("reset", () => {
  const p = new RestartPolicy(1, 1000, () => 0);
  assert.equal(p.crashed(), true);
  assert.equal(p.crashed(), false);
  p.reset();
  assert.equal(p.crashed(), true);
});

test("defaults are SPEC's", () => {
  const p = new RestartPolicy();
  assert.equal(p.max, 5);
  assert.equal(p.windowMs, 3 * 60 * 1000);
});
