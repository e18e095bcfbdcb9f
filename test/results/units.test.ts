import { describe, expect, it } from 'vitest';
import { formatGateValue } from '../../src/results/gate-units.js';
import { formatDecimal, formatMoney, groupThousands } from '../../src/results/units.js';

describe('numbers as the reports print them', () => {
  it('group thousands with a space, sign and decimals kept', () => {
    expect(groupThousands('7531')).toBe('7 531');
    expect(groupThousands('-5818.00')).toBe('-5 818.00');
    expect(groupThousands('1234567.8912')).toBe('1 234 567.8912');
    expect(groupThousands('999')).toBe('999');
    expect(formatDecimal(5398.527, 1)).toBe('5 398.5');
    expect(formatDecimal(11, 1)).toBe('11');
  });

  it('show money from minor units in its currency, with the currency’s own decimals', () => {
    expect(formatMoney(-581_800, 'EUR')).toBe('-5 818.00 EUR');
    expect(formatMoney(5, 'GBP')).toBe('0.05 GBP');
    expect(formatMoney(120_000, 'JPY')).toBe('120 000 JPY');
    expect(formatMoney(1_234_567, 'KWD')).toBe('1 234.567 KWD');
    // Without a currency code the decimals are unknown: the minor units as received, said to be minor units.
    expect(formatMoney(650)).toBe('650 (minor units)');
    expect(formatMoney(650, '<b>')).toBe('650 (minor units)');
  });

  it('give each gate metric its unit', () => {
    expect(formatGateValue('search.p95', 11.27)).toBe('11.3 ms');
    expect(formatGateValue('latency.p99_9', 1234.56)).toBe('1 234.6 ms');
    expect(formatGateValue('errors.rate', 0.0001)).toBe('0.01%');
    // A small rate keeps two significant digits, so a bound reads as itself (`bound < 0.001%`, not `bound < < 0.01%`).
    expect(formatGateValue('errors.rate', 0.00001)).toBe('0.001%');
    expect(formatGateValue('errors.rate', 0.0000123)).toBe('0.0012%');
    expect(formatGateValue('errors.rate', 1e-9)).toBe('0.0000001%');
    expect(formatGateValue('rps', 7531.4)).toBe('7 531 rps');
    expect(formatGateValue('push.search.rps', 12.34)).toBe('12.3 rps');
    expect(formatGateValue('requests', 452_772)).toBe('452 772');
  });
});
