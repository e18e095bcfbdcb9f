import { afterEach, describe, expect, it } from 'vitest';
import { exitCodeOf, loadOutcome } from '../../src/cli/exit-codes.js';
import { mockLoadTarget } from '../../src/load/load-target.js';
import { runLoad } from '../../src/load/run-load.js';
import { generateAgencies } from '../../src/mock/fixture/generate-agencies.js';
import { createMock, type RunningMock } from '../../src/mock/index.js';
import type { LoadResult } from '../../src/results/load-result.js';

let mock: RunningMock | undefined;
afterEach(async () => {
  await mock?.close().catch(() => undefined);
  mock = undefined;
});

describe('runLoad when the target dies mid-run', () => {
  it('keeps what was measured, with an ERROR verdict naming the failure', async () => {
    mock = await createMock({ fixture: { agencies: generateAgencies(2, { limits: { read: 40, write: 6 } }) } });
    const m = mock;
    const killer = setTimeout(() => void m.close(), 700);
    try {
      const run = await runLoad({
        target: mockLoadTarget(m),
        search: { product: 'flights' },
        durationS: 2,
        connections: 4,
        pushLimits: false,
        settleMs: 100,
        thresholds: [],
      });
      const load = run.load as LoadResult;
      expect(load.totals.requests).toBeGreaterThan(10);
      const errors = run.cases.filter((c) => c.verdict === 'ERROR');
      expect(errors.length).toBeGreaterThan(0);
      expect(errors[0]!.message).toMatch(/unreachable|does not answer|ECONNREFUSED/);
      expect(run.verdict).toBe('FAIL');
      expect(exitCodeOf(loadOutcome(run))).toBe(3);
    } finally {
      clearTimeout(killer);
    }
  }, 20_000);
});
