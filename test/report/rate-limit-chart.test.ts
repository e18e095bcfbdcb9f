import { describe, expect, it } from 'vitest';
import { inUseSeries } from '../../src/report/html/rate-limit-chart.js';
import type { RateLimitPoint } from '../../src/report/model.js';

const pt = (at: number, status: number, remaining?: number, limit = 3): RateLimitPoint => ({ at, agency: 'a', bucket: 'read', status, limit, ...(remaining !== undefined ? { remaining } : {}) });

describe('rate-limit timeline', () => {
  it('plots what the service reports in use (limit − remaining), a refusal at the limit', () => {
    const s = inUseSeries([pt(0, 200, 2), pt(10, 200, 1), pt(20, 200, 0), pt(30, 429, 0), pt(60_001, 200, 2)]);
    expect(s.map((d) => d.y)).toEqual([1, 2, 3, 3, 1]);
  });

  it('counts the admitted requests of the last window when no Remaining is reported, so an over-admission rises above the limit', () => {
    const s = inUseSeries([pt(0, 200), pt(10, 200), pt(20, 200), pt(30, 200), pt(70_000, 200)]);
    expect(s.map((d) => d.y)).toEqual([1, 2, 3, 4, 1]);
  });
});
