import { afterEach, describe, expect, it } from 'vitest';
import type { LiveLoad, LiveLoadView } from '../../src/load/live-load.js';
import { mockLoadTarget } from '../../src/load/load-target.js';
import { parseThreshold } from '../../src/load/gate/gates.js';
import type { RecordedRequest } from '../../src/load/measure/load-recorder.js';
import { runLoad } from '../../src/load/run-load.js';
import { generateAgencies } from '../../src/mock/fixture/generate-agencies.js';
import { createMock, type RunningMock } from '../../src/mock/index.js';
import { loadScenarios } from '../../src/scenario/load-scenario.js';

let mock: RunningMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

describe("a running load's feed", () => {
  it("tells every request the report counts, once, and its live view ends on the report's totals and gates", async () => {
    mock = await createMock({ fixture: { agencies: generateAgencies(3, { limits: { read: 30, write: 6 } }) } });
    const told: RecordedRequest[] = [];
    let live: LiveLoad | undefined;
    let tracked: { view(): LiveLoadView; stop(): void } | undefined;
    const run = await runLoad({
      target: mockLoadTarget(mock),
      scenarios: await loadScenarios({}),
      durationS: 1.5,
      connections: 6,
      pushLimits: true,
      settleMs: 100,
      thresholds: [parseThreshold('rps>=1'), parseThreshold('errors.rate<0.5'), parseThreshold('search.p95<100000ms')],
      runId: '20261128-110000-beef',
      onStart: (l) => {
        live = l;
        // A sender fills its record in again for its next request: what is kept is copied.
        l.subscribe((r) => told.push({ ...r }));
        tracked = l.track();
      },
    });
    expect(live).toBeDefined();
    expect(run.runId).toBe('20261128-110000-beef');
    const load = run.load;
    const count = (o: RecordedRequest['outcome']) => told.filter((r) => r.outcome === o).length;
    expect({ ok: count('ok'), rateLimited: count('rateLimited'), errors: count('errors'), expected: count('expected'), cutOff: count('cutOff') }).toEqual({
      ok: load.totals.ok,
      rateLimited: load.totals.rateLimited,
      errors: load.totals.errors,
      expected: load.totals.expected ?? 0,
      cutOff: load.totals.cutOff ?? 0,
    });
    expect(told.filter((r) => r.outcome !== 'cutOff')).toHaveLength(load.totals.requests);
    // Each request with the method it went out with, and a refusal with the Retry-After it carried.
    expect(new Set(told.map((r) => r.method))).toEqual(new Set(['GET', 'POST']));
    expect(told.some((r) => r.outcome === 'rateLimited' && r.retryAfterS !== undefined)).toBe(true);
    expect(load.totals.rateLimited).toBeGreaterThan(0);
    for (const [op, f] of Object.entries(load.operations))
      if (op !== 'all') expect(told.filter((r) => r.op === op && r.outcome !== 'cutOff')).toHaveLength(f.count);

    const view = tracked!.view();
    tracked!.stop();
    expect(view.load.totals).toEqual({ ...load.totals, cutOff: load.totals.cutOff ?? 0, expected: load.totals.expected ?? 0 });
    expect(view.load.operations['all']!.latency.count).toBe(load.operations['all']!.latency.count);
    expect(view.load.operations['all']!.statuses).toEqual(load.operations['all']!.statuses);
    expect(view.load.gates.map((g) => [g.id, g.passed])).toEqual(load.gates.map((g) => [g.id, g.passed]));
    // Every agency's buckets, each against its limit.
    expect(view.buckets.filter((b) => b.bucket === 'read').map((b) => b.limit)).toEqual([30, 30, 30]);
    expect(view.buckets.every((b) => b.used > 0)).toBe(true);
  }, 60_000);
});
