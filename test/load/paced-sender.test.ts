import { describe, expect, it } from 'vitest';
import { constantRate, runPaced } from '../../src/load/generate/paced-sender.js';

describe('paced sender (open model)', () => {
  it('sends each request at its planned instant, not after the previous one finished', async () => {
    const schedule = constantRate(200, 20); // every 5 ms
    const outcomes = await runPaced({
      schedule,
      send: () => new Promise((r) => setTimeout(() => r('ok'), 40)), // each takes 40 ms
    });
    expect(outcomes).toHaveLength(20);
    // A closed model would need 20 × 40 ms; an open one overlaps them.
    const last = outcomes[19]!;
    expect(last.sentMs).toBeLessThan((20 * 40) / 2);
    for (const o of outcomes) expect(o.sentMs).toBeGreaterThanOrEqual(o.plannedMs);
  });

  it('counts latency from the planned instant, so a stall shows in every request it delayed', async () => {
    // Virtual time: the sender's clock jumps 100 ms while request 0 is "sent", as a blocked event loop would.
    let t = 0;
    const now = () => t;
    const schedule = [0, 10, 20];
    const outcomes = await runPaced({
      schedule,
      now,
      send: async ({ index }) => {
        if (index === 0) t += 100;
        return index;
      },
    });
    expect(outcomes.map((o) => o.plannedMs)).toEqual([0, 10, 20]);
    // Requests 1 and 2 were planned at 10 and 20 but could only go at 100: their latency includes the wait.
    expect(outcomes[1]!.latencyMs).toBeGreaterThanOrEqual(90);
    expect(outcomes[2]!.latencyMs).toBeGreaterThanOrEqual(80);
    expect(outcomes[1]!.serviceMs).toBeLessThan(outcomes[1]!.latencyMs);
  });

  it('records failures as outcomes and stops planning when aborted', async () => {
    const ac = new AbortController();
    const outcomes = await runPaced({
      schedule: constantRate(100, 50),
      signal: ac.signal,
      send: async ({ index }) => {
        if (index === 3) ac.abort();
        if (index === 1) throw new Error('boom');
        return index;
      },
    });
    expect(outcomes.length).toBeGreaterThanOrEqual(4);
    expect(outcomes.length).toBeLessThan(50);
    expect(String(outcomes[1]!.error)).toContain('boom');
  });

  it('keeps at most maxInFlight unanswered, and counts the wait for a place in the latency', async () => {
    let open = 0;
    let most = 0;
    const outcomes = await runPaced({
      schedule: constantRate(1000, 30), // 30 planned within 30 ms
      maxInFlight: 4,
      send: async () => {
        open++;
        most = Math.max(most, open);
        await new Promise((r) => setTimeout(r, 20));
        open--;
      },
    });
    expect(outcomes).toHaveLength(30);
    expect(most).toBe(4);
    // 30 requests of 20 ms, 4 at a time: the last goes out after 7 rounds, well behind its plan, and its latency says so.
    const last = outcomes[29]!;
    expect(last.sentMs - last.plannedMs).toBeGreaterThanOrEqual(6 * 20 - 30);
    expect(last.latencyMs).toBeGreaterThanOrEqual(last.serviceMs + (last.sentMs - last.plannedMs) - 1);
  });

  it('stops planning at an abort even while every place is taken', async () => {
    const ac = new AbortController();
    const started = Date.now();
    const outcomes = await runPaced({
      schedule: constantRate(1000, 100),
      maxInFlight: 1,
      signal: ac.signal,
      send: async ({ index }) => {
        if (index === 2) ac.abort();
        await new Promise((r) => setTimeout(r, 10));
      },
    });
    expect(outcomes.length).toBe(3);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('refuses a bound below one', async () => {
    await expect(runPaced({ schedule: [0], maxInFlight: 0, send: async () => 1 })).rejects.toThrow(/maxInFlight must be >= 1/);
  });
});
