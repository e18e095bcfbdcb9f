import { describe, expect, it } from 'vitest';
import type { Check } from '../../src/checks/types.js';
import { resolveProfile } from '../../src/profile/validate-profile.js';
import type { ResolvedAgency } from '../../src/profile/types.js';
import { bindingsOf, boundScope, leaseFor, touchesOf } from '../../src/runner/agency-binding.js';
import type { AgencyFacts } from '../../src/runner/agency-facts.js';
import { LeasePlanner } from '../../src/runner/lease-planner.js';
import { demandOf, type UnitDemand } from '../../src/runner/schedule-unit.js';

/** What a check with `extra` asks of the schedule. */
const mk = (id: string, extra: Partial<Pick<Check, 'needs' | 'uses'>> = {}): UnitDemand => demandOf({ id, needs: [], ...extra });
const lease = (holder: string, resources: string[], fills: string[] = [], requests = 5) => ({ holder, resources, fills, requests });

describe('LeasePlanner', () => {
  it('lets leases on disjoint resources overlap and keeps a common resource exclusive', () => {
    const p = new LeasePlanner({ windowMs: 60_000 });
    const a = lease('A', ['0:wallet']);
    p.start(a);
    expect(p.canStart(lease('B', ['1:wallet']), 0)).toBe(true);
    expect(p.canStart(lease('C', ['0:wallet', '1:wallet']), 0)).toBe(false);
    p.finish(a, 10);
    // a wallet is no bucket: free again at once
    expect(p.canStart(lease('C', ['0:wallet', '1:wallet']), 10)).toBe(true);
  });

  it('starts a unit that tops a bucket up on a bucket used a moment ago, and cools the bucket a window after it like a fill', () => {
    const p = new LeasePlanner({ windowMs: 60_000, marginMs: 1000, limitOf: () => 60 });
    const light = lease('L', ['0:write'], [], 10);
    p.start(light);
    p.finish(light, 1_000);
    // a filler waits for the light user's request to leave the window; a unit topping the bucket up does not
    expect(p.canStart(lease('F', ['0:write'], ['0:write']), 2_000)).toBe(false);
    const topper = { ...lease('T', ['0:write', '0:wallet'], [], 0), tops: ['0:write'] };
    expect(p.canStart(topper, 2_000)).toBe(true);
    p.start(topper);
    p.finish(topper, 50_000);
    expect(p.canStart(lease('M', ['0:write'], [], 1), 100_000)).toBe(false);
    expect(p.canStart(lease('M', ['0:write'], [], 1), 111_000)).toBe(true);
  });

  it('cools a filled bucket one window (plus margin) for everyone, and starts a filler only on a bucket nobody used for a window', () => {
    const p = new LeasePlanner({ windowMs: 60_000, marginMs: 1000 });
    const filler = lease('F', ['0:read', '0:write'], ['0:write']);
    p.start(filler);
    expect(p.canStart(lease('L', ['0:write']), 0)).toBe(false);
    p.finish(filler, 0);
    expect(p.canStart(lease('L', ['0:write']), 30_000)).toBe(false);
    expect(p.nextChangeAt(0)).toBe(61_000);
    expect(p.canStart(lease('L', ['0:write']), 61_000)).toBe(true);
    // a light user leaves the bucket busy for a filler, not for another light user
    const light = lease('L', ['1:write']);
    p.start(light);
    p.finish(light, 100_000);
    expect(p.canStart(lease('M', ['1:write']), 100_001)).toBe(true);
    expect(p.canStart(lease('G', ['1:write'], ['1:write']), 100_001)).toBe(false);
    expect(p.canStart(lease('G', ['1:write'], ['1:write']), 161_000)).toBe(true);
    expect(p.restedAt()).toBe(161_000);
  });

  it('starts a filler only a window after the last request a bucket got before the schedule (the facts read at the start)', () => {
    const p = new LeasePlanner({ windowMs: 60_000, marginMs: 1000, usedAt: new Map([['0:read', 500]]) });
    const fillsRead = lease('F', ['0:read'], ['0:read']);
    expect(p.canStart(fillsRead, 61_499)).toBe(false);
    expect(p.canStart(fillsRead, 61_500)).toBe(true);
    // a bucket nothing was sent to may be filled at once, and one that is only read from may be used
    expect(p.canStart(lease('G', ['0:write'], ['0:write']), 0)).toBe(true);
    expect(p.canStart(lease('R', ['0:read']), 0)).toBe(true);
  });

  it('starts a unit that tops a bucket up only with room for what it sends first, up to the whole limit, and cools the bucket only once it ends', () => {
    const p = new LeasePlanner({ windowMs: 10_000, marginMs: 0, limitOf: () => 60 });
    const earlier = lease('A', ['0:write'], [], 20);
    p.start(earlier);
    p.finish(earlier, 0);
    const topper = (n: number) => ({ ...lease('T', ['0:write', '0:wallet'], [], n), tops: ['0:write'] });
    // 20 sent by A: room for 40 (the whole limit, not 90% of it), not 41
    expect(p.canStart(topper(41), 1)).toBe(false);
    expect(p.canStart(topper(40), 1)).toBe(true);
    const t = topper(40);
    p.start(t);
    // given back for a wait before topping it up: the bucket is not full, others may use it
    const kept = p.release(t, ['0:wallet'], 5_000, new Map([['0:write', { n: 30, lastAt: 4_000 }]]));
    expect(p.canStart(lease('M', ['0:write'], [], 1), 5_001)).toBe(true);
    p.finish(kept, 6_000);
    // at its end it holds no bucket any more: nothing cools
    expect(p.canStart(lease('M', ['0:write'], [], 1), 6_001)).toBe(true);
  });

  it('keeps the checks that do not fill a bucket within 90% of its limit over a window', () => {
    const p = new LeasePlanner({ windowMs: 10_000, marginMs: 0, limitOf: (b) => (b === '0:write' ? 20 : undefined) });
    const first = lease('A', ['0:write'], [], 10);
    p.start(first);
    p.finish(first, 0);
    expect(p.canStart(lease('B', ['0:write'], [], 8), 1)).toBe(true);
    expect(p.canStart(lease('B', ['0:write'], [], 9), 1)).toBe(false);
    expect(p.canStart(lease('B', ['0:write'], [], 9), 10_000)).toBe(true);
    // with no known limit, no budget
    expect(p.canStart(lease('C', ['0:read'], [], 1000), 1)).toBe(true);
  });

  it('rests a bucket from the last request it really got, and not at all when the holder sent nothing to it', () => {
    const p = new LeasePlanner({ windowMs: 60_000, marginMs: 1000 });
    const a = lease('A', ['0:read', '0:write', '0:wallet']);
    p.start(a);
    p.finish(a, 50_000, new Map([['0:read', { n: 3, lastAt: 10_000 }]]));
    // the write bucket got nothing: a filler may start on it at once
    expect(p.canStart(lease('F', ['0:write'], ['0:write']), 50_000)).toBe(true);
    // the read bucket rests a window after its last request, not after the lease ended
    expect(p.canStart(lease('G', ['0:read'], ['0:read']), 70_999)).toBe(false);
    expect(p.canStart(lease('G', ['0:read'], ['0:read']), 71_000)).toBe(true);
  });

  it('lets a holder give back part of its lease: others use it while the holder keeps the rest', () => {
    const p = new LeasePlanner({ windowMs: 60_000, marginMs: 1000 });
    const wh = lease('WH', ['0:read', '0:write', '0:wallet', '0:webhook']);
    p.start(wh);
    expect(p.canStart(lease('ID', ['0:read', '0:write', '0:wallet']), 100)).toBe(false);
    const kept = p.release(wh, ['0:webhook'], 100, new Map([['0:write', { n: 2, lastAt: 90 }]]));
    expect(kept.resources).toEqual(['0:webhook']);
    expect(p.canStart(lease('ID', ['0:read', '0:write', '0:wallet']), 100)).toBe(true);
    expect(p.canStart(lease('WH2', ['0:webhook']), 100)).toBe(false);
    // the write bucket it used is no filler's before a window after its last request
    expect(p.canStart(lease('F', ['0:write'], ['0:write']), 61_089)).toBe(false);
    expect(p.canStart(lease('F', ['0:write'], ['0:write']), 61_090)).toBe(true);
    p.finish(kept, 200_000);
    expect(p.canStart(lease('WH2', ['0:webhook']), 200_000)).toBe(true);
    expect(p.active).toBe(0);
  });

  it('never grants more leases at once than allowed', () => {
    const p = new LeasePlanner({ windowMs: 1000, maxConcurrent: 1 });
    p.start(lease('A', ['0:wallet']));
    expect(p.canStart(lease('B', ['1:wallet']), 0)).toBe(false);
  });
});

