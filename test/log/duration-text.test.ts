import { describe, expect, it } from 'vitest';
import { durationText } from '../../src/log/duration-text.js';

describe('durationText: one style for every duration the harness prints or renders', () => {
  it('counts milliseconds, then whole seconds, minutes and hours, never padding a figure', () => {
    expect([850, 999.6, 12_400, 59_499, 59_500, 185_000, 240_000, 3_600_000, 7_500_000].map((ms) => durationText(ms))).toEqual([
      '850 ms',
      '1 s',
      '12 s',
      '59 s',
      '1 min',
      '3 min 5 s',
      '4 min',
      '1 h',
      '2 h 5 min',
    ]);
  });

  it('keeps tenths of a second under a minute when asked, and rounds up into minutes at the edge', () => {
    expect([7_240, 12_400, 59_940, 59_960, 65_000].map((ms) => durationText(ms, { tenths: true }))).toEqual([
      '7.2 s',
      '12.4 s',
      '59.9 s',
      '1 min',
      '1 min 5 s',
    ]);
  });

  it('says a duration that is not one with a dash', () => {
    expect([-1, Number.NaN, Number.POSITIVE_INFINITY].map((ms) => durationText(ms))).toEqual(['–', '–', '–']);
  });
});
