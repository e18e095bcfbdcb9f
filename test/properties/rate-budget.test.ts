import { describe, expect, it } from 'vitest';
import type { ApiResponse } from '../../src/api/types.js';
import { VirtualClockDriver } from '../../src/clock/virtual-clock-driver.js';
import { RateBudget } from '../../properties/_internal/rate-budget.js';

/** A response that reports `remaining` slots of the write bucket, the next freeing in `resetS`. */
const answer = (remaining: number, resetS: number): ApiResponse => ({ rateLimit: { remaining, resetS, resource: 'write' } }) as unknown as ApiResponse;

describe('a property rate budget making room', () => {
  it('waits for requests about to leave the window and measures again, rather than a whole window', async () => {
    const clock = new VirtualClockDriver(0);
    const budget = new RateBudget(clock, { read: 600, write: 60 }, 60_000, { read: 'read', write: 'write' });
    budget.observe(answer(20, 1), 'write');
    let measured = 0;
    const waitedWindow = await budget.room({ write: 30 }, async () => {
      measured += 1;
      // a second later the burst sent a window ago has left it
      budget.observe(answer(55, 60), 'write');
    });
    expect(waitedWindow).toBe(false);
    expect(measured).toBe(1);
    expect(clock.now()).toBe(1_250);
    clock.stop();
  });

  it('says why it waits a whole window: the short bucket, its count as last read, and what was needed', async () => {
    const clock = new VirtualClockDriver(0);
    const lines: string[] = [];
    const budget = new RateBudget(clock, { read: 600, write: 60 }, 60_000, { read: 'read', write: 'write' }, 2, (l) => lines.push(l));
    budget.observe(answer(10, 40), 'write');
    await budget.ensure({ read: 4, write: 30 });
    // The read bucket was never read: it counts as full.
    expect(lines).toEqual([
      'waiting a window: the read bucket at 600 of 600 as last counted, 4 more needed and 2 kept in reserve; the write bucket at 50 of 60 as last counted, 30 more needed and 2 kept in reserve',
    ]);
    clock.stop();
  });

  it('waits a whole window when no slot frees soon, or when measuring again still leaves it short', async () => {
    const clock = new VirtualClockDriver(0);
    const budget = new RateBudget(clock, { read: 600, write: 60 }, 60_000, { read: 'read', write: 'write' });
    budget.observe(answer(10, 40), 'write');
    expect(await budget.room({ write: 30 }, () => Promise.reject(new Error('not measured: nothing frees soon')))).toBe(true);
    expect(clock.now()).toBe(61_000);
    budget.observe(answer(10, 1), 'write');
    let measured = 0;
    const started = clock.now();
    expect(
      await budget.room({ write: 30 }, async () => {
        measured += 1;
        budget.observe(answer(11, 1), 'write');
      }),
    ).toBe(true);
    expect(measured).toBe(3);
    expect(clock.now() - started).toBe(3 * 1_250 + 61_000);
    clock.stop();
  });
});
