import { describe, expect, it } from 'vitest';
import { hasRateLimitHeaders, parseNonNegativeInt, parseRateLimit, parseRetryAfter } from '../../src/client/rate-limit.js';
import { DEFAULT_PROFILE } from '../../src/profile/defaults.js';

const NOW = Date.UTC(2026, 10, 21, 10, 15, 0, 250);

describe('parseNonNegativeInt', () => {
  it.each([
    ['0', 0],
    ['60', 60],
    [' 7 ', 7],
    ['007', 7],
    ['-1', undefined],
    ['1.5', undefined],
    ['1e3', undefined],
    ['', undefined],
    ['abc', undefined],
    ['0x10', undefined],
    ['99999999999999999999', undefined],
    [undefined, undefined],
  ])('%j → %j', (raw, want) => {
    expect(parseNonNegativeInt(raw)).toBe(want);
  });
});

describe('parseRetryAfter', () => {
  it.each([
    ['12', 12],
    ['0', 0],
    ['-3', undefined],
    ['2.5', undefined],
    ['soon', undefined],
    ['', undefined],
    // HTTP-date, 9.75 s after NOW: rounded up.
    ['Sat, 21 Nov 2026 10:15:10 GMT', 10],
    // RFC 850 and asctime forms of the same instant.
    ['Saturday, 21-Nov-26 10:15:10 GMT', 10],
    ['Sat Nov 21 10:15:10 2026', 10],
    // A date already past gives 0, never negative.
    ['Sat, 21 Nov 2026 10:14:00 GMT', 0],
    ['Sat, 99 Foo 2026 10:15:10 GMT', undefined],
  ])('%j → %j', (raw, want) => {
    expect(parseRetryAfter(raw, NOW)).toBe(want);
  });
});

describe('parseRateLimit', () => {
  const names = DEFAULT_PROFILE.headers;

  it('reads every header by the profile names', () => {
    const info = parseRateLimit(
      { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '17', 'x-ratelimit-resource': 'write', 'retry-after': '17' },
      names,
      NOW,
    );
    expect(info).toEqual({ limit: 60, remaining: 0, resetS: 17, resource: 'write', retryAfterS: 17, retryAfterRaw: '17' });
  });

  it('gives an empty object when nothing is there', () => {
    expect(parseRateLimit({}, names, NOW)).toEqual({});
    expect(hasRateLimitHeaders({}, names)).toBe(false);
  });

  it('leaves malformed values undefined but keeps the raw Retry-After', () => {
    const headers = {
      'x-ratelimit-limit': 'lots',
      'x-ratelimit-remaining': '-1',
      'x-ratelimit-reset': '0.5',
      'x-ratelimit-resource': '  ',
      'retry-after': '1.5',
    };
    expect(parseRateLimit(headers, names, NOW)).toEqual({ retryAfterRaw: '1.5' });
    expect(hasRateLimitHeaders(headers, names)).toBe(true);
  });

  it('follows renamed headers', () => {
    const renamed = { ...names, ratelimit_limit: 'ratelimit-limit', retry_after: 'x-retry-in' };
    const info = parseRateLimit({ 'ratelimit-limit': '5', 'x-ratelimit-limit': '99', 'x-retry-in': '3' }, renamed, NOW);
    expect(info.limit).toBe(5);
    expect(info.retryAfterS).toBe(3);
  });
});
