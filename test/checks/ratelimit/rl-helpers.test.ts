import { describe, expect, it } from 'vitest';
import { waitUntil, writeProbeRequest } from '../../../src/checks/_internal/rl-probes.js';
import type { CheckContext } from '../../../src/checks/types.js';
import { admittedBeforeRefusal, rlHeaders } from '../../../src/checks/_internal/rl-shot.js';
import { expectedGapMs, retrySpanMs, whQueueWaitMs } from '../../../src/checks/_internal/wh-scenario.js';
import { burst, PROFILE, shot, T0 } from '../_fixtures-rl-wh.js';

describe('rate-limit helpers', () => {
  it('the write probe uses a method the booking lookup does not take, on its path', () => {
    expect(writeProbeRequest(PROFILE, 'bk_nope')).toEqual({ method: 'POST', path: '/flights/bookings/bk_nope' });
    const postLookup = { ...PROFILE, operations: { ...PROFILE.operations, get_booking: { method: 'POST', path: '/lookup/{product}/{booking_id}' } } };
    expect(writeProbeRequest(postLookup, 'a b')).toEqual({ method: 'PUT', path: '/lookup/flights/a%20b' });
  });

  it('reads headers by the profile names and refuses malformed numbers', () => {
    const renamed = { ...PROFILE, headers: { ...PROFILE.headers, ratelimit_limit: 'ratelimit-limit' } };
    const s = shot({ bucket: 'read', at: T0, headers: { 'ratelimit-limit': '10', 'x-ratelimit-remaining': '-1', 'x-ratelimit-resource': ' read ' } });
    const f = rlHeaders(s, renamed);
    expect(f.limit).toBe(10);
    expect(f.remaining).toBeUndefined();
    expect(f.raw.remaining).toBe('-1');
    expect(f.resource).toBe('read');
  });

  it('counts admitted requests up to the first refusal', () => {
    expect(admittedBeforeRefusal(burst({ bucket: 'write', limit: 5 }), PROFILE)).toBe(5);
    expect(admittedBeforeRefusal(burst({ bucket: 'write', limit: 5, admits: 9, send: 3 }), PROFILE)).toBe(3);
  });
});

describe('webhook schedule helpers', () => {
  it('follows the profile schedule', () => {
    expect(expectedGapMs(PROFILE, 1)).toBe(5_000);
    expect(expectedGapMs(PROFILE, 2)).toBe(15_000);
    expect(retrySpanMs(PROFILE)).toBe(20_000);
    const other = { ...PROFILE, webhooks: { ...PROFILE.webhooks, base_ms: 1_000, factor: 2, max_attempts: 4 } };
    expect(retrySpanMs(other)).toBe(7_000);
  });
  it('a webhook check may wait behind every scenario of its scheme', () => {
    expect(whQueueWaitMs('service', PROFILE)).toBeGreaterThan(113_000);
    expect(whQueueWaitMs('hotel', PROFILE)).toBeGreaterThan(20_000);
  });
});

describe('rate-limit waits', () => {
  it('never asks the clock for more than about one window', async () => {
    const waits: number[] = [];
    const ctx = { profile: PROFILE, clock: { kind: 'real', now: () => 0, wait: async (ms: number) => void waits.push(ms) } } as unknown as CheckContext;
    await waitUntil(ctx, 60_250);
    await expect(waitUntil(ctx, 2_000_000_000)).rejects.toThrow(/more than one window/);
    await expect(waitUntil(ctx, Number.NaN)).rejects.toThrow(/more than one window/);
    expect(waits).toEqual([60_250]);
  });
});
