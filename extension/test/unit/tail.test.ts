import { test } from "node:test";
import * as assert from "node:assert/strict";
import { TailBuffer, DefaultOutputLimit } from "../../src/tail";

test("default limit is 64 KiB", () => {
  assert.equal(new TailBuffer().limit, 65536);
  assert.equal(DefaultOutputLimit, 65536);
});

test("keeps the tail", () => {
  const cases: { name: string; limit: number; chunks: string[]; want: string; dropped: number }[] = [
    { name: "under", limit: 10, chunks: ["abc", "def"], want: "abcdef", dropped: 0 },
    { name: "exact", limit: 6, chunks: ["abc", "def"], want: "abcdef", dropped: 0 },
    { name: "split chunk", limit: 4, chunks: ["abc", "def"], want: "cdef", dropped: 2 },
    { name: "whole chunks", limit: 3, chunks: ["ab", "cd", "ef"], want: "def", dropped: 3 },
    { name: "one big", limit: 3, chunks: ["a", "bcdefg"], want: "efg", dropped: 4 },
    { name: "empty", limit: 3, chunks: [], want: "", dropped: 0 },
  ];
  for (const c of cases) {
    const b = new TailBuffer(c.limit);
    for (const ch of c.chunks) b.write(ch);
    assert.equal(b.text(), c.want, c.name);
    assert.equal(b.dropped, c.dropped, c.name);
    assert.ok(b.bytes().length <= c.limit, c.name);
  }
});

test("a cut UTF-8 character is skipped, not mangled", () => {
  const b = new TailBuffer(4);
  b.write("xé€"); // x(1) é(2) €(3): the tail's 4 bytes start inside é
  assert.equal(b.text(), "€");
});

test("a megabyte stays 64 KiB", () => {
  const b = new TailBuffer();
  for (let i = 0; i < 1024; i++) b.write(Buffer.alloc(1024, i % 26 + 97));
  assert.equal(b.bytes().length, 65536);
  assert.equal(b.dropped, 1024 * 1024 - 65536);
  assert.equal(b.text().at(-1), String.fromCharCode(1023 % 26 + 97));
});
