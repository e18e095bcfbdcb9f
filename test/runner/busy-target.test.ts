import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agencyApis } from '../../src/api/agency-apis.js';
import { MemoryRecorder } from '../../src/client/exchange.js';
import { createHarness } from '../../src/harness.js';
import { createMock, DEFAULT_FIXTURE, type RunningMock } from '../../src/mock/index.js';
import { resolveAgencies } from '../../src/profile/resolve-secrets.js';
import { resolveProfile } from '../../src/profile/validate-profile.js';
import { foreignUse } from '../../src/runner/suite-facts.js';
import type { AgencyFacts } from '../../src/runner/agency-facts.js';
import { realTimeTarget } from '../helpers/real-time-suite.js';

/*
 * A real-time run against a target another client (or a run just before)
 * is using: the plan counts only the run's own requests in a bucket, so a
 * check would meet a full bucket and read its 429 as the service's fault.
 */
describe('a real-time run against a target whose read bucket another client has used', () => {
  let mock: RunningMock;
  // A 10 s window: long enough for the run to reach its checks while the other client's requests still count.
  beforeAll(async () => {
    const fixture = { agencies: DEFAULT_FIXTURE.agencies.map((a) => ({ ...a, limits: { read: 60, write: 20 } })) };
    mock = await createMock({ fixture, windowS: 10, quoteLifetimeS: 30 });
  });
  afterAll(async () => {
    await mock?.close();
  });

  it('waits one window before it plans, says why in the notes, and raises no false alarm', { timeout: 60_000 }, async () => {
    const target = { ...realTimeTarget(mock), limits: { window_s: 10 }, quotes: { lifetime_s: 30 } };
    // Another client fills agency-alpha's read bucket (2 s window) just before the run.
    const profile = resolveProfile(target);
    const other = agencyApis({ profile, agencies: resolveAgencies(profile, {}), recorder: new MemoryRecorder(), now: () => Date.now() });
    const limit = mock.agencies[0]!.limits.read;
    await Promise.all(Array.from({ length: limit }, () => other.api(0).balance()));
    await other.close();
    const events: Array<{ type: string; ms?: number; reason?: string }> = [];
    const harness = createHarness({ profile: target });
    try {
      const result = await harness.run({ only: ['AU-04', 'AU-03'], onEvent: (e) => events.push(e) });
      const bad = result.cases.filter((c) => c.verdict !== 'PASS').map((c) => `${c.id} ${c.verdict}: ${c.message}`);
      expect(bad).toEqual([]);
      // No check met the other client's requests: none of its requests was refused (each would have waited out its Retry-After, or failed).
      const refused = result.exchanges.filter((x) => x.response?.status === 429 && !x.label?.startsWith('runner:')).map((x) => x.label);
      expect(refused).toEqual([]);
      expect(result.notes.join('\n')).toMatch(/agency-alpha's read bucket counted \d+ of \d+ beyond this run's own: another client/);
      expect(events.find((e) => e.type === 'waiting' && e.reason?.includes('another client'))).toMatchObject({ ms: 10_000 });
    } finally {
      await harness.close();
    }
  });

  it("counts as another client's only what the answers count beyond the run's own requests", () => {
    const facts = (index: number, remaining: number): AgencyFacts => ({
      index,
      id: `agency-${index}`,
      products: { open: [], closed: [] },
      readRoom: { limit: 120, remaining },
    });
    const own = (bucket: string): number => (bucket === '0:read' ? 3 : 2);
    // 120 - 116 = 4 counted, 3 of them the run's own and one the harness's probe before the run: nobody else.
    // 120 - 100 = 20 counted, 2 own: 18 of another client (the probe among them).
    expect(foreignUse([facts(0, 116), facts(1, 100)], own)).toEqual([{ agency: 'agency-1', requests: 18, limit: 120 }]);
    // Two beyond the run's own and the probe: another client's.
    expect(foreignUse([facts(0, 115)], own)).toEqual([{ agency: 'agency-0', requests: 2, limit: 120 }]);
    // No room said (no headers): nothing to judge.
    expect(foreignUse([{ index: 0, id: 'a', products: { open: [], closed: [] } }], own)).toEqual([]);
  });
});
