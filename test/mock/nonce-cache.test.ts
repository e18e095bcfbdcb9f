import { describe, expect, test } from 'vitest';
import { NonceCache } from '../../src/mock/domain/nonce-cache.js';

/** A small deterministic generator (xorshift), so a failing sequence can be replayed. */
function random(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

describe('nonce cache held outside the heap, against a map of every pair', () => {
  test.each([1, 2, 3])('seed %i: answers, sizes and expiry match over growth, repeats, expiry and shrinking', (seed) => {
    const rnd = random(seed * 7919);
    const retention = 10_000;
    const cache = new NonceCache(retention);
    const model = new Map<string, number>();
    const keys = ['k1', 'k2', 'key_three', 'k4'];
    const pool: string[] = [];
    let now = 0;
    for (let step = 0; step < 40_000; step++) {
      // Bursts of traffic and quiet spells, so the records grow past the first room and shrink again.
      now += step % 10_000 < 5_000 ? Math.floor(rnd() * 3) : Math.floor(rnd() * 40);
      const key = keys[Math.floor(rnd() * keys.length)]!;
      const nonce = rnd() < 0.2 && pool.length > 0 ? pool[Math.floor(rnd() * pool.length)]! : `n${Math.floor(rnd() * 1e9).toString(36)}_${step}`;
      if (pool.length < 500) pool.push(nonce);
      else pool[step % 500] = nonce;
      const at = model.get(`${key}\n${nonce}`);
      const want = at !== undefined && now - at < retention;
      expect(cache.has(key, nonce, now)).toBe(want);
      if (rnd() < 0.9) {
        cache.record(key, nonce, now);
        model.set(`${key}\n${nonce}`, now);
        let live = 0;
        for (const t of model.values()) if (now - t < retention) live += 1;
        if (step % 97 === 0) expect(cache.size).toBe(live);
      }
    }
    // Every pair the model holds, expired or not, is answered alike.
    for (const [pair, at] of model) {
      const [key, nonce] = pair.split('\n') as [string, string];
      expect(cache.has(key, nonce, now)).toBe(now - at < retention);
    }
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.has('k1', pool[0]!, now)).toBe(false);
  });

  test('pairs are per key; nonces of one to 64 characters, Latin-1 included, are told apart', () => {
    const c = new NonceCache();
    const nonces = ['a', 'ab', 'b', 'x'.repeat(64), `${'x'.repeat(63)}y`, 'caf\u00e9', 'cafe'];
    for (const n of nonces) c.record('k', n, 0);
    for (const n of nonces) expect([n, c.has('k', n, 1), c.has('j', n, 1)]).toEqual([n, true, false]);
    expect(c.has('k', 'x'.repeat(65), 1)).toBe(false);
    expect(c.size).toBe(nonces.length);
    expect(() => c.record('k', 'x'.repeat(65), 1)).toThrow(RangeError);
    expect(() => c.record('k', 'snow\u2603', 1)).toThrow(RangeError);
  });
});
