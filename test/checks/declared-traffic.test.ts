/*
 * A check's declaration of what it uses is what the real-time scheduler leases
 * for it: two checks overlap only when their declared resources are disjoint,
 * and checks that do not fill a bucket share its budget by their declared
 * request counts. A declaration that says less than the check sends makes
 * leases unsafe. Here every check of the registry runs once against the
 * embedded mock, and what it really sent is held against what it declares.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultRegistry } from '../../src/checks/index.js';
import type { Check } from '../../src/checks/types.js';
import type { Exchange } from '../../src/client/exchange.js';
import { createHarness, type Harness, type PreparedTarget } from '../../src/harness.js';
import type { SuiteResult } from '../../src/results/run-result.js';
import {
  declaredFarBeyondTraffic,
  declaredTraffic,
  fillsNotMade,
  measuredTraffic,
  mergedTraffic,
  trafficBeyondDeclared,
  type Traffic,
} from './_declared-traffic.js';

describe('every check sends no more than it declares', () => {
  const registry = defaultRegistry();
  const sent = new Map<string, { exchanges: readonly Exchange[]; hotel: number[] }>();
  let harness: Harness;
  let result: SuiteResult;
  let profile: PreparedTarget['profile'];
  /** The limit of a bucket (`<agency>:read`), as the embedded mock's fixture sets it. */
  let limitOf: (bucket: string) => number | undefined;
  const trafficOf = (check: Check): Traffic => measuredTraffic(sent.get(check.id)?.exchanges ?? [], profile, sent.get(check.id)?.hotel);
  /**
   * What the checks that share `check`'s sends sent together: the members of
   * its episode, or of its shared wait (the first makes the requests, the
   * others judge them from the run cache), or it alone.
   */
  const groupTrafficOf = (check: Check): Traffic => {
    const key = (c: Check): string | undefined =>
      c.episode !== undefined ? `episode ${c.episode}` : c.uses?.wait?.sharedKey !== undefined ? `wait ${c.uses.wait.sharedKey}` : undefined;
    const group = key(check);
    return mergedTraffic((group === undefined ? [check] : registry.checks.filter((c) => key(c) === group)).map(trafficOf));
  };

  beforeAll(async () => {
    // Each check's own exchanges: the checks run one after another here, so the exchanges recorded during its run are its own.
    const watched: Check[] = registry.checks.map((check) => ({
      ...check,
      run: async (ctx) => {
        const from = ctx.exchanges().length;
        const hotel: number[] = [];
        const hotelOf = (i = 0): ReturnType<typeof ctx.hotel> => {
          if (!hotel.includes(i)) hotel.push(i);
          return ctx.hotel(i);
        };
        try {
          return await check.run({ ...ctx, hotel: hotelOf });
        } finally {
          sent.set(check.id, { exchanges: ctx.exchanges().slice(from), hotel });
        }
      },
    }));
    harness = createHarness({ checks: watched, parts: false });
    const prepared = await harness.prepare();
    profile = prepared.profile;
    const mock = prepared.mock!;
    limitOf = (bucket) => {
      const [agency, kind] = bucket.split(':') as [string, 'read' | 'write'];
      return mock.agencies.find((a) => a.agency_id === profile.agencies[Number(agency)]?.id)?.limits[kind];
    };
    result = await harness.run({ seed: 7 });
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('ran every check to a verdict on the mock', () => {
    const ran = result.cases.filter((c) => c.verdict === 'PASS').map((c) => c.id);
    // The embedded mock offers everything a check needs: none is skipped, so every declaration below is tested.
    expect(ran.sort()).toEqual(registry.checks.map((c) => c.id).sort());
  });

  it('holds each check within its declared buckets, request counts and resources', () => {
    const beyond: string[] = [];
    const measured: Record<string, Traffic> = {};
    for (const check of registry.checks) {
      const traffic = trafficOf(check);
      measured[check.id] = traffic;
      beyond.push(...trafficBeyondDeclared(traffic, declaredTraffic(check, profile.agencies.length)).map((why) => `${check.id}: ${why}`));
    }
    expect(beyond, JSON.stringify(measured, null, 1)).toEqual([]);
  });

  it('sees a fill of each bucket a check declares it fills: at least its limit (an episode fills for all its members)', () => {
    const notMade: string[] = [];
    let fills = 0;
    for (const check of registry.checks) {
      const declared = declaredTraffic(check, profile.agencies.length);
      fills += declared.fills.length;
      notMade.push(...fillsNotMade(groupTrafficOf(check), declared, limitOf).map((why) => `${check.id}: ${why}`));
    }
    // the registry declares fills (the rate-limit checks): an empty list here would test nothing
    expect(fills).toBeGreaterThan(0);
    expect(notMade).toEqual([]);
  });

  it('notes the declarations far beyond what a check sent (a slower schedule, not a fault)', async ({ annotate }) => {
    for (const check of registry.checks)
      for (const why of declaredFarBeyondTraffic(groupTrafficOf(check), declaredTraffic(check, profile.agencies.length))) await annotate(`${check.id}: ${why}`);
  });
});

