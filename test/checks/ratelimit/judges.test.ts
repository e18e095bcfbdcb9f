import { describe, expect, it } from 'vitest';
import {
  judgeAgenciesApart,
  judgeBucketsApart,
  judgeExactLimit,
  judgeRateLimitHeaders,
  judgeRefusalChargesNothing,
  judgeRefusalsNotCounted,
  judgeRetryAfter,
  judgeRollingWindow,
} from '../../../src/checks/ratelimit/index.js';
import type { WalletView } from '../../../src/checks/ratelimit/index.js';
import { burst, PROFILE, shot, T0, xid } from '../_fixtures-rl-wh.js';

const limits = { read: 600, write: 60 };

describe('judgeExactLimit (RL-01)', () => {
  it('passes when each bucket admits exactly its limit', () => {
    const o = judgeExactLimit({ limits, read: burst({ bucket: 'read', limit: 600 }), write: burst({ bucket: 'write', limit: 60 }) }, PROFILE);
    expect(o.verdict, o.message).toBe('PASS');
    expect(o.evidence).toHaveLength(4);
  });
  it('fails on limit + 1 and names the request that should have been refused', () => {
    const write = burst({ bucket: 'write', limit: 60, admits: 61 });
    const o = judgeExactLimit({ limits, read: burst({ bucket: 'read', limit: 600 }), write }, PROFILE);
    expect(o.verdict).toBe('FAIL');
    expect(o.message).toMatch(/write bucket: 61 requests of a burst were admitted, the limit is 60/);
    expect(o.evidence?.[0]).toBe(write[60]!.exchangeId);
  });
  it('fails on early throttling', () => {
    const o = judgeExactLimit({ limits, read: burst({ bucket: 'read', limit: 600, admits: 599 }), write: burst({ bucket: 'write', limit: 60 }) }, PROFILE);
    expect(o.verdict).toBe('FAIL');
    expect(o.message).toMatch(/read bucket: request 600 of a burst was refused/);
  });
  it('judges a burst sent at once by its count, wherever the refusals fall in it', () => {
    const read = burst({ bucket: 'read', limit: 600 });
    const refusal = read[600]!;
    const another = { ...refusal, exchangeId: xid() };
    const shuffled = [another, ...read.slice(0, 300), refusal, ...read.slice(300, 600)];
    expect(judgeExactLimit({ limits, read: shuffled, write: burst({ bucket: 'write', limit: 60 }) }, PROFILE).verdict).toBe('PASS');
    const short = [another, ...read.slice(0, 300), refusal, ...read.slice(300, 599), { ...read[599]!, status: 429 }];
    const o = judgeExactLimit({ limits, read: short, write: burst({ bucket: 'write', limit: 60 }) }, PROFILE);
    expect(o.verdict).toBe('FAIL');
    expect(o.message).toMatch(/read bucket: request 600 of a burst was refused, but the limit is 600 per window \(599 of 602 admitted\)/);
  });
  it('fails when a bucket never refuses', () => {
    const o = judgeExactLimit(
      { limits, read: burst({ bucket: 'read', limit: 600 }), write: burst({ bucket: 'write', limit: 60, admits: 99, send: 60 }) },
      PROFILE,
    );
    expect(o.verdict).toBe('FAIL');
    expect(o.message).toMatch(/without a refusal/);
  });
});

function wallet(balance: number, entries: number, newest: string): WalletView {
  return { balance, entries, newestEntryId: newest, exchangeIds: [xid(), xid()] };
}

