import { afterEach, describe, expect, it } from 'vitest';
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

// Stands in for whoever else handles the signal, so that the restorer does not re-raise it at the test process.
const keepAlive = (): void => undefined;
afterEach(() => {
  process.off('SIGINT', keepAlive);
});

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

  it('resets the clock when the run is interrupted, and listens for signals only while the clock is moved', async () => {
    const before = process.listenerCount('SIGINT');
    const admin = fakeAdmin();
    const r = new ClockRestorer(admin);
    expect(process.listenerCount('SIGINT')).toBe(before);
    await r.admin.advance(5);
    expect(process.listenerCount('SIGINT')).toBe(before + 1);
    process.on('SIGINT', keepAlive);
    process.emit('SIGINT', 'SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(admin.calls).toEqual(['advance 5', 'resetClock']);
    expect(process.listenerCount('SIGINT')).toBe(before + 1);
    process.off('SIGINT', keepAlive);
    expect(process.listenerCount('SIGINT')).toBe(before);
  });
});
