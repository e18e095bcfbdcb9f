import { describe, expect, it } from 'vitest';
import type { Check } from '../../src/checks/types.js';
import { resolveProfile } from '../../src/profile/validate-profile.js';
import type { ResolvedAgency } from '../../src/profile/types.js';
import { bindingsOf, boundScope, leaseFor, touchesOf } from '../../src/runner/agency-binding.js';
import type { AgencyFacts } from '../../src/runner/agency-facts.js';
import { estimateRun, planRun, playSchedule, type PlayedSlot } from '../../src/runner/estimate-run.js';
import { LeasePlanner } from '../../src/runner/lease-planner.js';

const mk = (id: string, extra: Partial<Check> = {}): Check => ({
  id,
  title: id,
  area: 'auth',
  clause: '',
  needs: [],
  run: async () => ({ verdict: 'PASS', message: '' }),
  ...extra,
});
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
    expect(bindingsOf(mk('R', { touches: ['0:read'] }), facts, agencies, profile)).toEqual([[0], [1], [2]]);
    // the default touches the wallet: b's wallet is too small to book on
    expect(touchesOf(mk('W'))).toEqual(['0:read', '0:write', '0:wallet']);
    expect(bindingsOf(mk('W', { needs: ['open-product'] }), facts, agencies, profile)).toEqual([[0], [2]]);
    expect(bindingsOf(mk('C', { needs: ['closed-product'], touches: ['0:read'] }), facts, agencies, profile)).toEqual([[0]]);
    expect(bindingsOf(mk('P', { pinned: true }), facts, agencies, profile)).toEqual([[0]]);
    expect(bindingsOf(mk('S', { needs: ['second-agency'], touches: ['0:read', '1:read'] }), facts, agencies, profile)).toEqual([
      [0, 1],
      [0, 2],
      [1, 0],
      [1, 2],
      [2, 0],
      [2, 1],
    ]);
  });

  it('leases the bound agencies, or every agency for a check that looks through all', () => {
    expect(leaseFor(mk('X', { touches: ['0:read', '1:write'], fills: ['1:write'], needs: ['second-agency'] }), [2, 0], 3)).toEqual({
      holder: 'X',
      resources: ['2:read', '0:write'],
      fills: ['0:write'],
      requests: 10,
    });
    expect(leaseFor(mk('E', { everyAgency: true, touches: ['0:wallet'] }), [0], 3).resources).toEqual(['0:wallet', '1:wallet', '2:wallet']);
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

describe('estimateRun', () => {
  const profile = resolveProfile({
    base_url: 'http://127.0.0.1:1/v1',
    hotel_base_url: null,
    clock: { control: 'none' },
    agencies: [{ id: 'a', key_id: 'k', secret: 's' }],
  });
  const base = { profile, windowMs: 60_000, marginMs: 1000, agencyCount: 2, roundTripMs: 10, checkOverheadMs: 0 };
  const item = (check: Check, bindings = [[0], [1]]) => ({ check, bindings });

  it('plays leases, agency binding, cooling and shared waits', () => {
    const w = (id: string, ms: number, extra: Partial<Check> = {}) => mk(id, { waitsMs: () => ms, requests: 0, touches: ['0:wallet'], ...extra });
    // two agencies: two 20 s checks side by side, the third after one of them
    expect(estimateRun([item(w('A', 20_000)), item(w('B', 20_000)), item(w('C', 20_000))], base)).toEqual({ estimateMs: 40_000, serialMs: 60_000 });
    // two fillers of one bucket: the second waits a window and a margin after the first
    const f = (id: string) => w(id, 0, { touches: ['0:write'], fills: ['0:write'] });
    const fills = estimateRun([item(f('F1'), [[0]]), item(f('F2'), [[0]])], { ...base, limitOf: () => 99 });
    expect(fills.estimateMs).toBe(1000 + 61_000 + 1000);
    // a wait shared by two checks is paid once
    const shared = estimateRun([item(w('S1', 30_000, { waitKey: 'k' }), [[0]]), item(w('S2', 30_000, { waitKey: 'k' }), [[0]])], base);
    expect(shared.estimateMs).toBe(30_000);
  });

  it('plans the order: a webhook wait that holds only its endpoint, the bookings, then the fill, whose cooling ends the run', () => {
    const o = { ...base, windowMs: 10_000, marginMs: 0, roundTripMs: 0, checkOverheadMs: 100, agencyCount: 1, limitOf: () => 100 };
    const fill = mk('E', { touches: ['0:read', '0:write', '0:wallet'], fills: ['0:write'], waitsMs: () => 10_000, requests: 1 });
    const webhook = mk('W', { touches: ['0:write', '0:wallet', '0:webhook'], waitTouches: ['0:webhook'], waitsMs: () => 30_000, requests: 1 });
    const book = (id: string) => mk(id, { touches: ['0:write', '0:wallet'], requests: 1 });
    const items = [fill, webhook, book('B1'), book('B2')].map((c) => item(c, [[0]]));
    const given = estimateRun(items, o);
    // in the given order the fill goes first, and the bucket it filled cools before the webhook check may book
    expect(given.estimateMs).toBe(100 + 10_000 + 10_000 + 100 + 30_000);
    const planned = planRun(items, o);
    // planned: the webhook check books and waits holding its endpoint alone, the bookings pass, the fill comes a window after the last
    expect(planned.estimateMs).toBe(100 + 30_000);
    const byId = new Map(items.map((i) => [i.check.id, i]));
    const { slots } = playSchedule(
      planned.order.map((id) => byId.get(id)!),
      o,
    );
    expect(overlaps(slots)).toEqual([]);
    const e = slots.find((x) => x.id === 'E')!;
    const lastBooking = Math.max(...slots.filter((x) => x.id.startsWith('B')).map((x) => x.endAt));
    expect(e.startAt).toBeGreaterThanOrEqual(lastBooking + 10_000);
  });

  it('plays a check that gives its lease back through its wait and takes it back after, behind the check that used it meanwhile', () => {
    const o = { ...base, windowMs: 10_000, marginMs: 0, roundTripMs: 0, checkOverheadMs: 100, agencyCount: 1, limitOf: () => 100 };
    const expiring = mk('Q', { touches: ['0:read', '0:write', '0:wallet'], waitTouches: [], resumes: true, waitsMs: () => 5_000, requests: 1 });
    const long = mk('L', { touches: ['0:wallet'], waitsMs: () => 8_000, requests: 1 });
    const { slots, endMs } = playSchedule([item(expiring, [[0]]), item(long, [[0]])], o);
    const q = slots.find((x) => x.id === 'Q')!;
    const l = slots.find((x) => x.id === 'L')!;
    // L takes the wallet while Q waits (Q sent half its requests first) …
    expect(l.startAt).toBe(50);
    // … and Q books once L gave it back
    expect(q.endAt).toBe(l.endAt + 50);
    expect(endMs).toBe(q.endAt);
  });

  it('keeps the buckets a waiting filler needs rested from the checks listed after it, so that they cannot push its start back again and again', () => {
    const o = { ...base, windowMs: 10_000, marginMs: 0, roundTripMs: 0, checkOverheadMs: 100, agencyCount: 1, limitOf: () => 100 };
    const user = (id: string, waitMs = 0) => mk(id, { touches: ['0:write'], requests: 1, waitsMs: () => waitMs });
    const parts = mk('P', { touches: ['0:write'], rests: ['0:write'], requests: 0, waitsMs: () => 10_000 });
    const { slots } = playSchedule(
      [user('A'), parts, user('B1', 9_000), user('B2', 9_000)].map((c) => item(c, [[0]])),
      o,
    );
    // P starts one window after A's request, not after B1's and B2's
    expect(slots.find((x) => x.id === 'P')!.startAt).toBe(100 + 10_000);
    expect(slots.find((x) => x.id === 'B1')!.startAt).toBeGreaterThanOrEqual(20_100);
  });

  it('never overlaps two checks that share a resource, in the plan of the whole registry on three agencies', async () => {
    const { AREA_CHECKS } = await import('../../src/checks/index.js');
    const { bindingsOf, rolesOf } = await import('../../src/runner/agency-binding.js');
    const { episodeUnits } = await import('../../src/runner/run-suite.js');
    const three = resolveProfile({
      base_url: 'http://127.0.0.1:1/v1',
      hotel_base_url: 'http://127.0.0.1:2',
      clock: { control: 'none' },
      agencies: ['a', 'b', 'c'].map((id) => ({ id, key_id: `k${id}`, secret: `s${id}` })),
    });
    const agencies: ResolvedAgency[] = ['a', 'b', 'c'].map((id) => ({ id, keyId: `k${id}`, secret: `s${id}`, hotelApiKey: 'h', webhookSecret: 'w' }));
    const facts: AgencyFacts[] = [1_000_000, 50_000, 5_000].map((balance, index) => ({
      index,
      id: 'abc'[index]!,
      products: { open: ['flights'], closed: ['cars'] },
      limits: { read: 600, write: 60 },
      balance,
      offerPrice: 40_000,
    }));
    const units = episodeUnits(AREA_CHECKS.flatMap(([, c]) => c)).units;
    const items = units.map((check) => ({
      check,
      bindings: check.runsLast ? [rolesOf(check) === 2 ? [0, 1] : [0]] : bindingsOf(check, facts, agencies, three),
    }));
    const o = { ...base, profile: three, agencyCount: 3, roundTripMs: 2, limitOf: (b: string) => (b.endsWith(':read') ? 600 : 60), runFirst: ['AU-01'] };
    const planned = planRun(items, o);
    expect(planned.estimateMs).toBeLessThanOrEqual(estimateRun(items, o).estimateMs);
    const byId = new Map(items.map((i) => [i.check.id, i]));
    const { slots, endMs } = playSchedule(
      planned.order.map((id) => byId.get(id)!),
      o,
    );
    expect(endMs).toBe(planned.estimateMs);
    expect(overlaps(slots)).toEqual([]);
    // the rate-limit episode fills its first agency's write bucket from an empty window: nobody used it in the window before, nor while it cools
    const episode = slots.find((x) => x.id === 'RL-01')!;
    const filled = `${episode.binding[0]}:write`;
    for (const other of slots.filter((x) => x !== episode && x.resources.includes(filled))) {
      const usedUntil = other.narrowAt ?? other.endAt;
      expect(usedUntil <= episode.startAt - 60_000 || other.startAt >= episode.endAt + 60_000, `${other.id} beside the fill`).toBe(true);
    }
  });
});

/** Pairs of slots holding one resource at once (a narrowed slot holds only `keep` after `narrowAt`). */
function overlaps(slots: readonly PlayedSlot[]): string[] {
  const held = slots.flatMap((s) =>
    s.resources.map((r) => ({ id: s.id, r, from: s.startAt, to: s.keep && !s.keep.includes(r) && s.narrowAt !== undefined ? s.narrowAt : s.endAt })),
  );
  const out: string[] = [];
  for (const a of held) for (const b of held) if (a.id < b.id && a.r === b.r && a.from < b.to && b.from < a.to) out.push(`${a.id} and ${b.id} on ${a.r}`);
  return out;
}
