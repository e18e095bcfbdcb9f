import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { settledProperty } from '../../properties/_internal/settled-property.js';
import { runProperties } from '../../properties/index.js';
import type { Check } from '../../src/checks/types.js';
import { waitOutRefusals } from '../../src/checks/wait-out-refusals.js';
import { OverMaxWaitError, refusedWaitOf } from '../../src/clock/max-wait.js';
import { RealClockDriver } from '../../src/clock/real-clock-driver.js';
import { generateAgencies } from '../../src/mock/fixture/generate-agencies.js';
import { runCheck } from '../../src/runner/run-check.js';
import { startContext, type TestContext } from '../scenario/_context.js';

/** A bound far shorter than the 60 s window the refusals below would have the harness wait. */
const MAX_WAIT_MS = 1_000;
const OVER =
  /^waits \d+(\.\d)? s in real time for (the Retry-After of a 429|a window, both buckets to empty), over --max-wait 1 s \(raise --max-wait to wait it\)$/;

let t: TestContext | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** Three reads a minute: the fourth is refused with a Retry-After of most of the window. */
function tightLimits(): Promise<TestContext> {
  return startContext({ fixture: { agencies: generateAgencies(2, { limits: { read: 3, write: 2 } }) } });
}

/** A check whose fourth read meets a refusal it waits out, as every flow step does. */
const fourReads: Check = {
  id: 'XX-01',
  title: 'four reads',
  area: 'ratelimit',
  clause: '',
  needs: [],
  async run(ctx) {
    for (let i = 0; i < 4; i++) await waitOutRefusals(ctx, () => ctx.api(0).balance());
    return { verdict: 'PASS', message: 'four reads answered' };
  },
};

describe('--max-wait holds for the waits a case meets on its way (a Retry-After, a window to free), not only for those it plans', () => {
  it('a Retry-After over the bound is not waited in real time: the check is a SKIP naming the bound, at once', async () => {
    t = await tightLimits();
    const started = Date.now();
    const r = await runCheck(fourReads, { ...t.ctx, clock: new RealClockDriver(), maxWaitMs: MAX_WAIT_MS }, 30_000);
    expect(r.verdict, r.message).toBe('SKIP');
    expect(r.message).toMatch(OVER);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('with clock control the same Retry-After is waited out by moving the clock: the bound does not apply', async () => {
    t = await tightLimits();
    const r = await runCheck(fourReads, { ...t.ctx, maxWaitMs: MAX_WAIT_MS }, 30_000);
    expect(r.verdict, r.message).toBe('PASS');
  });

  it('a property that must wait a window for its writes is a SKIP naming the bound, not an ERROR', async () => {
    t = await tightLimits();
    const started = Date.now();
    const [r] = await runProperties({ ...t.ctx, clock: new RealClockDriver(), maxWaitMs: MAX_WAIT_MS }, { seed: 3, only: ['idempotency-model'], numRuns: 5 });
    expect(r!.verdict, r!.message).toBe('SKIP');
    expect(r!.message).toMatch(OVER);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('a refused wait ends the property: no shrinking sends the requests of a run again', async () => {
    let runs = 0;
    const inner = fc.asyncProperty(fc.integer({ min: 0, max: 1_000_000 }), async (n) => {
      runs += 1;
      // As a request's transport error carries it: the refused wait is the cause.
      if (n >= 0) throw new Error('request failed', { cause: new OverMaxWaitError('waits 60 s in real time for x, over --max-wait 1 s') });
    });
    const { property } = settledProperty(inner);
    const details = await fc.check(property, { seed: 1, numRuns: 20 });
    expect(details.failed).toBe(true);
    expect(refusedWaitOf(details.errorInstance)?.message).toBe('waits 60 s in real time for x, over --max-wait 1 s');
    expect(runs).toBe(1);
  });
});
