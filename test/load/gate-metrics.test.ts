import { describe, expect, it } from 'vitest';
import { assertGateMetrics, splitGateMetric } from '../../src/load/gate/gate-metrics.js';
import { parseThresholds } from '../../src/load/gate/gates.js';
import { loadMetricLookup } from '../../src/load/gate/load-metrics.js';
import { sampleLoadResult } from './_load-result.js';

describe('gate metrics', () => {
  it('split into the run or an operation, dotted operation names included', () => {
    expect(splitGateMetric('429.rate')).toEqual({ scope: 'run', name: '429.rate' });
    expect(splitGateMetric('push.search.p99')).toEqual({ scope: 'operation', op: 'push.search', key: 'p99' });
    expect(splitGateMetric('book.errors.rate')).toEqual({ scope: 'operation', op: 'book', key: 'errors.rate' });
    expect(splitGateMetric('latency.p99.9')).toEqual({ scope: 'operation', op: 'latency', key: 'p99_9' });
    expect(splitGateMetric('foo')).toBeUndefined();
    expect(splitGateMetric('search.p95x')).toBeUndefined();
  });

  it('are checked before any load: every wrong one named at once, with every metric that exists', () => {
    expect(() => assertGateMetrics(parseThresholds(['rps>=1', 'search.mean<5', 'latency.count>1', 'search.429.rate<0.5', 'push.book.p95<9']))).not.toThrow();
    let message = '';
    try {
      assertGateMetrics(parseThresholds(['foo<1', 'rps>=1', 'serch.p95<2', 'search.p95x<3']));
    } catch (err) {
      expect((err as { code: string }).code).toBe('E_USAGE');
      message = (err as Error).message;
    }
    expect(message).toContain('"foo" (in foo<1)');
    expect(message).toContain('"serch.p95"');
    expect(message).toContain('"search.p95x"');
    expect(message).not.toContain('"rps"');
    for (const m of ['mean', 'count', '429.rate', 'p99_9', 'search', 'push.search']) expect(message).toContain(m);
  });

  it('are looked up in a result: run figures, per operation, mean and 429 counts', () => {
    const r = sampleLoadResult(14);
    const look = loadMetricLookup(r);
    expect(look('requests')).toBe(14);
    expect(look('429.count')).toBe(2);
    expect(look('search.count')).toBe(14);
    expect(look('search.429.rate')).toBeCloseTo(2 / 14);
    expect(look('latency.mean')).toBeGreaterThan(0);
    expect(look('book.p95')).toBeUndefined();
  });

  it('name one outcome of an operation: the 2xx latency gated apart from fast 429s', () => {
    expect(splitGateMetric('search.2xx.p95')).toEqual({ scope: 'operation', op: 'search', key: 'p95', outcome: '2xx' });
    expect(splitGateMetric('push.search.429.p99.9')).toEqual({ scope: 'operation', op: 'push.search', key: 'p99_9', outcome: '429' });
    expect(splitGateMetric('latency.other.count')).toEqual({ scope: 'operation', op: 'latency', key: 'count', outcome: 'other' });
    expect(splitGateMetric('search.429.rate')).toEqual({ scope: 'operation', op: 'search', key: '429.rate' });
    expect(() => assertGateMetrics(parseThresholds(['search.2xx.p95<200ms', 'latency.429.max<1s']))).not.toThrow();
    expect(() => assertGateMetrics(parseThresholds(['search.2xx.rps>1']))).toThrow(/unknown gate metric "search\.2xx\.rps"/);
    // sampleLoadResult: 20 searches in 5 ms, every 7th a 429.
    const look = loadMetricLookup(sampleLoadResult(20));
    expect(look('search.2xx.count')).toBe(17);
    expect(look('latency.429.count')).toBe(3);
    expect(look('search.2xx.p95')).toBeCloseTo(5, 1);
    expect(look('search.other.p95')).toBeUndefined();
    const old = sampleLoadResult(20);
    delete old.operations.search!.latencyByOutcome;
    expect(loadMetricLookup(old)('search.2xx.p95')).toBeUndefined();
  });
});