describe('judgeRefusalChargesNothing (RL-02)', () => {
  const fill = burst({ bucket: 'write', limit: 60 });
  const booking = shot({ bucket: 'write', at: T0 + 500, status: 429, headers: { 'retry-after': '60' } });
  it('passes when the refused booking leaves the wallet alone', () => {
    const o = judgeRefusalChargesNothing({ writeLimit: 60, fill, booking, before: wallet(1000, 3, 'en_3'), after: wallet(1000, 3, 'en_3') }, PROFILE);
    expect(o.verdict, o.message).toBe('PASS');
  });
  it('fails when the 429 still charged', () => {
    const o = judgeRefusalChargesNothing({ writeLimit: 60, fill, booking, before: wallet(1000, 3, 'en_3'), after: wallet(750, 4, 'en_4') }, PROFILE);
    expect(o.verdict).toBe('FAIL');
    expect(o.message).toMatch(/charged the wallet: balance 1000 before, 750 after/);
    expect(o.message).toMatch(/changed the statement/);
    expect(o.evidence?.[0]).toBe(booking.exchangeId);
  });
  it('fails when the refusal is outside the rate-limited envelope', () => {
    const bad = shot({ bucket: 'write', at: T0, status: 429, code: 'TOO_MANY', details: 'x' });
    const o = judgeRefusalChargesNothing({ writeLimit: 60, fill, booking: bad, before: wallet(1, 0, 'a'), after: wallet(1, 0, 'a') }, PROFILE);
    expect(o.verdict).toBe('FAIL');
    expect(o.message).toMatch(/error code TOO_MANY, not RATE_LIMITED/);
    expect(o.message).toMatch(/no details object/);
  });
});

describe('judgeRetryAfter (RL-03)', () => {
  const fill = burst({ bucket: 'write', limit: 60 });
  const refusedAt = T0 + 200;
  const early = (status: number) => shot({ bucket: 'write', at: refusedAt + 58_750, status });
  const onTime = (status: number) => shot({ bucket: 'write', at: refusedAt + 60_000, status });
  it('passes when refused just before and admitted at Retry-After', () => {
    const o = judgeRetryAfter({ fill, refusedAt, early: early(429), onTime: onTime(405) }, PROFILE);
    expect(o.verdict, o.message).toBe('PASS');
  });
  it('fails when the header is missing', () => {
    const o = judgeRetryAfter({ fill: burst({ bucket: 'write', limit: 60, retryAfterS: null }), refusedAt }, PROFILE);
    expect(o.verdict).toBe('FAIL');
    expect(o.message).toMatch(/no retry-after header/);
  });
  it('fails as too short when the request at Retry-After is refused', () => {
    const o = judgeRetryAfter({ fill, refusedAt, early: early(429), onTime: onTime(429) }, PROFILE);
    expect(o.verdict).toBe('FAIL');
    expect(o.message).toMatch(/too short/);
  });
  it.each(['2000000', '99999999999', '61'])('fails a Retry-After of %s s as longer than the window, with no probe sent', (ra) => {
    const o = judgeRetryAfter({ fill: burst({ bucket: 'write', limit: 60, retryAfterS: Number(ra) }), refusedAt }, PROFILE);
    expect(o.verdict).toBe('FAIL');
    expect(o.message).toBe(`too long: retry-after of ${ra} s is longer than the window of 60 s (a slot frees within one window)`);
  });
  it('warns instead of failing when the early request went out too late to show anything', () => {
    const late = shot({ bucket: 'write', at: refusedAt + 59_900, status: 405 });
    const o = judgeRetryAfter({ fill, refusedAt, early: late, onTime: onTime(405) }, PROFILE);
    expect(o.verdict, o.message).toBe('WARN');
    expect(o.message).toMatch(/too late to show it too long/);
  });
  it('warns instead of failing when the early request was admitted but answered too slowly to tell', () => {
    const slow = { ...early(405), durationMs: 900 };
    const o = judgeRetryAfter({ fill, refusedAt, early: slow, onTime: onTime(405) }, PROFILE);
    expect(o.verdict, o.message).toBe('WARN');
    expect(o.message).toMatch(/took 900 ms: too late to show it too long/);
  });
  it('fails as too long when the early request is admitted', () => {
    const o = judgeRetryAfter({ fill, refusedAt, early: early(405), onTime: onTime(405) }, PROFILE);
    expect(o.verdict).toBe('FAIL');
    expect(o.message).toMatch(/too long/);
  });
});