describe('the comparison itself', () => {
  const check = (extra: Partial<Check>): Check => ({
    id: 'T-01',
    title: 'test',
    area: 'auth',
    clause: '',
    needs: [],
    run: () => Promise.resolve({ verdict: 'PASS', message: '' }),
    ...extra,
  });
  const traffic = (t: Partial<Traffic>): Traffic => ({ buckets: {}, wallet: [], hotel: [], ...t });

  it('names a bucket sent to beyond its declared count', () => {
    const c = check({ uses: { touches: ['0:read'], requests: { read: 2, write: 0 } } });
    expect(trafficBeyondDeclared(traffic({ buckets: { '0:read': 3 } }), declaredTraffic(c))).toEqual(['sent 3 requests to 0:read, declares 2']);
    expect(trafficBeyondDeclared(traffic({ buckets: { '0:read': 2 } }), declaredTraffic(c))).toEqual([]);
  });

  it('names a bucket or resource the check does not declare', () => {
    const c = check({ uses: { touches: ['0:read'], requests: 5 } });
    expect(trafficBeyondDeclared(traffic({ buckets: { '1:read': 1 }, wallet: [0], hotel: [0] }), declaredTraffic(c))).toEqual([
      'sent to 1:read, which it does not declare',
      'booked or paid with agency 0, but does not declare 0:wallet',
      'called the hotel API as agency 0, but does not declare 0:hotel',
    ]);
  });

  it('lets a bucket it fills take its limit and more', () => {
    const c = check({ uses: { touches: ['0:read'], fills: ['0:read'], requests: 2 } });
    expect(trafficBeyondDeclared(traffic({ buckets: { '0:read': 500 } }), declaredTraffic(c))).toEqual([]);
  });

  it('names a bucket it declares it fills but sent fewer requests to than its limit, counting an episode as one', () => {
    const c = check({ uses: { touches: ['0:read'], fills: ['0:write', '0:read'], requests: 2 } });
    const limitOf = (b: string): number | undefined => (b.endsWith(':read') ? 100 : 10);
    expect(fillsNotMade(traffic({ buckets: { '0:read': 100, '0:write': 9 } }), declaredTraffic(c), limitOf)).toEqual([
      'declares it fills 0:write, but sent 9 requests to it (its limit is 10)',
    ]);
    const members = [traffic({ buckets: { '0:read': 60, '0:write': 10 } }), traffic({ buckets: { '0:read': 40 } })];
    expect(fillsNotMade(mergedTraffic(members), declaredTraffic(c), limitOf)).toEqual([]);
    expect(fillsNotMade(traffic({ buckets: { '0:read': 100, '0:write': 10 } }), declaredTraffic(c), () => undefined)).toEqual([
      'declares it fills 0:write, whose limit is unknown',
      'declares it fills 0:read, whose limit is unknown',
    ]);
  });

  it('notes a bucket declared far beyond what was sent, and a hotel account never used', () => {
    const c = check({ uses: { touches: ['0:read', '0:write', '0:hotel'], requests: { read: 8, write: 3 } } });
    expect(declaredFarBeyondTraffic(traffic({ buckets: { '0:read': 2, '0:write': 1 }, hotel: [0] }), declaredTraffic(c))).toEqual([
      'declares 8 requests to 0:read, sent 2',
    ]);
    expect(declaredFarBeyondTraffic(traffic({ buckets: { '0:read': 3 } }), declaredTraffic(c))).toEqual([
      'declares 3 requests to 0:write, sent 0',
      'declares 0:hotel, never called the hotel API as agency 0',
    ]);
  });

  it('counts a check with no declaration by the defaults the scheduler assumes', () => {
    const c = check({});
    expect(trafficBeyondDeclared(traffic({ buckets: { '0:read': 10, '0:write': 10 }, wallet: [0] }), declaredTraffic(c))).toEqual([]);
    expect(trafficBeyondDeclared(traffic({ buckets: { '0:read': 11 } }), declaredTraffic(c))).toEqual(['sent 11 requests to 0:read, declares 10']);
  });
});
