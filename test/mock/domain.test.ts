import { describe, expect, test } from 'vitest';
import { DefectSet } from '../../src/mock/defects/defect-set.js';
import { IdempotencyStore, parseIdempotencyKey } from '../../src/mock/domain/idempotency-store.js';
import { NonceCache } from '../../src/mock/domain/nonce-cache.js';
import { RateLimiter } from '../../src/mock/domain/rate-limiter.js';
import { QuoteBook } from '../../src/mock/domain/quotes.js';

describe('domain pieces, without HTTP', () => {
  test('rate limiter: exact rolling window, one admitted exactly 60 s earlier no longer counts', () => {
    const rl = new RateLimiter(new DefectSet());
    expect(rl.take('a', 'read', 2, 1_000).admitted).toBe(true);
    expect(rl.take('a', 'read', 2, 1_500).remaining).toBe(0);
    const refused = rl.take('a', 'read', 2, 2_000);
    expect([refused.admitted, refused.retryAfterS, refused.resetS]).toEqual([false, 59, 59]);
    expect(rl.take('a', 'read', 2, 60_999).admitted).toBe(false);
    expect(rl.take('a', 'read', 2, 61_000).admitted).toBe(true);
  });

  test('rate limiter memory holds at most `limit` timestamps per bucket', () => {
    const rl = new RateLimiter(new DefectSet());
    for (let t = 0; t < 100_000; t++) rl.take('a', 'read', 3, t);
    const rings = (rl as unknown as { rings: Map<string, { size: number; capacity: number }> }).rings;
    expect([...rings.values()].map((r) => [r.size, r.capacity])).toEqual([[3, 3]]);
  });

  test('nonce cache drops pairs older than 600 s', () => {
    const c = new NonceCache();
    for (let i = 0; i < 1000; i++) c.record('k', `n${i}`, i);
    expect(c.has('k', 'n0', 599_999)).toBe(true);
    expect(c.has('k', 'n0', 600_000)).toBe(false);
    c.record('k', 'late', 700_000);
    expect(c.size).toBe(1);
  });

  test('nonce cache: a nonce recorded again once expired (told it is not held) is held once, from then on', () => {
    const c = new NonceCache();
    c.record('k', 'a', 0);
    c.record('k', 'b', 100_000);
    expect(c.has('k', 'a', 600_000)).toBe(false);
    c.record('k', 'a', 600_000, false);
    expect(c.size).toBe(2);
    expect(c.has('k', 'a', 1_199_999)).toBe(true);
    expect(c.has('k', 'b', 1_199_999)).toBe(false);
    c.record('k', 'c', 1_199_999, false);
    expect([c.has('k', 'a', 1_199_999), c.size]).toEqual([true, 2]);
  });

  test('idempotency store: verdicts and 24 h retention', () => {
    const s = new IdempotencyStore();
    expect(s.begin('x', 'f1', 0).kind).toBe('new');
    expect(s.begin('x', 'f1', 1).kind).toBe('in-use');
    expect(s.begin('x', 'f2', 1).kind).toBe('reused');
    s.complete('x', { status: 201, body: Buffer.from('{}'), contentType: 'application/json', requestId: 'r' });
    expect(s.begin('x', 'f1', 2).kind).toBe('replay');
    expect(s.begin('x', 'f1', 24 * 3600_000).kind).toBe('new');
    expect(parseIdempotencyKey('"abc"')).toBe('abc');
    expect(parseIdempotencyKey('')).toBeNull();
    expect(parseIdempotencyKey(undefined)).toBeUndefined();
  });

  test("quote token payloads are the JSON of their quote, also when a search's price list is issued again for another agency", () => {
    const book = new QuoteBook();
    const amounts = [100, 250];
    const payloadOf = (token: string): unknown[] => JSON.parse(Buffer.from(token.slice(3).split('.')[0]!, 'base64url').toString('utf8')) as unknown[];
    const first = payloadOf(book.issue({ agencyId: 'a', product: 'flights', currency: 'EUR', expiresAt: 5, digest: 'd', amounts })[0]!);
    const second = payloadOf(book.issue({ agencyId: 'b"é', product: 'cars', currency: 'USD', expiresAt: 6, digest: 'e', amounts })[1]!);
    expect(first.slice(1)).toEqual(['a', 'flights', 'EUR', 5, 'd', [100, 250]]);
    expect(second.slice(1)).toEqual(['b"é', 'cars', 'USD', 6, 'e', [100, 250]]);
    expect(first[0]).not.toBe(second[0]);
    const token = book.issue({ agencyId: 'b"é', product: 'cars', currency: 'USD', expiresAt: 7, digest: 'e', amounts })[1]!;
    expect(book.open(token)).toMatchObject({ agencyId: 'b"é', product: 'cars', currency: 'USD', expiresAt: 7, amount: 250, index: 1 });
  });

  test('quote tokens cannot be forged or moved to another mock', () => {
    const book = new QuoteBook();
    const [token, second] = book.issue({ agencyId: 'a', product: 'flights', currency: 'EUR', expiresAt: 1, digest: 'd', amounts: [100, 250] });
    expect(book.open(token!)?.amount).toBe(100);
    expect(book.open(second!)?.amount).toBe(250);
    expect(book.open(token!)?.id).not.toBe(book.open(second!)?.id);
    const [payload, index, tag] = token!.slice(3).split('.');
    const forged = Buffer.from(Buffer.from(payload!, 'base64url').toString().replace('100', '1')).toString('base64url');
    expect(book.open(`qt_${forged}.${index}.${tag}`)).toBeUndefined();
    expect(book.open(`qt_${payload}.2.${tag}`)).toBeUndefined();
    expect(new QuoteBook().open(token!)).toBeUndefined();
  });
});