describe('judgeRollingWindow (RL-04)', () => {
  const firstHalf = burst({ bucket: 'write', limit: 60, send: 30 });
  const secondHalf = burst({ bucket: 'write', limit: 60, send: 30, at: T0 + 30_000 });
  it('passes when exactly the first half frees one window later', () => {
    const o = judgeRollingWindow(
      {
        limit: 60,
        firstHalf,
        secondHalf,
        overflow: shot({ bucket: 'write', at: T0 + 30_100, status: 429 }),
        afterFirstHalfExpired: burst({ bucket: 'write', limit: 30, at: T0 + 60_250 }).slice(0, 31),
      },
      PROFILE,
    );
    expect(o.verdict, o.message).toBe('PASS');
  });
  it('fails when the whole limit frees at once (fixed window, boundary in the second half-window)', () => {
    const o = judgeRollingWindow(
      {
        limit: 60,
        firstHalf,
        secondHalf,
        overflow: shot({ bucket: 'write', at: T0 + 30_100, status: 429 }),
        afterFirstHalfExpired: burst({ bucket: 'write', limit: 60, at: T0 + 60_250 }),
      },
      PROFILE,
    );
    expect(o.verdict).toBe('FAIL');
    expect(o.message).toMatch(/60 requests were admitted .* not rolling/);
  });
  it('fails when the overflow is admitted (fixed window, boundary in the first half-window)', () => {
    const o = judgeRollingWindow(
      {
        limit: 60,
        firstHalf,
        secondHalf,
        overflow: shot({ bucket: 'write', at: T0 + 30_100, status: 405 }),
        afterFirstHalfExpired: burst({ bucket: 'write', limit: 30 }).slice(0, 31),
      },
      PROFILE,
    );
    expect(o.verdict).toBe('FAIL');
    expect(o.message).toMatch(/fixed clock-minute window/);
  });
  it('warns, never fails, when a stall sent the overflow a window after t0: the first half had left, and the overflow now counts in the second window', () => {
    // The half-window wait returned 31 s late (a starved machine): the overflow went out at t0 + 61 s and a correct window admitted it.
    const late = burst({ bucket: 'write', limit: 60, send: 30, at: T0 + 61_000 });
    const o = judgeRollingWindow(
      {
        limit: 60,
        firstHalf,
        secondHalf: late,
        overflow: shot({ bucket: 'write', at: T0 + 61_100, status: 201 }),
        afterFirstHalfExpired: burst({ bucket: 'write', limit: 29, at: T0 + 62_000 }).slice(0, 30),
      },
      PROFILE,
    );
    expect(o.verdict, o.message).toBe('WARN');
    expect(o.message).toMatch(
      /^request 61 was admitted, but its answer came 61\.10 s after the first of t0's went out \(a window is 60 s\): too late to show that the count restarted/,
    );
  });
  it('warns, never fails, when the burst after t0 + window was answered a window after the second half went out', () => {
    const o = judgeRollingWindow(
      {
        limit: 60,
        firstHalf,
        secondHalf,
        overflow: shot({ bucket: 'write', at: T0 + 30_100, status: 429 }),
        afterFirstHalfExpired: burst({ bucket: 'write', limit: 60, at: T0 + 90_500 }),
      },
      PROFILE,
    );
    expect(o.verdict, o.message).toBe('WARN');
    expect(o.message).toMatch(/too late to show they still counted/);
  });
});

describe('judgeBucketsApart (RL-05) and judgeAgenciesApart (RL-06)', () => {
  const writesFull = burst({ bucket: 'write', limit: 60 });
  const readsFull = burst({ bucket: 'read', limit: 600 });
  it('passes when each full bucket leaves the other admitting', () => {
    const o = judgeBucketsApart(
      {
        phases: [
          { filled: 'write', fill: writesFull, cross: shot({ bucket: 'read', at: T0 }) },
          { filled: 'read', fill: readsFull, cross: shot({ bucket: 'write', at: T0, status: 405 }) },
        ],
      },
      PROFILE,
    );
    expect(o.verdict, o.message).toBe('PASS');
  });
  it('fails when a full read bucket refuses a write', () => {
    const cross = shot({ bucket: 'write', at: T0, status: 429 });
    const o = judgeBucketsApart({ phases: [{ filled: 'read', fill: readsFull, cross }] }, PROFILE);
    expect(o.verdict).toBe('FAIL');
    expect(o.message).toMatch(/a write sent while the read bucket was full was refused/);
    expect(o.evidence).toContain(cross.exchangeId);
  });
  it('RL-06 passes when the second agency is admitted, fails when it is refused', () => {
    const ok = judgeAgenciesApart(
      { fill: writesFull, otherWrite: shot({ bucket: 'write', at: T0, status: 405, agency: 1 }), otherRead: shot({ bucket: 'read', at: T0, agency: 1 }) },
      PROFILE,
    );
    expect(ok.verdict, ok.message).toBe('PASS');
    const bad = judgeAgenciesApart(
      { fill: writesFull, otherWrite: shot({ bucket: 'write', at: T0, status: 429, agency: 1 }), otherRead: shot({ bucket: 'read', at: T0, agency: 1 }) },
      PROFILE,
    );
    expect(bad.verdict).toBe('FAIL');
    expect(bad.message).toMatch(/second agency .* refused/);
  });
});

