import { test } from "node:test";
import assert from "node:assert/strict";
import { createRng, hashString, pick, randomInt, shuffle } from "../../templates/assets/js/rng.js";

test("hashString is a stable 32-bit hash that separates near-identical strings", () => {
  assert.equal(hashString("2026-11-22"), hashString("2026-11-22"));
  const a = hashString("2026-11-22");
  const b = hashString("2026-11-23");
  assert.notEqual(a, b);
  assert.ok(Number.isInteger(a) && a >= 0 && a < 2 ** 32);
  // Avalanche: consecutive dates differ in many bits, not just the last few.
  const bits = (a ^ b).toString(2).replace(/0/g, "").length;
  assert.ok(bits >= 8, `only ${bits} bits differ`);
});

test("createRng is deterministic per seed and yields floats in [0, 1)", () => {
  const x = createRng(123);
  const y = createRng(123);
  const z = createRng(124);
  const xs = Array.from({ length: 1000 }, x);
  assert.deepEqual(xs, Array.from({ length: 1000 }, y));
  assert.notDeepEqual(xs.slice(0, 10), Array.from({ length: 10 }, z));
  assert.ok(xs.every((v) => v >= 0 && v < 1));
  assert.deepEqual(Array.from({ length: 5 }, createRng("seed")), Array.from({ length: 5 }, createRng(hashString("seed"))));
});

test("randomInt covers its range roughly uniformly", () => {
  const rng = createRng(7);
  const counts = [0, 0, 0, 0];
  for (let i = 0; i < 4000; i++) counts[randomInt(rng, 4)]++;
  for (const c of counts) assert.ok(c > 850 && c < 1150, `skewed: ${counts}`);
});

test("shuffle permutes a copy and leaves the input alone", () => {
  const input = [1, 2, 3, 4, 5, 6, 7, 8];
  const out = shuffle(createRng(9), input);
  assert.deepEqual(input, [1, 2, 3, 4, 5, 6, 7, 8]);
  assert.deepEqual([...out].sort((a, b) => a - b), input);
  assert.notDeepEqual(out, input);
  assert.deepEqual(shuffle(createRng(9), input), out);
});

test("pick returns a member, or undefined for an empty array", () => {
  const rng = createRng(5);
  const seen = new Set(Array.from({ length: 100 }, () => pick(rng, ["a", "b", "c"])));
  assert.deepEqual([...seen].sort(), ["a", "b", "c"]);
  assert.equal(pick(rng, []), undefined);
});
