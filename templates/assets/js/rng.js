// Seeded randomness. Every random choice the quiz makes goes through an rng
// function from here, so a round is reproducible from its seed: the daily
// challenge relies on that (same seed → same questions for everyone), and the
// tests rely on it to check question building deterministically.

/**
 * Hashes a string to an unsigned 32-bit integer (FNV-1a over UTF-16 code
 * units, then a murmur3 finaliser so that similar strings such as two
 * consecutive dates give unrelated seeds).
 * @param {string} text
 * @returns {number} integer in [0, 2^32)
 */
export function hashString(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * Creates a mulberry32 generator: tiny, fast and good enough for shuffling
 * quiz questions (not for anything security-related).
 * @param {number|string} seed a 32-bit integer, or a string that is hashed
 * @returns {() => number} returns floats in [0, 1)
 */
export function createRng(seed) {
  let a = (typeof seed === "string" ? hashString(seed) : seed) >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A fresh, unpredictable seed for ordinary rounds (crypto when available).
 * @returns {number}
 */
export function randomSeed() {
  const c = globalThis.crypto;
  if (c && typeof c.getRandomValues === "function") {
    return c.getRandomValues(new Uint32Array(1))[0];
  }
  return Math.floor(Math.random() * 4294967296) >>> 0;
}

/**
 * A uniformly distributed integer in [0, n).
 * @param {() => number} rng
 * @param {number} n
 */
export function randomInt(rng, n) {
  return Math.floor(rng() * n);
}

/**
 * One element of a non-empty array, or undefined for an empty one.
 * @template T
 * @param {() => number} rng
 * @param {readonly T[]} items
 * @returns {T|undefined}
 */
export function pick(rng, items) {
  return items.length ? items[randomInt(rng, items.length)] : undefined;
}

/**
 * A shuffled copy (Fisher–Yates); the input is left untouched so callers can
 * keep catalogue order for anything else.
 * @template T
 * @param {() => number} rng
 * @param {readonly T[]} items
 * @returns {T[]}
 */
export function shuffle(rng, items) {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomInt(rng, i + 1);
    const tmp = out[i];
    out[i] = out[j];
    out[j] = tmp;
  }
  return out;
}