describe('agency binding', () => {
  const profile = resolveProfile({
    base_url: 'http://127.0.0.1:1/v1',
    hotel_base_url: null,
    clock: { control: 'none' },
    agencies: ['a', 'b', 'c'].map((id) => ({ id, key_id: `k${id}`, secret: `s${id}` })),
  });
  const agencies: ResolvedAgency[] = ['a', 'b', 'c'].map((id) => ({ id, keyId: `k${id}`, secret: `s${id}` }));
  const facts: AgencyFacts[] = [
    { index: 0, id: 'a', products: { open: ['flights'], closed: ['cars'] }, balance: 1_000_000, offerPrice: 1000 },
    { index: 1, id: 'b', products: { open: ['flights'], closed: [] }, balance: 5000, offerPrice: 1000 },
    { index: 2, id: 'c', products: { open: ['flights'], closed: [] }, balance: 1_000_000, offerPrice: 1000 },
  ];

  it('binds a check to any agency that fits its needs: a closed product, a wallet that pays for bookings', () => {
    expect(bindingsOf(mk('R', { uses: { touches: ['0:read'] } }), facts, agencies, profile)).toEqual([[0], [1], [2]]);
    // the default touches the wallet: b's wallet is too small to book on
    expect(touchesOf(mk('W'))).toEqual(['0:read', '0:write', '0:wallet']);
    expect(bindingsOf(mk('W', { needs: ['open-product'] }), facts, agencies, profile)).toEqual([[0], [2]]);
    expect(bindingsOf(mk('C', { needs: ['closed-product'], uses: { touches: ['0:read'] } }), facts, agencies, profile)).toEqual([[0]]);
    expect(bindingsOf(mk('P', { uses: { role0: 'first-agency' } }), facts, agencies, profile)).toEqual([[0]]);
    expect(bindingsOf(mk('S', { needs: ['second-agency'], uses: { touches: ['0:read', '1:read'] } }), facts, agencies, profile)).toEqual([
      [0, 1],
      [0, 2],
      [1, 0],
      [1, 2],
      [2, 0],
      [2, 1],
    ]);
  });

  it('binds a check that probes every closed product only to the agencies with the fewest: its requests grow with them', () => {
    // as the reference fixture: a has one product closed, b three, c none
    const closedFacts: AgencyFacts[] = [
      { ...facts[0]!, products: { open: ['flights', 'transfers', 'activities'], closed: ['cars'] } },
      { ...facts[1]!, products: { open: ['flights'], closed: ['transfers', 'activities', 'cars'] } },
      { ...facts[2]!, products: { open: ['flights', 'transfers', 'activities', 'cars'], closed: [] } },
    ];
    const probe = mk('C', { needs: ['closed-product'], uses: { touches: ['0:read', '0:write'], requests: { read: 5, write: 3 } } });
    expect(bindingsOf(probe, closedFacts, agencies, profile)).toEqual([[0]]);
    // the first agency with three closed and another with one: only the other
    const swapped = [closedFacts[1]!, closedFacts[0]!].map((f, index) => ({ ...f, index }));
    expect(bindingsOf(probe, [...swapped, closedFacts[2]!], agencies, profile)).toEqual([[1]]);
    // two with one each: either
    const both = [closedFacts[0]!, { ...closedFacts[1]!, products: { open: ['flights'], closed: ['cars'] } }, closedFacts[2]!];
    expect(bindingsOf(probe, both, agencies, profile)).toEqual([[0], [1]]);
  });

  it("reads a check's uses into what it asks of the schedule: its wait, its agencies, and nothing it leaves out", () => {
    const wait = { ms: () => 5_000, holds: ['0:webhook' as const], resumes: true, sharedKey: 'k' };
    const uses = {
      touches: ['0:write' as const],
      fills: ['0:read' as const],
      requests: { read: 1, write: 2 },
      charges: 0,
      wait,
      role0: 'first-agency' as const,
    };
    expect(demandOf({ id: 'D', needs: ['receiver'], uses }, 5_000)).toEqual({
      id: 'D',
      needs: ['receiver'],
      touches: ['0:write'],
      fills: ['0:read'],
      requests: { read: 1, write: 2 },
      charges: 0,
      pinned: true,
      waitTouches: ['0:webhook'],
      resumes: true,
      waitKey: 'k',
      waitMs: 5_000,
    });
    expect(demandOf({ id: 'E', needs: [], uses: { role0: 'every-agency' } })).toEqual({ id: 'E', needs: [], everyAgency: true, waitMs: 0 });
    expect(demandOf({ id: 'N', needs: [] })).toEqual({ id: 'N', needs: [], waitMs: 0 });
  });

  it('leases the bound agencies, or every agency for a check that looks through all', () => {
    expect(leaseFor(mk('X', { needs: ['second-agency'], uses: { touches: ['0:read', '1:write'], fills: ['1:write'] } }), [2, 0], 3)).toEqual({
      holder: 'X',
      resources: ['2:read', '0:write'],
      fills: ['0:write'],
      requests: 10,
    });
    expect(leaseFor(mk('E', { uses: { touches: ['0:wallet'], role0: 'every-agency' } }), [0], 3).resources).toEqual(['0:wallet', '1:wallet', '2:wallet']);
  });

  it('shows a bound check its agencies as 0, 1, …: APIs, credentials and profile entries alike', () => {
    const calls: number[] = [];
    const scope = { profile, agencies, api: (i = 0) => (calls.push(i), {}) as never, hotel: () => undefined } as unknown as Parameters<typeof boundScope>[0];
    const bound = boundScope(scope, [2]);
    bound.api(0);
    bound.api(1);
    expect(calls).toEqual([2, 0]);
    expect(bound.agencies.map((a) => a.id)).toEqual(['c', 'a', 'b']);
    expect(bound.profile.agencies.map((a) => a.id)).toEqual(['c', 'a', 'b']);
    expect(boundScope(scope, [0])).toBe(scope);
  });
});
