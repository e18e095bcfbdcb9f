import { afterEach, describe, expect, it } from 'vitest';
import { propertiesRealTimeMs, propertiesRequests, runProperties } from '../../properties/index.js';
import { RealClockDriver } from '../../src/clock/real-clock-driver.js';
import { startContext, type TestContext } from '../scenario/_context.js';

/** A quote lifetime short enough for a test, and a bound shorter still. */
const LIFETIME_S = 2;
const MAX_WAIT_MS = 1_000;

let t: TestContext | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('quote-lock and --max-wait', () => {
  it('skips in real time when the quote lifetime it waits out is over the bound, naming the bound and the flag', async () => {
    t = await startContext({ quoteLifetimeS: LIFETIME_S });
    const started = Date.now();
    const [r] = await runProperties({ ...t.ctx, clock: new RealClockDriver(), maxWaitMs: MAX_WAIT_MS }, { seed: 3, only: ['quote-lock'] });
    expect(r).toMatchObject({
      id: 'property:quote-lock',
      verdict: 'SKIP',
      message: 'waits 2 s in real time for its quotes to expire, over --max-wait 1 s (raise --max-wait to wait it)',
    });
    expect(Date.now() - started).toBeLessThan(LIFETIME_S * 1000);
  });

  it('runs with clock control whatever the bound', async () => {
    t = await startContext({ quoteLifetimeS: LIFETIME_S });
    const [r] = await runProperties({ ...t.ctx, maxWaitMs: MAX_WAIT_MS }, { seed: 3, only: ['quote-lock'], numRuns: 3 });
    expect(r!.verdict, r!.message).toBe('PASS');
  });

  it('is planned by the same bound: no time and no requests over it, its quote lifetime within it', () => {
    const plan = { only: ['quote-lock'], windowMs: 60_000, writeLimit: 60, requestMs: 10, quoteLifetimeS: 900 };
    // Quotes of 900 s are over the default 120 s: nothing planned; with --max-wait 900 they are waited out.
    expect(propertiesRealTimeMs(plan)).toBe(0);
    expect(propertiesRealTimeMs({ ...plan, maxWaitMs: 900_000 })).toBeGreaterThan(900_000);
    // Quotes of 200 s (within the 300 s quote-lock once had of its own) are over the default bound too.
    expect(propertiesRealTimeMs({ ...plan, quoteLifetimeS: 200 })).toBe(0);
    const requests = { only: ['quote-lock'], writeLimit: 60, windowMs: 60_000, quoteLifetimeS: 900 };
    expect(propertiesRequests(requests)).toEqual([{ name: 'quote-lock', read: 0, write: 0 }]);
    expect(propertiesRequests({ ...requests, maxWaitMs: 900_000 })[0]!.read).toBeGreaterThan(0);
  });
});
