import { describe, expect, it } from 'vitest';
import { findEarlyRefusals, findOverAdmissions, findRetryAfterFaults, testedRetryAfters, type Admission } from '../../src/load/judge/window-verdicts.js';
import { bucketStart, judgeBucket, priorFromReading } from '../../src/load/judge/load-verdicts.js';
import type { BucketLog } from '../../src/load/measure/load-recorder.js';

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

describe('a window over the limit, named', () => {
  it('gives its start and end and the first request admitted over the limit', () => {
    const [w] = findOverAdmissions([ok(0, 'a'), ok(10, 'b'), ok(20, 'c'), ok(30, 'd')], 3, 60_000);
    expect(w).toMatchObject({ windowStart: 0, windowEnd: 60_000, admittedInWindow: 4, firstOver: { ref: 'd', sentAt: 30 } });
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

  it('does not call it too short when a request in flight beside the 429 took the slot that freed', () => {
    // Two connections of one agency send at the same instant: one is refused (a slot frees within 1 s), the other,
    // answered later, is admitted into it; the next request after the promise is rightly refused (a seen CI false alarm).
    const beside: Admission = { sentAt: 30_000, receivedAt: 30_009, admitted: true, ref: 'beside' };
    const refused: Admission = { sentAt: 30_000, receivedAt: 30_002, admitted: false, retryAfterS: 1, ref: 'r' };
    const after: Admission = { sentAt: 31_500, receivedAt: 31_505, admitted: false, retryAfterS: 4, ref: 'after' };
    expect(findRetryAfterFaults([beside, refused, after], 60_000)).toEqual([]);
    expect(findRetryAfterFaults([refused, beside, after], 60_000)).toEqual([]);
    // An admission answered before the 429 was even sent took nothing the 429 promised: still too short.
    const before: Admission = { sentAt: 29_990, receivedAt: 29_995, admitted: true, ref: 'before' };
    expect(findRetryAfterFaults([before, refused, after], 60_000)).toMatchObject([{ problem: 'too-short', ref: 'r' }]);
    // Nor one sent after the refusal that follows the promise was answered.
    const later: Admission = { sentAt: 36_000, receivedAt: 36_005, admitted: true, ref: 'later' };
    expect(findRetryAfterFaults([before, refused, after, later], 60_000)).toMatchObject([{ problem: 'too-short', ref: 'r' }]);
  });

  it('flags one longer than the window, whatever followed (a load judged Retry-After 1e9 s untested: SKIP, and PASS in all)', () => {
    expect(findRetryAfterFaults([ok(0), no(30_000, 1_000_000_000)], 60_000)).toMatchObject([{ problem: 'beyond-window', retryAfterS: 1_000_000_000 }]);
    expect(findRetryAfterFaults([ok(0), no(30_000, 61)], 60_000)[0]!.problem).toBe('beyond-window');
    expect(findRetryAfterFaults([ok(0), no(1, 60)], 60_000)).toEqual([]);
    const log: BucketLog = {
      agency: 'a',
      bucket: 'read',
      rateLimitedStatus: 429,
      sentAt: [0, 10],
      receivedAt: [5, 15],
      status: [200, 429],
      retryAfterS: [Number.NaN, 1e9],
      remaining: [Number.NaN, 0],
    };
    const verdict = judgeBucket(log, 1, 60_000).find((v) => v.kind === 'retry-after')!;
    expect(verdict).toMatchObject({ verdict: 'FAIL', message: expect.stringContaining('longer than the window of 60 s') });
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
      rateLimitedStatus: 429,
      sentAt: rows.map((r) => r[0]),
      receivedAt: rows.map((r) => r[0] + 5),
      status: rows.map((r) => r[1]),
      retryAfterS: rows.map((r) => r[2] ?? Number.NaN),
      remaining: rows.map(() => Number.NaN),
    };
  }

  it('the load verdict is SKIP, naming why, when 429s came but none could be judged', () => {
    const v = judgeBucket(
      log([
        [0, 201],
        [100, 201],
        [200, 429, 60],
        [300, 429, 60],
      ]),
      2,
      60_000,
    ).find((x) => x.kind === 'retry-after')!;
    expect(v.verdict).toBe('SKIP');
    expect(v.message).toMatch(/2 429\(s\), but no Retry-After could be judged.*shortest 60 s.*run the load for longer/);
  });

  it('the load verdict is PASS only when a Retry-After was put to the test', () => {
    const v = judgeBucket(
      log([
        [0, 201],
        [100, 201],
        [200, 429, 60],
        [60_300, 201],
      ]),
      2,
      60_000,
    ).find((x) => x.kind === 'retry-after')!;
    expect(v.verdict, v.message).toBe('PASS');
    expect(v.message).toMatch(/1 of 1 put to the test/);
  });
});

describe('early refusals judged against what the bucket held at the start', () => {
  // A bucket of limit 4: 2 admitted, then refused. Alone that is early; with 2 left from before the load it is not.
  const rows: Array<[number, number]> = [
    [1_000, 200],
    [1_100, 200],
    [1_200, 429],
  ];
  function log(remainingOn429 = Number.NaN): BucketLog {
    return {
      agency: 'a',
      bucket: 'read',
      rateLimitedStatus: 429,
      sentAt: rows.map((r) => r[0]),
      receivedAt: rows.map((r) => r[0] + 5),
      status: rows.map((r) => r[1]),
      retryAfterS: rows.map((r) => (r[1] === 429 ? 50 : Number.NaN)),
      remaining: rows.map((r) => (r[1] === 429 ? remainingOn429 : Number.NaN)),
    };
  }
  const early = (l: BucketLog, start?: Parameters<typeof judgeBucket>[3]) => judgeBucket(l, 4, 60_000, start).find((v) => v.kind === 'early-throttle')!;

  it('fails a refusal below the limit when the bucket started empty', () => {
    expect(early(log(), { known: 'fresh-mock', priorAdmitted: 0 }).verdict).toBe('FAIL');
  });

  it("passes it when the first answer's headers show 2 admitted before the load, and says how the start was known", () => {
    const l = log();
    // The first answer: limit 4, remaining 1 after counting itself: 2 were admitted before the load.
    l.start = { sentAt: 1_000, receivedAt: 1_005, limit: 4, remaining: 1, admitted: true };
    expect(priorFromReading(l, l.start, 60_000)).toBe(2);
    const v = early(l, bucketStart(l, 60_000, 'unknown'));
    expect(v.verdict, v.message).toBe('PASS');
    expect(v.message).toMatch(/start known from the X-RateLimit-\* headers of its first answer: 2 request\(s\) from before the load/);
  });

  it('still fails it once the window has moved past everything from before the load', () => {
    const l = log();
    l.start = { sentAt: 1_000, receivedAt: 1_005, limit: 4, remaining: 1, admitted: true };
    l.sentAt.push(70_000, 70_100, 70_200);
    l.receivedAt.push(70_005, 70_105, 70_205);
    l.status.push(200, 200, 429);
    l.retryAfterS.push(Number.NaN, Number.NaN, 50);
    l.remaining.push(Number.NaN, Number.NaN, Number.NaN);
    expect(early(l, bucketStart(l, 60_000, 'unknown')).verdict).toBe('FAIL');
  });

  it('fails a 429 whose own X-RateLimit-Remaining leaves slots, whatever came before', () => {
    const v = early(log(2), { known: 'unknown', priorAdmitted: 0 });
    expect(v.verdict).toBe('FAIL');
    expect(v.message).toMatch(/own X-RateLimit-Remaining said 2 of 4 were left/);
  });

  it('skips, naming why, when the start is unknown (no headers, a target the harness did not start)', () => {
    const v = early(log(), bucketStart(log(), 60_000, 'unknown'));
    expect(v.verdict).toBe('SKIP');
    expect(v.message).toMatch(/state at the start is unknown/);
  });
});