describe('judgeRateLimitHeaders (RL-07)', () => {
  const read = burst({ bucket: 'read', limit: 600, send: 4 });
  it('passes on reference headers', () => {
    const o = judgeRateLimitHeaders({ limits, read, write: burst({ bucket: 'write', limit: 60 }) }, PROFILE);
    expect(o.verdict, o.message).toBe('PASS');
  });
  it('fails when the headers are missing', () => {
    const o = judgeRateLimitHeaders(
      { limits, read: burst({ bucket: 'read', limit: 600, send: 4, headers: false }), write: burst({ bucket: 'write', limit: 60, headers: false }) },
      PROFILE,
    );
    expect(o.verdict).toBe('FAIL');
    expect(o.message).toMatch(/x-ratelimit-limit missing/);
  });
  it('fails when Remaining is one too high', () => {
    const o = judgeRateLimitHeaders({ limits, read, write: burst({ bucket: 'write', limit: 60, remainingSkew: 1 }) }, PROFILE);
    expect(o.verdict).toBe('FAIL');
    expect(o.message).toMatch(/remaining is 60 after counting the request, but the limit is 60/);
    expect(o.message).toMatch(/said 1 write requests remained, but the next one was refused/);
  });
  it('fails when Resource names the wrong bucket', () => {
    const write = burst({ bucket: 'write', limit: 60 });
    for (const s of write) s.headers['x-ratelimit-resource'] = 'read';
    const o = judgeRateLimitHeaders({ limits, read, write }, PROFILE);
    expect(o.verdict).toBe('FAIL');
    expect(o.message).toMatch(/x-ratelimit-resource is "read", not "write"/);
  });
});

describe('judgeRefusalsNotCounted (RL-08)', () => {
  const fill = burst({ bucket: 'write', limit: 60 });
  const refused = [1, 2, 3].map((i) => shot({ bucket: 'write', at: T0 + 30_000 + i, status: 429 }));
  it('passes when the whole limit is back one window later', () => {
    const o = judgeRefusalsNotCounted({ limit: 60, fill, refused, after: burst({ bucket: 'write', limit: 60, at: T0 + 60_250 }) }, PROFILE);
    expect(o.verdict, o.message).toBe('PASS');
  });
  it('counts the requests admitted since the fill against the limit one window later', () => {
    const since = [shot({ bucket: 'write', at: T0 + 60_000, status: 405 }), shot({ bucket: 'write', at: T0 + 60_100, status: 405 })];
    const ok = judgeRefusalsNotCounted(
      { limit: 60, fill, refused, after: burst({ bucket: 'write', limit: 60, admits: 58, send: 59, at: T0 + 60_250 }), stillCounted: since },
      PROFILE,
    );
    expect(ok.verdict, ok.message).toBe('PASS');
    const bad = judgeRefusalsNotCounted(
      { limit: 60, fill, refused, after: burst({ bucket: 'write', limit: 60, admits: 53, send: 54, at: T0 + 60_250 }), stillCounted: since },
      PROFILE,
    );
    expect(bad.verdict).toBe('FAIL');
    expect(bad.message).toMatch(
      /only 53 of 58 requests were admitted \(the limit 60 less the 2 admitted since\): the 3 requests refused half a window earlier were counted/,
    );
  });
  it('no longer counts an admission since the fill once a window has passed over it', () => {
    const expired = [shot({ bucket: 'write', at: T0 - 5_000, status: 405 })];
    const ok = judgeRefusalsNotCounted(
      { limit: 60, fill, refused, after: burst({ bucket: 'write', limit: 60, at: T0 + 60_250 }), stillCounted: expired },
      PROFILE,
    );
    expect(ok.verdict, ok.message).toBe('PASS');
    const bad = judgeRefusalsNotCounted(
      { limit: 60, fill, refused, after: burst({ bucket: 'write', limit: 60, admits: 59, send: 60, at: T0 + 60_250 }), stillCounted: expired },
      PROFILE,
    );
    expect(bad.verdict).toBe('FAIL');
  });
  it('fails when the refusals were counted', () => {
    const o = judgeRefusalsNotCounted({ limit: 60, fill, refused, after: burst({ bucket: 'write', limit: 60, admits: 57, at: T0 + 60_250 }) }, PROFILE);
    expect(o.verdict).toBe('FAIL');
    expect(o.message).toMatch(/only 57 of 60 .* were counted/);
  });
});

