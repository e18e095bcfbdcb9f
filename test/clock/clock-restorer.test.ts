import { describe, expect, it } from 'vitest';
import type { AdminClient } from '../../src/clock/admin-client.js';
import { ClockRestorer } from '../../src/clock/clock-restorer.js';

function fakeAdmin(): AdminClient & { calls: string[] } {
  const calls: string[] = [];
  return {
    url: 'http://127.0.0.1:1/__admin',
    calls,
    clock: async () => ({ now_ms: 0, offset_ms: 0 }),
    advance: async (ms) => void calls.push(`advance ${ms}`),
    reset: async () => void calls.push('reset'),
    resetClock: async () => void calls.push('resetClock'),
  };
}

describe('ClockRestorer', () => {
  it('resets the clock once, and only when the run moved it', async () => {
    const still = fakeAdmin();
    await new ClockRestorer(still).restore();
    expect(still.calls).toEqual([]);

    const moved = fakeAdmin();
    const r = new ClockRestorer(moved);
    await r.admin.advance(1000);
    await r.restore();
    await r.restore();
    expect(moved.calls).toEqual(['advance 1000', 'resetClock']);
  });

  it('resets the clock as soon as the run is aborted, and listens for the abort only while the clock is moved', async () => {
    const admin = fakeAdmin();
    const ac = new AbortController();
    const r = new ClockRestorer(admin, ac.signal);
    const sigintListeners = process.listenerCount('SIGINT');
    await r.admin.advance(5);
    // The process's signals are the CLI's: the restorer never listens to them.
    expect(process.listenerCount('SIGINT')).toBe(sigintListeners);
    ac.abort(new Error('interrupted by SIGINT'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(admin.calls).toEqual(['advance 5', 'resetClock']);
    await r.restore();
    expect(admin.calls).toEqual(['advance 5', 'resetClock']);
  });

  it('does nothing on an abort when the clock never moved', async () => {
    const admin = fakeAdmin();
    const ac = new AbortController();
    new ClockRestorer(admin, ac.signal);
    ac.abort();
    await new Promise((resolve) => setImmediate(resolve));
    expect(admin.calls).toEqual([]);
  });
});
