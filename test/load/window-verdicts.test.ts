import { describe, expect, it } from 'vitest';
import { findEarlyRefusals, findOverAdmissions, findRetryAfterFaults, testedRetryAfters, type Admission } from '../../src/load/window-verdicts.js';
import { judgeBucket } from '../../src/load/load-verdicts.js';
import type { BucketLog } from '../../src/load/load-recorder.js';

const ok = (t: number, ref = `a${t}`): Admission => ({ sentAt: t, receivedAt: t + 5, admitted: true, ref });
const no = (t: number, retryAfterS?: number): Admission => ({ sentAt: t, receivedAt: t + 5, admitted: false, retryAfterS, ref: `r${t}` });

describe('over-admission', () => {
  it('passes exactly the limit per rolling window', () => {
    const recs = [ok(0), ok(10), ok(20), no(30, 60), ok(60_010), ok(60_020)];
    expect(findOverAdmissions(recs, 3, 60_000)).toEqual([]);
  });

  it('finds limit + 1 inside one window', () => {
    const recs = [ok(0), ok(10), ok(20), ok(30)];
    const found = findOverAdmissions(recs, 3, 60_000);
    expect(found).toHaveLength(1);
    expect(found[0]!.admittedInWindow).toBe(4);
  });

  it('finds a fixed-window burst across a minute boundary', () => {
    const recs = [ok(59_000), ok(59_100), ok(59_200), ok(60_100), ok(60_200), ok(60_300)];
    expect(findOverAdmissions(recs, 3, 60_000).length).toBeGreaterThan(0);
  });

  it('does not claim a breach when latency makes it uncertain', () => {
    const slow = (t: number): Admission => ({ sentAt: t, receivedAt: t + 2_000, admitted: true });
    expect(findOverAdmissions([slow(0), slow(10), slow(20), slow(59_000)], 3, 60_000)).toEqual([]);
  });
});

describe('early refusal', () => {
  it('accepts a 429 at the limit and flags one well below it', () => {
    expect(findEarlyRefusals([ok(0), ok(1), ok(2), no(3, 60)], 3, 60_000)).toEqual([]);
    expect(findEarlyRefusals([ok(0), no(3, 60)], 3, 60_000)).toHaveLength(1);
  });

  it('allows one request of tolerance', () => {
    expect(findEarlyRefusals([ok(0), ok(1), no(3, 60)], 3, 60_000, 1)).toEqual([]);
  });
});

describe('Retry-After', () => {
  it('accepts a correct Retry-After', () => {
    // first admitted at 0 frees at 60 000; 429 at 30 000 says 30 s; next admitted at 60 001
    expect(findRetryAfterFaults([ok(0), no(30_000, 30), ok(60_001)])).toEqual([]);
  });

  it('flags a missing one', () => {
    expect(findRetryAfterFaults([ok(0), no(30_000)])[0]!.problem).toBe('missing');
  });

  it('flags one refuted by an earlier admission as too long', () => {
    expect(findRetryAfterFaults([ok(0), no(30_000, 40), ok(60_001)])[0]!.problem).toBe('too-long');
  });

  it('flags one refused again after the promised instant as too short', () => {
    expect(findRetryAfterFaults([ok(0), no(30_000, 20), no(50_010, 10)])[0]!.problem).toBe('too-short');
  });
});

describe('Retry-After put to the test', () => {
  it('counts a 429 followed by a request after its promise, or by an admission', () => {
    expect(testedRetryAfters([ok(0), no(30_000, 30), ok(60_001)])).toHaveLength(1);
    expect(testedRetryAfters([ok(0), no(30_000, 20), no(50_010, 10)])).toHaveLength(1);
  });

  it('counts none when the load stopped before any Retry-After elapsed', () => {
    expect(testedRetryAfters([ok(0), no(1_000, 59), no(1_200, 59)])).toEqual([]);
  });

  function log(rows: Array<[sentAt: number, status: number, retryAfterS?: number]>): BucketLog {
    return {
      agency: 'a',
      bucket: 'write',
      sentAt: rows.map((r) => r[0]),
      receivedAt: rows.map((r) => r[0] + 5),
      status: rows.map((r) => r[1]),
      retryAfterS: rows.map((r) => r[2] ?? Number.NaN),
    };
  }

  it('the load verdict is SKIP, naming why, when 429s came but none could be judged', () => {
    const v = judgeBucket(log([[0, 201], [100, 201], [200, 429, 60], [300, 429, 60]]), 2, 60_000).find((x) => x.kind === 'retry-after')!;
    expect(v.verdict).toBe('SKIP');
    expect(v.message).toMatch(/2 429\(s\), but no Retry-After could be judged.*shortest 60 s.*run the load for longer/);
  });

  it('the load verdict is PASS only when a Retry-After was put to the test', () => {
    const v = judgeBucket(log([[0, 201], [100, 201], [200, 429, 60], [60_300, 201]]), 2, 60_000).find((x) => x.kind === 'retry-after')!;
    expect(v.verdict, v.message).toBe('PASS');
    expect(v.message).toMatch(/1 of 1 put to the test/);
  });
});
