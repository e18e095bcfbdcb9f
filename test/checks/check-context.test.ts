import { describe, expect, it } from 'vitest';
import { checkContext, type RunScope } from '../../src/checks/check-context.js';
import { createRunCache, RunCacheKey } from '../../src/checks/run-cache.js';
import type { WebhookPoint } from '../../src/results/model.js';

describe('run cache', () => {
  it('makes a value once per key and run, and keeps runs apart', () => {
    const key = new RunCacheKey<{ n: number }>('counter');
    const run1 = createRunCache();
    let made = 0;
    const a = run1.getOrCreate(key, () => ({ n: ++made }));
    const b = run1.getOrCreate(key, () => ({ n: ++made }));
    expect(b).toBe(a);
    expect(made).toBe(1);
    const other = createRunCache().getOrCreate(key, () => ({ n: ++made }));
    expect(other).not.toBe(a);
    expect(made).toBe(2);
  });

  it('compares keys by identity, not by name', () => {
    const cache = createRunCache();
    const one = cache.getOrCreate(new RunCacheKey<string>('same name'), () => 'first');
    const two = cache.getOrCreate(new RunCacheKey<string>('same name'), () => 'second');
    expect([one, two]).toEqual(['first', 'second']);
  });
});

describe('checkContext', () => {
  function scope(points: WebhookPoint[]): RunScope {
    return {
      runCache: createRunCache(),
      timeline: { rateLimit: () => undefined, webhook: (p: WebhookPoint) => points.push(p) },
    } as unknown as RunScope;
  }

  it('prefixes labels with the running check id', () => {
    const ctx = checkContext(scope([]), 'ID-01');
    expect(ctx.checkId).toBe('ID-01');
    expect(ctx.label('replay')).toBe('ID-01 replay');
    expect(ctx.label('')).toBe('ID-01');
  });

  it('attributes webhook points to the running check unless they name one', () => {
    const points: WebhookPoint[] = [];
    const run = scope(points);
    const at = { at: 1, eventId: 'evt_1', attempt: 1, status: 500, scheme: 'service' } as const;
    checkContext(run, 'WH-02').timeline.webhook(at);
    checkContext(run, 'WH-03').timeline.webhook({ ...at, check: 'WH-02' });
    expect(points.map((p) => p.check)).toEqual(['WH-02', 'WH-02']);
  });

  it('shares one run cache between the checks of a run', () => {
    const run = scope([]);
    const key = new RunCacheKey<object>('scenario');
    const made = checkContext(run, 'WH-01').runCache.getOrCreate(key, () => ({}));
    expect(checkContext(run, 'WH-02').runCache.getOrCreate(key, () => ({}))).toBe(made);
  });
});
