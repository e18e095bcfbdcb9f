import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock, type RunningMock } from '../../src/mock/index.js';
import { AdminClockDriver } from '../../src/runner/admin-clock-driver.js';
import { createAdminClient } from '../../src/runner/admin-client.js';
import { MockClockDriver } from '../../src/runner/mock-clock-driver.js';
import { RealClockDriver } from '../../src/runner/real-clock-driver.js';
import { steps } from '../../src/runner/_internal/stepping.js';

describe('steps', () => {
  it('moves in steps of at most a second for the fine part, then jumps', () => {
    expect(steps(2500)).toEqual([1000, 1000, 500]);
    expect(steps(0)).toEqual([]);
    expect(steps(5000, { stepMs: 1000, fineMs: 2000 })).toEqual([1000, 1000, 3000]);
    expect(steps(86_400_000).length).toBe(121);
  });
});

describe('clock drivers against the mock', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await createMock({ admin: true });
  });
  afterAll(async () => {
    await mock?.close();
  });

  it('MockClockDriver moves the in-process clock, firing due timers close to their instant', async () => {
    const driver = new MockClockDriver(mock.clock);
    expect(driver.kind).toBe('mock');
    const before = driver.now();
    const seen: Array<{ due: number; at: number }> = [];
    mock.clock.after(2_500, (due) => void seen.push({ due, at: mock.clock.now() }));
    mock.clock.after(7_200, (due) => void seen.push({ due, at: mock.clock.now() }));
    await driver.wait(10_000);
    expect(driver.now() - before).toBeGreaterThanOrEqual(10_000);
    expect(driver.now() - before).toBeLessThan(11_000);
    expect(seen).toHaveLength(2);
    for (const s of seen) expect(s.at - s.due).toBeLessThan(1_000 + 100);
  });

  it('MockClockDriver jumps a long wait in one move when no timer waits', async () => {
    const moves: number[] = [];
    const driver = new MockClockDriver(mock.clock, { advance: async (ms) => void moves.push(ms) });
    await driver.wait(3_600_000);
    expect(moves).toEqual([3_600_000]);
  });

  it('AdminClockDriver moves the mock clock over the admin API in steps and keeps now() in line', async () => {
    const calls: number[] = [];
    const real = createAdminClient(mock.adminUrl!);
    const admin = { ...real, advance: (ms: number) => (calls.push(ms), real.advance(ms)) };
    const driver = await AdminClockDriver.connect(admin);
    expect(driver.kind).toBe('mock');
    expect(Math.abs(driver.now() - mock.clock.now())).toBeLessThan(50);
    const before = mock.clock.now();
    await driver.wait(3_500);
    expect(calls).toEqual([1000, 1000, 1000, 500]);
    expect(mock.clock.now() - before).toBeGreaterThanOrEqual(3_500);
    expect(Math.abs(driver.now() - mock.clock.now())).toBeLessThan(50);
  });

  it('AdminClockDriver fails with E_TARGET_UNREACHABLE at a closed port', async () => {
    await expect(AdminClockDriver.connect('http://127.0.0.1:1/__admin')).rejects.toMatchObject({ code: 'E_TARGET_UNREACHABLE' });
  });

  it('the admin reset puts the state back but keeps the clock offset', async () => {
    const offset = mock.clock.offset;
    await createAdminClient(mock.adminUrl!).reset();
    expect(mock.clock.offset).toBe(offset);
  });
});

describe('RealClockDriver', () => {
  it('really waits and reports local time', async () => {
    const driver = new RealClockDriver();
    expect(driver.kind).toBe('real');
    expect(Math.abs(driver.now() - Date.now())).toBeLessThan(5);
    const t0 = performance.now();
    await driver.wait(30);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(25);
    await expect(driver.wait(-1)).rejects.toThrow(RangeError);
  });
});
