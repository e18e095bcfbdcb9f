import { describe, expect, it } from 'vitest';
import { announcedClock } from '../../src/runner/announced-clock.js';
import type { ClockDriver } from '../../src/clock/clock-driver.js';
import type { RunEvent } from '../../src/runner/run-events.js';

/** A clock that records the waits it was asked for and makes none. */
function fakeClock(kind: 'real' | 'mock'): ClockDriver & { waits: Array<[number, string | undefined]> } {
  const waits: Array<[number, string | undefined]> = [];
  return {
    kind,
    waits,
    now: () => 1_000_000,
    fineUntil: () => undefined,
    waitUntil: async (instant, why) => void waits.push([instant - 1_000_000, why]),
    wait: async (ms, why) => void waits.push([ms, why]),
  };
}

describe('announcedClock', () => {
  it('in real time announces every wait of a second or more, with who waits and what for, and waits as asked', async () => {
    const events: RunEvent[] = [];
    const real = fakeClock('real');
    const clock = announcedClock(real, 'RL-04', (e) => events.push(e));
    await clock.wait(58_000, 'the rate-limit window to roll on');
    await clock.waitUntil(1_002_500);
    await clock.wait(999, 'too short to tell');
    expect(events).toEqual([
      { type: 'waiting', ms: 58_000, reason: 'RL-04 waits for the rate-limit window to roll on' },
      { type: 'waiting', ms: 2500, reason: 'RL-04 lets time pass at the target' },
    ]);
    expect(real.waits).toEqual([
      [58_000, 'the rate-limit window to roll on'],
      [2500, undefined],
      [999, 'too short to tell'],
    ]);
  });

  it('tells waits side by side for one reason once, and again only for one that ends a second or more later', async () => {
    const events: RunEvent[] = [];
    const clock = announcedClock(fakeClock('real'), 'properties', (e) => events.push(e));
    await Promise.all([9_000, 9_000, 11_000, 11_400, 6_000, 14_000, 3_000].map((ms) => clock.wait(ms, 'the quotes to near or pass their expiry')));
    await clock.wait(5_000, 'something else');
    expect(events.map((e) => (e.type === 'waiting' ? `${e.ms} ${e.reason}` : e.type))).toEqual([
      '9000 properties waits for the quotes to near or pass their expiry',
      '11000 properties waits for the quotes to near or pass their expiry',
      '14000 properties waits for the quotes to near or pass their expiry',
      '5000 properties waits for something else',
    ]);
  });

  it('a driven clock moves at once: it is handed back as it is, announcing nothing', () => {
    const mock = fakeClock('mock');
    expect(announcedClock(mock, 'RL-04', () => expect.unreachable())).toBe(mock);
  });
});