describe('RL-08 in words a user understands', () => {
  const fill = burst({ bucket: 'write', limit: 60 });
  it('says a write probe answered 405 while the bucket was full got past the rate limit, and why that is wrong', () => {
    const refused = [
      shot({ bucket: 'write', at: T0 + 30_000, status: 429 }),
      { ...shot({ bucket: 'write', at: T0 + 30_001, status: 405 }), exchangeId: 'x-000121', code: 'METHOD_NOT_ALLOWED' },
    ];
    const o = judgeRefusalsNotCounted({ limit: 60, fill, refused, after: burst({ bucket: 'write', limit: 60, at: T0 + 60_250 }) }, PROFILE);
    expect(o.verdict).toBe('FAIL');
    expect(o.message).toContain(
      'half a window after the write bucket filled (60 admitted in its window), request x-000121 got past the rate limit: it was answered 405 METHOD_NOT_ALLOWED, the answer a write probe gets once admitted (its method does not apply to a booking that does not exist), not 429 RATE_LIMITED; the bucket was still full, so the service should have refused it: its limit was not enforced',
    );
    expect(o.message).not.toMatch(/\(405 METHOD_NOT_ALLOWED\) was admitted/);
  });
});

describe('a fill slower than the window (a starved machine): what its timing cannot show is a WARN, never a FAIL', () => {
  // 62 writes a second apart from an empty 60 s window: the first admissions leave it before the last are counted.
  const slow = burst({ bucket: 'write', limit: 60, admits: 62, send: 62, spacingMs: 1_000 });
  it('RL-01: more than the limit admitted over more than a window is too slow to show the limit', () => {
    const o = judgeExactLimit({ limits, read: burst({ bucket: 'read', limit: 600 }), write: slow }, PROFILE);
    expect(o.verdict, o.message).toBe('WARN');
    expect(o.message).toMatch(
      /^write bucket: 62 requests of a burst were admitted, the limit is 60, but from its first request sent to the answer of \S+ 60\.00 s passed, not less than the 60 s window/,
    );
  });
  it('RL-08: a fill never refused over more than a window is too slow to show it full', () => {
    const o = judgeRefusalsNotCounted({ limit: 60, fill: slow, refused: [], after: [] }, PROFILE);
    expect(o.verdict, o.message).toBe('WARN');
    expect(o.message).toMatch(/^the write bucket never refused a request \(62 sent, limit 60\), but from its first request/);
  });
  it('RL-07: Remaining rising once a window has passed since the first request is not judged against the one before', () => {
    // Remaining as a rolling window reports it: it falls to 0, then a slot frees each second once the first request left.
    const seq = slow.map((s, i) => ({
      ...s,
      headers: { ...s.headers, 'x-ratelimit-remaining': String(i < 60 ? 59 - i : 0), 'x-ratelimit-reset': i < 59 ? '0' : '1' },
    }));
    const o = judgeRateLimitHeaders({ limits, read: [], write: seq }, PROFILE);
    expect(o.verdict, o.message).toBe('WARN');
    expect(o.message).toMatch(/^write responses from \S+ on were not judged against the one before/);
  });
  it('the same fill within one window still fails RL-01 and RL-08', () => {
    const fast = burst({ bucket: 'write', limit: 60, admits: 62, send: 62 });
    expect(judgeExactLimit({ limits, read: burst({ bucket: 'read', limit: 600 }), write: fast }, PROFILE).verdict).toBe('FAIL');
    expect(judgeRefusalsNotCounted({ limit: 60, fill: fast, refused: [], after: [] }, PROFILE).verdict).toBe('FAIL');
  });
});
