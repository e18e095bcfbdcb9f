import { describe, expect, it } from 'vitest';
import { evaluateThresholds, parseThreshold, parseThresholds } from '../../src/load/gate/gates.js';

describe('thresholds', () => {
  it.each([
    ['search.p95<200ms', { metric: 'search.p95', comparator: '<', value: 200 }],
    ['errors.rate<0.01', { metric: 'errors.rate', comparator: '<', value: 0.01 }],
    ['rps>=500', { metric: 'rps', comparator: '>=', value: 500 }],
    ['book.p99 <= 1.5s', { metric: 'book.p99', comparator: '<=', value: 1500 }],
    ['limited.rate<5%', { metric: 'limited.rate', comparator: '<', value: 0.05 }],
  ])('parses %s', (text, expected) => {
    expect(parseThreshold(text)).toMatchObject(expected);
  });

  it.each(['p95 200', 'search.p95<', '<200', 'rps=>5', 'x<abc'])('refuses %s with a usage error quoting it', (text) => {
    expect(() => parseThreshold(text)).toThrow(new RegExp(`threshold "${text.replace(/[.*+?^${}()|[\]\\<>]/g, '\\$&')}"`));
  });

  it('reads a file body: comments, blanks and commas', () => {
    const t = parseThresholds(['# gates', 'search.p95<200ms, rps>=10', '', 'errors.rate<0.01 # none']);
    expect(t.map((x) => x.metric)).toEqual(['search.p95', 'rps', 'errors.rate']);
  });

  it('passes and fails on the measured value, and fails an unknown metric', () => {
    const values: Record<string, number> = { 'search.p95': 150, rps: 400 };
    const r = evaluateThresholds(parseThresholds(['search.p95<200ms', 'rps>=500', 'nope.p50<1']), (m) => values[m], Object.keys(values));
    expect(r.map((g) => g.passed)).toEqual([true, false, false]);
    expect(r[2]!.message).toContain('was not measured');
  });
});
