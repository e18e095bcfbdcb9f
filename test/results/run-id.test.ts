import { describe, expect, it } from 'vitest';
import { newRunId, RUN_ID_PATTERN } from '../../src/results/run-id.js';

describe('newRunId', () => {
  it('formats UTC date and time plus a hex suffix', () => {
    expect(newRunId(new Date(Date.UTC(2026, 10, 21, 19, 45, 1)), 'ab12')).toBe('20261121-194501-ab12');
    expect(newRunId()).toMatch(RUN_ID_PATTERN);
  });

  it('sorts by time and differs within the same second', () => {
    const times = [Date.UTC(2025, 0, 1, 9, 5, 7), Date.UTC(2025, 0, 1, 10, 0, 0), Date.UTC(2026, 11, 31, 23, 59, 59)];
    const ids = times.map((t) => newRunId(new Date(t)));
    expect([...ids].reverse().sort()).toEqual(ids);
    const same = new Set(Array.from({ length: 20 }, () => newRunId(new Date(times[0] ?? 0))));
    expect(same.size).toBeGreaterThan(1);
  });
});
