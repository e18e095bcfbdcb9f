import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { settledProperty } from '../../properties/_internal/settled-property.js';

describe('a property cut short by its time limit', () => {
  it('has its run in progress waited for: fast-check alone returns while the run still sends', async () => {
    let running = 0;
    let ended = 0;
    const slow = () =>
      fc.asyncProperty(fc.nat(), async () => {
        running += 1;
        await new Promise((r) => setTimeout(r, 150));
        ended += 1;
      });
    const params = { numRuns: 5, interruptAfterTimeLimit: 40, markInterruptAsFailure: false };

    // fast-check alone: interrupted, it returns with the run still going
    const bare = await fc.check(slow(), params);
    expect(bare.interrupted).toBe(true);
    expect(running - ended).toBe(1);
    await new Promise((r) => setTimeout(r, 200));

    running = 0;
    ended = 0;
    const runs = settledProperty(slow());
    const details = await fc.check(runs.property, params);
    expect(details.interrupted).toBe(true);
    await runs.settled();
    expect(running).toBeGreaterThanOrEqual(1);
    expect(ended).toBe(running);
  });

  it('settles at once when nothing runs, and after a failing run', async () => {
    await expect(settledProperty(fc.asyncProperty(fc.nat(), async () => undefined)).settled()).resolves.toBeUndefined();
    const failing = settledProperty(
      fc.asyncProperty(fc.nat(), async () => {
        throw new Error('no');
      }),
    );
    const details = await fc.check(failing.property, { numRuns: 3 });
    expect(details.failed).toBe(true);
    await expect(failing.settled()).resolves.toBeUndefined();
  });
});
