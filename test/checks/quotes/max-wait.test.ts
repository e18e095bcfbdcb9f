import { afterEach, describe, expect, it } from 'vitest';
import { expiredQuoteCheck } from '../../../src/checks/quotes/expired-quote.js';
import { RealClockDriver } from '../../../src/clock/real-clock-driver.js';
import type { RunEvent } from '../../../src/runner/run-events.js';
import { runSuite } from '../../../src/runner/run-suite.js';
import { startContext, type TestContext } from '../../scenario/_context.js';

/** A quote lifetime short enough for a test, and a bound shorter still. */
const LIFETIME_S = 2;
const MAX_WAIT_MS = 1_000;
const SKIPPED = 'waits 2 s in real time for the quote to expire, over --max-wait 1 s (raise --max-wait to wait it)';

let t: TestContext | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('QT-02 and --max-wait: the one rule for long waits in real time', () => {
  it('skips in real time when the quote lifetime it waits out is over the bound, naming the bound and the flag', async () => {
    t = await startContext({ quoteLifetimeS: LIFETIME_S });
    const started = Date.now();
    const out = await expiredQuoteCheck.run({ ...t.ctx, clock: new RealClockDriver(), maxWaitMs: MAX_WAIT_MS });
    expect(out).toMatchObject({ verdict: 'SKIP', message: SKIPPED });
    expect(Date.now() - started).toBeLessThan(LIFETIME_S * 1000);
  });

  it('waits the same lifetime out by moving the clock when the harness has clock control: the bound does not apply', async () => {
    t = await startContext({ quoteLifetimeS: LIFETIME_S });
    const out = await expiredQuoteCheck.run({ ...t.ctx, maxWaitMs: MAX_WAIT_MS });
    expect(out.verdict, out.message).toBe('PASS');
  });

  it('is skipped by the runner before it starts, and left out of the announced real-time estimate', async () => {
    t = await startContext({ quoteLifetimeS: LIFETIME_S });
    const events: RunEvent[] = [];
    const result = await runSuite({
      profile: t.ctx.profile,
      agencies: t.ctx.agencies,
      checks: [expiredQuoteCheck],
      clock: new RealClockDriver(),
      maxWaitMs: MAX_WAIT_MS,
      onEvent: (e) => void events.push(e),
    });
    const qt02 = result.cases.find((c) => c.id === 'QT-02')!;
    expect(qt02).toMatchObject({ verdict: 'SKIP', message: SKIPPED });
    // The runner read the lifetime from the mock's answers (2 s) and planned nothing for the wait it skips.
    const plan = events.find((e) => e.type === 'plan');
    expect(plan).toMatchObject({ mode: 'real-time' });
    expect((plan as { estimateMs: number }).estimateMs).toBeLessThan(LIFETIME_S * 1000);
    expect(result.exchanges.filter((x) => x.label?.startsWith('QT-02'))).toEqual([]);
  });
});
