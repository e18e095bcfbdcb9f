import { describe, expect, it } from 'vitest';
import type { Check, CheckUses } from '../../src/checks/types.js';
import type { ResolvedAgency } from '../../src/profile/types.js';
import { resolveProfile } from '../../src/profile/validate-profile.js';
import type { AgencyFacts } from '../../src/runner/agency-facts.js';
import { MemoryRecorder } from '../../src/client/exchange.js';
import { leaseFor } from '../../src/runner/agency-binding.js';
import { bucketMeter } from '../../src/runner/bucket-meter.js';
import { estimateRun, planRun, playSchedule } from '../../src/runner/estimate-run.js';
import { requestsTo } from '../../src/runner/lease-planner.js';
import { LeasePlanner } from '../../src/runner/lease-planner.js';
import type { RunEvent } from '../../src/runner/run-events.js';
import { demandOf, unitsOf, type ScheduleUnit, type UnitBody } from '../../src/runner/schedule-unit.js';
import { runSchedule, type PlayedSlot } from '../../src/runner/scheduler.js';
import { VirtualClockDriver } from '../../src/clock/virtual-clock-driver.js';

const mk = (id: string, extra: Partial<Check> = {}): Check => ({
  id,
  title: id,
  area: 'auth',
  clause: '',
  needs: [],
  run: async () => ({ verdict: 'PASS', message: '' }),
  ...extra,
});

const profile = resolveProfile({
  base_url: 'http://127.0.0.1:1/v1',
  hotel_base_url: null,
  clock: { control: 'none' },
  agencies: [{ id: 'a', key_id: 'k', secret: 's' }],
});

/** `check` as a unit of the schedule with the given bindings and body. */
function unitOf(check: Check, bindings: number[][] = [[0]], body: UnitBody = () => Promise.resolve()): ScheduleUnit {
  return unitsOf([check], { profile, groupWaits: true, bindingsOf: () => bindings, bodyOf: () => body })[0]!;
}

/** A unit whose body is busy `ms` on the clock, and records when it ran. */
function busy(clock: VirtualClockDriver, log: string[], check: Check, ms: number, bindings?: number[][]): ScheduleUnit {
  return unitOf(check, bindings, async () => {
    log.push(`${check.id} start ${clock.now()}`);
    await clock.wait(ms);
    log.push(`${check.id} end ${clock.now()}`);
  });
}

/** A scheduler on a virtual clock. */
function virtual(o: { windowMs?: number; agencyCount?: number; maxConcurrent?: number } = {}) {
  const clock = new VirtualClockDriver(0);
  const events: RunEvent[] = [];
  const slots: PlayedSlot[] = [];
  const options = {
    planner: new LeasePlanner({ windowMs: o.windowMs ?? 10_000, marginMs: 0, maxConcurrent: o.maxConcurrent ?? 8, limitOf: () => 100 }),
    agencyCount: o.agencyCount ?? 1,
    clock,
    emit: (e: RunEvent) => void events.push(e),
    slots,
  };
  return { clock, events, slots, options };
}

const at = (slots: readonly PlayedSlot[], id: string): PlayedSlot => slots.find((s) => s.id === id)!;

describe('VirtualClockDriver', () => {
  it('moves to the earliest instant waited for only once every task is blocked, and resolves the waits due there together', async () => {
    const clock = new VirtualClockDriver(1000);
    const log: string[] = [];
    const task = async (name: string, ms: number[]): Promise<void> => {
      for (const m of ms) {
        // a chain of promises before the wait: the clock must not move meanwhile
        for (let i = 0; i < 50; i++) await Promise.resolve();
        await clock.wait(m);
        log.push(`${name} ${clock.now()}`);
      }
    };
    await Promise.all([task('a', [300, 0, 200]), task('b', [100, 200]), task('c', [300])]);
    // at 1300, in the order the waits were made; a's wait of 0 resolves after them, at the same instant
    expect(log).toEqual(['b 1100', 'a 1300', 'c 1300', 'b 1300', 'a 1300', 'a 1500']);
  });

  it('rejects the waits in progress once its signal aborts', async () => {
    const stop = new AbortController();
    const clock = new VirtualClockDriver(0, { signal: stop.signal });
    const waiting = clock.wait(1000);
    stop.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    await expect(clock.wait(1)).rejects.toThrow('stop');
  });
});

describe('the scheduler on a virtual clock', () => {
  it('overlaps leases on disjoint resources and keeps a common one exclusive', async () => {
    const { clock, slots, options } = virtual();
    const log: string[] = [];
    const units = [
      busy(clock, log, mk('A', { uses: { touches: ['0:wallet'] } }), 1000),
      busy(clock, log, mk('B', { uses: { touches: ['0:read'] } }), 1000),
      busy(clock, log, mk('C', { uses: { touches: ['0:wallet'] } }), 1000),
    ];
    await runSchedule(units, options);
    expect(at(slots, 'A').startAt).toBe(0);
    expect(at(slots, 'B').startAt).toBe(0);
    expect(at(slots, 'C').startAt).toBe(1000);
    expect(clock.now()).toBe(2000);
  });

  it('runs a unit on the first of its bindings that is free', async () => {
    const { clock, slots, options } = virtual({ agencyCount: 2 });
    const log: string[] = [];
    const wallet = (id: string) => busy(clock, log, mk(id, { uses: { touches: ['0:wallet'] } }), 1000, [[0], [1]]);
    await runSchedule([wallet('A'), wallet('B')], options);
    expect(at(slots, 'A').binding).toEqual([0]);
    expect(at(slots, 'B').binding).toEqual([1]);
    expect(at(slots, 'B').resources).toEqual(['1:wallet']);
    expect(clock.now()).toBe(1000);
  });

  it('rests a filled bucket a window before its next user, and says so when nothing else runs', async () => {
    const { clock, slots, events, options } = virtual({ windowMs: 10_000 });
    const log: string[] = [];
    await runSchedule(
      [
        busy(clock, log, mk('F', { uses: { touches: ['0:write'], fills: ['0:write'] } }), 500),
        busy(clock, log, mk('U', { uses: { touches: ['0:write'] } }), 100),
      ],
      options,
    );
    expect(at(slots, 'U').startAt).toBe(500 + 10_000);
    expect(events).toContainEqual({ type: 'waiting', ms: 10_000, reason: 'a rate-limit bucket is resting for one window before its next user' });
  });

  it('lets others use what a unit gave back through its wait, and serves its widening before any new unit', async () => {
    const { clock, slots, options } = virtual();
    const log: string[] = [];
    const q = unitOf(mk('Q', { uses: { touches: ['0:wallet', '0:webhook'] } }), [[0]], async (_b, lease) => {
      await clock.wait(100);
      lease.narrow(['0:webhook']);
      await clock.wait(5000);
      await lease.widen();
      log.push(`Q widened ${clock.now()}`);
      await clock.wait(100);
    });
    const l = busy(clock, log, mk('L', { uses: { touches: ['0:wallet'] } }), 8000);
    const late = busy(clock, log, mk('N', { uses: { touches: ['0:wallet'] } }), 100);
    await runSchedule([q, l, late], options);
    expect(at(slots, 'Q')).toMatchObject({ narrowAt: 100, keep: ['0:webhook'] });
    expect(at(slots, 'L').startAt).toBe(100);
    // Q waited for L to give the wallet back, and took it before N, which was pending since the start
    expect(log).toContain('Q widened 8100');
    expect(at(slots, 'N').startAt).toBe(8200);
  });

  it('starts no unit before the time its plan gives it, though its lease is free, and says why it waits when nothing runs', async () => {
    const { clock, slots, events, options } = virtual();
    const log: string[] = [];
    const units = [busy(clock, log, mk('A', { uses: { touches: ['0:wallet'] } }), 1000), busy(clock, log, mk('B', { uses: { touches: ['0:read'] } }), 1000)];
    const planned = new Map([
      ['A', 2_500],
      ['B', 0],
    ]);
    await runSchedule(units, { ...options, notBefore: (u) => planned.get(u.id) });
    expect(at(slots, 'B').startAt).toBe(0);
    expect(at(slots, 'A').startAt).toBe(2_500);
    const idle = events.find((e) => e.type === 'waiting');
    expect(idle).toMatchObject({ ms: 1_500, reason: 'the plan starts the next unit then' });
  });

  it('keeps the lease of a unit the plan starts within a moment from a unit listed after it that is ready now', async () => {
    const { clock, slots, options } = virtual();
    const log: string[] = [];
    // A comes back to the wallet in 1.5 s by its plan: B, ready now and 5 s long, would hold it then.
    const units = [busy(clock, log, mk('A', { uses: { touches: ['0:wallet'] } }), 1000), busy(clock, log, mk('B', { uses: { touches: ['0:wallet'] } }), 5000)];
    const soon = new Map([['A', 1_500]]);
    await runSchedule(units, { ...options, notBefore: (u) => soon.get(u.id) });
    expect(at(slots, 'A').startAt).toBe(1_500);
    expect(at(slots, 'B').startAt).toBe(2_500);
    // Due only in 10 s, A leaves the wallet to B meanwhile.
    const later = virtual();
    const again = [
      busy(later.clock, log, mk('A', { uses: { touches: ['0:wallet'] } }), 1000),
      busy(later.clock, log, mk('B', { uses: { touches: ['0:wallet'] } }), 5000),
    ];
    await runSchedule(again, { ...later.options, notBefore: (u) => (u.id === 'A' ? 10_000 : undefined) });
    expect(at(later.slots, 'B').startAt).toBe(0);
    expect(at(later.slots, 'A').startAt).toBe(10_000);
  });

  it('runs the baseline first and alone, then the others, then each that runs last alone, in list order', async () => {
    const { clock, slots, options } = virtual({ agencyCount: 2 });
    const log: string[] = [];
    const units = [
      busy(clock, log, mk('Z', { phase: 'last', uses: { touches: ['0:wallet'] } }), 100),
      busy(clock, log, mk('X', { uses: { touches: ['0:wallet'] } }), 1000),
      busy(clock, log, mk('Y', { phase: 'last', uses: { touches: ['0:read'] } }), 100),
      busy(clock, log, mk('AU-01', { phase: 'baseline', uses: { touches: ['0:read'] } }), 100),
      busy(clock, log, mk('W', { uses: { touches: ['0:write'] } }), 1000),
    ];
    await runSchedule(units, options);
    expect(at(slots, 'AU-01').startAt).toBe(0);
    // X and W share nothing with the baseline, yet wait for it
    expect(at(slots, 'X').startAt).toBe(100);
    expect(at(slots, 'W').startAt).toBe(100);
    // Z and Y share nothing either, yet run one after the other, after all the rest
    expect(at(slots, 'Z').startAt).toBe(1100);
    expect(at(slots, 'Y').startAt).toBe(1200);
  });

  it('does not go on past the first phase when told not to', async () => {
    const { clock, slots, options } = virtual();
    const log: string[] = [];
    await runSchedule([busy(clock, log, mk('AU-01', { phase: 'baseline' }), 100), busy(clock, log, mk('X'), 100)], options, () => false);
    expect(slots.map((s) => s.id)).toEqual(['AU-01']);
  });

  it('runs a unit alone when no lease can ever be granted, rather than hang', async () => {
    const { clock, slots, options } = virtual({ agencyCount: 1, maxConcurrent: 0 });
    const log: string[] = [];
    await runSchedule([busy(clock, log, mk('A'), 100), busy(clock, log, mk('B'), 100)], options);
    // no slot: neither held a lease, both ran, one after the other
    expect(slots).toEqual([]);
    expect(log).toEqual(['A start 0', 'A end 100', 'B start 100', 'B end 200']);
  });

  it('one at a time, strictly in order, resetting the target before each unit but one that isolates itself', async () => {
    const { clock, slots, options } = virtual({ maxConcurrent: 1 });
    const log: string[] = [];
    const reset = async (): Promise<void> => void log.push(`reset ${clock.now()}`);
    const parts = { ...busy(clock, log, mk('P'), 10), isolatesItself: true };
    const units = [
      busy(clock, log, mk('F', { uses: { touches: ['0:write'], fills: ['0:write'] } }), 100),
      busy(clock, log, mk('B', { uses: { touches: ['0:write'] } }), 100),
      parts,
    ];
    await runSchedule(units, { ...options, serial: { reset } });
    // a reset empties the buckets: B needs no rest after the fill
    expect(log).toEqual(['reset 0', 'F start 0', 'F end 100', 'reset 100', 'B start 100', 'B end 200', 'P start 200', 'P end 210']);
    expect(slots.map((s) => s.id)).toEqual(['F', 'B', 'P']);
  });

  it('starts nothing once interrupted, and waits for the units running to stop', async () => {
    const stop = new AbortController();
    const clock = new VirtualClockDriver(0, { signal: stop.signal });
    const { options } = virtual({ agencyCount: 2 });
    const log: string[] = [];
    const units = [
      unitOf(mk('A', { uses: { touches: ['0:wallet'] } }), [[0]], async () => {
        log.push('A start');
        await clock.wait(1000).catch(() => log.push(`A stopped ${clock.now()}`));
      }),
      unitOf(mk('B', { uses: { touches: ['0:wallet'] } }), [[1]], async () => {
        await clock.wait(100);
        stop.abort(new Error('interrupted'));
      }),
      // it waits for B's agency
      busy(clock, log, mk('C', { uses: { touches: ['0:wallet'] } }), 100, [[1]]),
    ];
    await runSchedule(units, { ...options, clock, signal: stop.signal });
    expect(log).toEqual(['A start', 'A stopped 100']);
  });
});

describe('the estimate: the scheduler played with stand-in bodies', () => {
  const base = { windowMs: 60_000, marginMs: 1000, agencyCount: 2, roundTripMs: 10, checkOverheadMs: 0 };
  const item = (check: Check, bindings = [[0], [1]]) => unitOf(check, bindings);

  it('plays leases, agency binding, cooling and shared waits', async () => {
    const w = (id: string, ms: number, uses: Omit<CheckUses, 'wait'> = {}, sharedKey?: string) =>
      mk(id, { uses: { touches: ['0:wallet'], requests: 0, ...uses, wait: { ms: () => ms, ...(sharedKey !== undefined ? { sharedKey } : {}) } } });
    // two agencies: two 20 s checks side by side, the third after one of them
    expect(await estimateRun([item(w('A', 20_000)), item(w('B', 20_000)), item(w('C', 20_000))], base)).toEqual({ estimateMs: 40_000, serialMs: 60_000 });
    // two fillers of one bucket: the second waits a window and a margin after the first
    const f = (id: string) => w(id, 0, { touches: ['0:write'], fills: ['0:write'] });
    const fills = await estimateRun([item(f('F1'), [[0]]), item(f('F2'), [[0]])], { ...base, limitOf: () => 99 });
    expect(fills.estimateMs).toBe(1000 + 61_000 + 1000);
    // a wait shared by two checks is paid once
    const shared = await estimateRun([item(w('S1', 30_000, {}, 'k'), [[0]]), item(w('S2', 30_000, {}, 'k'), [[0]])], base);
    expect(shared.estimateMs).toBe(30_000);
  });

  it('plans the order: a webhook wait that holds only its endpoint, the bookings, then the fill, whose cooling ends the run', async () => {
    const o = { ...base, windowMs: 10_000, marginMs: 0, roundTripMs: 0, checkOverheadMs: 100, agencyCount: 1, limitOf: () => 100 };
    const fill = mk('E', { uses: { touches: ['0:read', '0:write', '0:wallet'], fills: ['0:write'], requests: 1, wait: { ms: () => 10_000 } } });
    const webhook = mk('W', { uses: { touches: ['0:write', '0:wallet', '0:webhook'], requests: 1, wait: { ms: () => 30_000, holds: ['0:webhook'] } } });
    const book = (id: string) => mk(id, { uses: { touches: ['0:write', '0:wallet'], requests: 1 } });
    const items = [fill, webhook, book('B1'), book('B2')].map((c) => item(c, [[0]]));
    const given = await estimateRun(items, o);
    // in the given order the fill goes first, and the bucket it filled cools before the webhook check may book
    expect(given.estimateMs).toBe(100 + 10_000 + 10_000 + 100 + 30_000);
    const planned = await planRun(items, o);
    // planned: the webhook check books and waits holding its endpoint alone, the bookings pass, the fill comes a window after the last
    expect(planned.estimateMs).toBe(100 + 30_000);
    const byId = new Map(items.map((i) => [i.id, i]));
    const { slots } = await playSchedule(
      planned.order.map((id) => byId.get(id)!),
      o,
    );
    expect(overlaps(slots)).toEqual([]);
    const e = slots.find((x) => x.id === 'E')!;
    const lastBooking = Math.max(...slots.filter((x) => x.id.startsWith('B')).map((x) => x.endAt));
    expect(e.startAt).toBeGreaterThanOrEqual(lastBooking + 10_000);
  });

  it('plans a long filler first when the short checks listed before it would take both agencies and make it wait a window', async () => {
    const o = { ...base, windowMs: 10_000, marginMs: 0, roundTripMs: 0, checkOverheadMs: 100, agencyCount: 2, limitOf: () => 100 };
    const short = (id: string) => mk(id, { uses: { touches: ['0:read', '0:write'], requests: 1 } });
    const fill = mk('F', { uses: { touches: ['0:read', '0:write'], fills: ['0:write'], wait: { ms: () => 20_000 }, requests: 1 } });
    const items = [short('S1'), short('S2'), fill].map((c) => item(c));
    const given = await estimateRun(items, o);
    // listed last, the fill finds both agencies used and waits for one to rest a window
    expect(given.estimateMs).toBe(100 + 10_000 + 100 + 20_000);
    const planned = await planRun(items, o);
    // planned first, it fills one agency while the short checks share the other
    expect(planned.order[0]).toBe('F');
    expect(planned.estimateMs).toBe(100 + 20_000);
  });

  it('keeps the whole lease of a unit due to start within a moment from the units after it, and only then', async () => {
    // agency 0's read bucket was read at -9 s: with a 10 s window it rests until 1 s
    const o = { ...base, windowMs: 10_000, marginMs: 0, roundTripMs: 0, checkOverheadMs: 100, agencyCount: 2, usedAt: new Map([['0:read', -9_000]]) };
    const fill = mk('F', { uses: { touches: ['0:read', '1:read'], fills: ['0:read'], requests: 1, wait: { ms: () => 3_000 } } });
    const short = mk('S', { uses: { touches: ['0:read'], requests: 1, wait: { ms: () => 5_000 } } });
    const { slots } = await playSchedule([item(fill, [[0, 1]]), item(short, [[1]])], o);
    // S would take agency 1 at once and hold it 5 s; F, due at 1 s, keeps it
    expect(slots.find((x) => x.id === 'F')!.startAt).toBe(1_000);
    expect(slots.find((x) => x.id === 'S')!.startAt).toBeGreaterThanOrEqual(slots.find((x) => x.id === 'F')!.endAt);
    // due only in 5 s, F leaves agency 1 to S meanwhile
    const later = await playSchedule([item(fill, [[0, 1]]), item(short, [[1]])], { ...o, usedAt: new Map([['0:read', -5_000]]) });
    expect(later.slots.find((x) => x.id === 'S')!.startAt).toBe(0);
  });

  it('plays a check that gives its lease back through its wait: a check listed before it uses the lease meanwhile, one listed after it waits', async () => {
    const o = { ...base, windowMs: 10_000, marginMs: 0, roundTripMs: 0, checkOverheadMs: 100, agencyCount: 1, limitOf: () => 100 };
    const expiring = mk('Q', { uses: { touches: ['0:read', '0:write', '0:wallet'], requests: 1, wait: { ms: () => 5_000, holds: [], resumes: true } } });
    const long = mk('L', { uses: { touches: ['0:wallet'], requests: 1, wait: { ms: () => 8_000 } } });
    const short = mk('S', { uses: { touches: ['0:read'], requests: 1 } });
    // listed before Q, L takes the wallet while Q waits (Q sent half its requests first), and Q books once L gave it back
    const before = await playSchedule([item(long, [[0]]), item(expiring, [[0]])], o);
    const [l, q] = ['L', 'Q'].map((id) => before.slots.find((x) => x.id === id)!);
    expect(q!.startAt).toBe(l!.endAt);
    const first = await playSchedule([item(expiring, [[0]]), item(long, [[0]])], o);
    const [q1, l1] = ['Q', 'L'].map((id) => first.slots.find((x) => x.id === id)!);
    // listed after it, L does not take what Q comes back for: Q books on time, then L starts
    expect(q1!.endAt).toBe(50 + 5_000 + 50);
    expect(l1!.startAt).toBe(q1!.endAt);
    // a check on resources Q does not come back for is not held up
    const beside = await playSchedule([item(expiring, [[0]]), item(mk('R', { uses: { touches: ['0:webhook'], requests: 1 } }), [[0]]), item(short, [[0]])], o);
    expect(beside.slots.find((x) => x.id === 'R')!.startAt).toBe(0);
  });

  it('lends what a unit away comes back for only to units its plan has done with it before then; one that may come back late is not waited for', async () => {
    const o = { ...base, windowMs: 10_000, marginMs: 0, roundTripMs: 0, checkOverheadMs: 100, agencyCount: 1, limitOf: () => 100 };
    const expiring = (resumesLate?: boolean) =>
      mk('Q', {
        uses: {
          touches: ['0:read', '0:write', '0:wallet'],
          requests: 1,
          wait: { ms: () => 20_000, holds: [], resumes: true, ...(resumesLate ? { resumesLate } : {}) },
        },
      });
    const held = (id: string, ms: number) => mk(id, { uses: { touches: ['0:wallet'], requests: 1, wait: { ms: () => ms } } });
    // Q is away from 50 ms to 20.05 s: S (5 s) fits before, L (30 s) would still hold the wallet then
    const { slots } = await playSchedule([item(expiring(), [[0]]), item(held('S', 5_000), [[0]]), item(held('L', 30_000), [[0]])], o);
    const at = (id: string, list = slots) => list.find((x) => x.id === id)!;
    expect(at('S').startAt).toBe(50);
    expect(at('Q').endAt).toBe(50 + 20_000 + 50);
    expect(at('L').startAt).toBe(at('Q').endAt);
    // listed first, L takes the wallet before Q starts, and Q waits for it
    const first = await playSchedule([item(held('L', 30_000), [[0]]), item(expiring(), [[0]])], o);
    expect(at('Q', first.slots).startAt).toBe(at('L', first.slots).endAt);
    // a unit that may come back late holds nothing for its return: L takes the wallet at once, and Q books after it
    const late = await playSchedule([item(expiring(true), [[0]]), item(held('L', 30_000), [[0]])], o);
    expect(at('L', late.slots).startAt).toBe(50);
    expect(at('Q', late.slots).endAt).toBe(at('L', late.slots).endAt + 50);
  });

  it('plays a unit away for its first wait: others use its agencies meanwhile, and it takes back only what it holds after', async () => {
    const o = { ...base, windowMs: 10_000, marginMs: 0, roundTripMs: 0, checkOverheadMs: 100, agencyCount: 2, limitOf: () => 100 };
    // the scenarios and properties: away 30 s, then 40 s holding agency 0 (role 0) only
    const parts = unitOf(mk('P'), [[0, 1]]);
    parts.uses = {
      id: 'P',
      needs: [],
      pinned: true,
      touches: ['0:read', '0:write', '0:wallet', '1:read', '1:write', '1:wallet'],
      waitTouches: ['0:read', '0:write', '0:wallet'],
      tops: ['0:write'],
      awayMs: 30_000,
      requests: 0,
      waitMs: 70_000,
    };
    const short = item(mk('S', { uses: { touches: ['0:write', '0:wallet'], requests: 1, wait: { ms: () => 10_000 } } }), [[0]]);
    const other = item(mk('R', { uses: { touches: ['0:write', '0:wallet'], requests: 1, wait: { ms: () => 10_000 } } }), [[1]]);
    const { slots, endMs } = await playSchedule([parts, short, other], o);
    const at = (id: string) => slots.find((x) => x.id === id)!;
    // S runs on agency 0 while P is away; R on agency 1, which P gave back for good
    expect(at('S').startAt).toBe(100);
    expect(at('S').endAt).toBeLessThanOrEqual(100 + 30_000);
    expect(at('R').startAt).toBe(100);
    expect(at('P').endAt).toBe(100 + 70_000);
    // P's write bucket cools a window once it ends (it tops it up last), not when it went away
    expect(endMs).toBe(100 + 70_000);
  });

  it('keeps the lease of a unit waiting for another to give part of it back from the units listed after it', async () => {
    const o = { ...base, windowMs: 10_000, marginMs: 0, roundTripMs: 0, checkOverheadMs: 100, agencyCount: 1, limitOf: () => 100 };
    // two webhook checks: each books, then holds only its endpoint while deliveries come
    const hook = (id: string, ms: number) =>
      mk(id, { uses: { touches: ['0:write', '0:wallet', '0:webhook'], requests: 1, wait: { ms: () => ms, holds: ['0:webhook'] } } });
    const long = mk('P', { uses: { touches: ['0:write', '0:wallet'], requests: 1, wait: { ms: () => 30_000 } } });
    const { slots } = await playSchedule([item(hook('W1', 5_000), [[0]]), item(hook('W2', 5_000), [[0]]), item(long, [[0]])], o);
    // W2 waits for W1's endpoint; P, listed after W2, does not take the wallet meanwhile
    expect(slots.find((x) => x.id === 'W2')!.startAt).toBe(5_100);
    expect(slots.find((x) => x.id === 'P')!.startAt).toBe(5_200);
    // listed before W2, P takes the wallet as soon as W1 gives it back
    const before = await playSchedule([item(hook('W1', 5_000), [[0]]), item(long, [[0]]), item(hook('W2', 5_000), [[0]])], o);
    expect(before.slots.find((x) => x.id === 'P')!.startAt).toBe(100);
  });

  it("keeps a waiting unit's lease from the units after it only from when its plan says the holder gives the rest back", async () => {
    const o = { ...base, windowMs: 10_000, marginMs: 0, roundTripMs: 0, checkOverheadMs: 100, agencyCount: 1, limitOf: () => 100 };
    const hook = (id: string, ms: number) =>
      mk(id, { uses: { touches: ['0:write', '0:wallet', '0:webhook'], requests: 1, wait: { ms: () => ms, holds: ['0:webhook'] } } });
    const held = (id: string, ms: number) => mk(id, { uses: { touches: ['0:write', '0:wallet'], requests: 1, wait: { ms: () => ms } } });
    // W1 holds its endpoint 60 s; W2 waits for it. P (20 s) is done with the wallet long before W1 gives the endpoint back: it runs meanwhile.
    const { slots } = await playSchedule([item(hook('W1', 60_000), [[0]]), item(hook('W2', 5_000), [[0]]), item(held('P', 20_000), [[0]])], o);
    const at = (id: string) => slots.find((x) => x.id === id)!;
    expect(at('P').startAt).toBe(100);
    expect(at('W2').startAt).toBe(at('W1').endAt);
    // L (70 s) would still hold the wallet when W2 may start: it waits for W2
    const long = await playSchedule([item(hook('W1', 60_000), [[0]]), item(hook('W2', 5_000), [[0]]), item(held('L', 70_000), [[0]])], o);
    expect(long.slots.find((x) => x.id === 'L')!.startAt).toBeGreaterThanOrEqual(long.slots.find((x) => x.id === 'W2')!.startAt);
  });

  it('plays a wait anchored to the target clock from the instant the unit starts', async () => {
    const o = { ...base, windowMs: 10_000, marginMs: 0, roundTripMs: 0, checkOverheadMs: 100, agencyCount: 1, limitOf: () => 100 };
    // waits until the next whole 30 s of the run, as QT-03 waits for the target's next minute
    const anchored = item(mk('T', { uses: { touches: ['0:wallet'], requests: 1, wait: { ms: (_p, _l, start = 0) => 30_000 - (start % 30_000) } } }), [[0]]);
    const first = mk('F', { uses: { touches: ['0:wallet'], requests: 1, wait: { ms: () => 20_000 } } });
    const { slots } = await playSchedule([item(first, [[0]]), anchored], o);
    // T starts when F ends (20.1 s) and waits to 30 s, not 30 s more
    expect(slots.find((x) => x.id === 'T')!.startAt).toBe(20_100);
    expect(slots.find((x) => x.id === 'T')!.endAt).toBe(30_000 + 100);
  });

  it('keeps the buckets a waiting filler needs rested from the checks listed after it, so that they cannot push its start back again and again', async () => {
    const o = { ...base, windowMs: 10_000, marginMs: 0, roundTripMs: 0, checkOverheadMs: 100, agencyCount: 1, limitOf: () => 100 };
    const user = (id: string, waitMs = 0) => mk(id, { uses: { touches: ['0:write'], requests: 1, wait: { ms: () => waitMs } } });
    // a unit that fills its bucket, so needs it rested
    const parts = item(mk('P', { uses: { touches: ['0:write'], fills: ['0:write'], requests: 0, wait: { ms: () => 10_000 } } }), [[0]]);
    const { slots } = await playSchedule([item(user('A'), [[0]]), parts, item(user('B1', 9_000), [[0]]), item(user('B2', 9_000), [[0]])], o);
    // P starts one window after A's request, not after B1's and B2's
    expect(slots.find((x) => x.id === 'P')!.startAt).toBe(100 + 10_000);
    expect(slots.find((x) => x.id === 'B1')!.startAt).toBeGreaterThanOrEqual(20_100);
  });

  it('never overlaps two checks that share a resource, in the plan of the whole registry on three agencies', { timeout: 60_000 }, async () => {
    const { AREA_CHECKS } = await import('../../src/checks/index.js');
    const { bindingsOf, rolesOf } = await import('../../src/runner/agency-binding.js');
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
    const items = unitsOf(
      AREA_CHECKS.flatMap(([, c]) => c),
      {
        profile: three,
        groupWaits: true,
        bindingsOf: (uses, phase) => (phase === 'last' ? [rolesOf(uses) === 2 ? [0, 1] : [0]] : bindingsOf(uses, facts, agencies, three)),
        bodyOf: () => () => Promise.resolve(),
      },
    );
    const o = { ...base, agencyCount: 3, roundTripMs: 2, limitOf: (b: string) => (b.endsWith(':read') ? 600 : 60) };
    const planned = await planRun(items, o);
    expect(planned.estimateMs).toBeLessThanOrEqual((await estimateRun(items, o)).estimateMs);
    const byId = new Map(items.map((i) => [i.id, i]));
    const { slots, endMs } = await playSchedule(
      planned.order.map((id) => byId.get(id)!),
      o,
    );
    expect(endMs).toBe(planned.estimateMs);
    expect(overlaps(slots)).toEqual([]);
    // the run is handed every unit on the agencies it played with, and no other (fillers and short checks alike): taking another a moment early would leave the plan
    const choosing = items.filter((i) => i.bindings.length > 1);
    expect(choosing.some((i) => (i.uses.fills?.length ?? 0) > 0)).toBe(true);
    expect(choosing.some((i) => i.uses.waitMs === 0 && (i.uses.fills?.length ?? 0) === 0)).toBe(true);
    for (const u of choosing) expect(planned.bindings.get(u.id), u.id).toEqual([planned.slots.find((x) => x.id === u.id)!.binding]);
    // the rate-limit episode fills its first agency's write bucket from an empty window: nobody used it in the window before, nor while it cools
    const episode = slots.find((x) => x.id === 'RL-01')!;
    const filled = `${episode.binding[0]}:write`;
    for (const other of slots.filter((x) => x !== episode && x.resources.includes(filled))) {
      const usedUntil = other.narrowAt ?? other.endAt;
      expect(usedUntil <= episode.startAt - 60_000 || other.startAt >= episode.endAt + 60_000, `${other.id} beside the fill`).toBe(true);
    }
  });
});

describe('the estimate and the run', () => {
  it('are one scheduler: the slots the estimate plays are the slots of a run whose units take the same time and send the same requests', async () => {
    const o = { windowMs: 10_000, marginMs: 0, roundTripMs: 0, checkOverheadMs: 100, agencyCount: 2, limitOf: () => 100 };
    const checks = [
      mk('AU-01', { uses: { touches: ['0:read'], requests: 1 } }),
      mk('E', { uses: { touches: ['0:read', '0:write', '0:wallet'], fills: ['0:write'], requests: 2, wait: { ms: () => 10_000 } } }),
      mk('W', { uses: { touches: ['0:write', '0:wallet', '0:webhook'], requests: 3, wait: { ms: () => 30_000, holds: ['0:webhook'] } } }),
      mk('Q', { uses: { touches: ['0:read', '0:write', '0:wallet'], requests: 1, wait: { ms: () => 5_000, holds: [], resumes: true } } }),
      mk('B1', { uses: { touches: ['0:write', '0:wallet'], requests: { read: 0, write: 4 } } }),
      mk('B2', { uses: { touches: ['0:write', '0:wallet'], requests: 4 } }),
      mk('T', { needs: ['second-agency'], uses: { touches: ['0:read', '1:read'], requests: 5, wait: { ms: () => 2_000 } } }),
      mk('SC', { phase: 'last', uses: { touches: ['0:read'], requests: 1 } }),
    ];
    const bindings = (c: Check): number[][] => (c.phase === 'last' || c.id === 'T' ? [[0, 1]] : [[0], [1]]);
    const planned = await planRun(
      checks.map((c) => unitOf(c, bindings(c))),
      o,
    );
    const byId = new Map(checks.map((c) => [c.id, c]));
    const order = planned.order.map((id) => byId.get(id)!);
    const played = await playSchedule(
      order.map((c) => unitOf(c, bindings(c))),
      o,
    );

    // The run: units that wait on the clock and send their requests, counted by the run's bucket meter.
    const two = resolveProfile({
      base_url: 'http://127.0.0.1:1/v1',
      hotel_base_url: null,
      clock: { control: 'none' },
      agencies: [
        { id: 'a', key_id: 'ka', secret: 's' },
        { id: 'b', key_id: 'kb', secret: 's' },
      ],
    });
    const agencies = [
      { id: 'a', keyId: 'ka', secret: 's' },
      { id: 'b', keyId: 'kb', secret: 's' },
    ];
    const { clock, slots, options } = virtual({ windowMs: 10_000, agencyCount: 2 });
    const meter = bucketMeter(new MemoryRecorder(), two, agencies, () => clock.now());
    let n = 0;
    const sendAll = (check: Check, binding: number[]): void => {
      const lease = leaseFor(demandOf(check), binding, 2);
      for (const b of lease.resources.filter((r) => /:(read|write)$/.test(r) && !lease.fills.includes(r))) {
        const [agency, kind] = b.split(':');
        for (let i = 0; i < requestsTo(lease, b); i++)
          meter.recorder.record({
            id: `x-${++n}`,
            request: {
              method: kind === 'read' ? 'GET' : 'POST',
              url: 'http://127.0.0.1:1/v1/x',
              headers: { authorization: `SVC-HMAC-SHA256 Credential=${agencies[Number(agency)]!.keyId}` },
            },
            startedAt: clock.now(),
            durationMs: 0,
          });
      }
    };
    const running = order.map((check) =>
      unitOf(check, bindings(check), async (binding, lease) => {
        const busyMs = 100;
        const wait = check.uses?.wait;
        const waitMs = wait?.ms(two) ?? 0;
        if (!wait?.holds) {
          await clock.wait(busyMs + waitMs);
          return sendAll(check, binding);
        }
        await clock.wait(wait.resumes ? busyMs / 2 : busyMs);
        sendAll(check, binding);
        lease.narrow(wait.holds);
        await clock.wait(waitMs);
        if (!wait.resumes) return;
        await lease.widen();
        await clock.wait(busyMs / 2);
        sendAll(check, binding);
      }),
    );
    await runSchedule(running, { ...options, planner: new LeasePlanner(o), meter });
    expect(slots).toEqual(played.slots);
    expect(clock.now()).toBe(played.endMs);
    expect(played.endMs).toBe(planned.estimateMs);
    // not a trivial schedule: units overlapped, one narrowed, a filled bucket cooled
    expect(slots.some((a) => slots.some((b) => a !== b && a.startAt < b.endAt && b.startAt < a.endAt))).toBe(true);
    expect(
      slots
        .filter((x) => x.narrowAt !== undefined)
        .map((x) => x.id)
        .sort(),
    ).toEqual(['Q', 'W']);
  });
});

describe('the run of a plan', () => {
  it('keeps every unit on the agencies it played with: a short check a moment early elsewhere would spend the budget the plan left to another', async () => {
    // Agency 1's write bucket admits 20 a window (18 for checks that do not fill it); a window is 60 s.
    const o = { windowMs: 60_000, marginMs: 1000, roundTripMs: 0, checkOverheadMs: 100, agencyCount: 2, limitOf: (b: string) => (b === '1:write' ? 20 : 100) };
    const rw = (id: string, requests: NonNullable<CheckUses['requests']>, touches: CheckUses['touches'] = ['0:read', '0:write']) =>
      mk(id, { uses: { touches, requests } });
    const checks: Array<[Check, number[][]]> = [
      // W holds agency 0's webhook endpoint 10 s, A and C are short on agencies 0 and 1
      [mk('W', { uses: { touches: ['0:webhook'], requests: 0, wait: { ms: () => 10_000 } } }), [[0]]],
      [rw('A', 1), [[0]]],
      [rw('C', 1), [[1]]],
      // B may run on either agency, and sends 6 writes; D (the isolation episode) sends 13 and needs agency 0's webhook too
      [rw('B', { read: 5, write: 6 }), [[0], [1]]],
      [rw('D', { read: 5, write: 13 }, ['0:read', '0:write', '0:webhook']), [[0], [1]]],
    ];
    const planned = await planRun(
      checks.map(([c, b]) => unitOf(c, b)),
      o,
    );
    // played: A and C end together, B takes agency 0 after A, D agency 1 after C (1 + 13 writes fit its 18)
    const playedOn = (id: string) => planned.slots.find((x) => x.id === id)!.binding;
    expect([playedOn('B'), playedOn('D')]).toEqual([[0], [1]]);
    expect(planned.estimateMs).toBe(10_100);

    // The run, as the runner makes it: the plan's order and agencies; C ends 10 ms early, A 10 ms late (a real clock).
    const { clock, slots, options } = virtual({ windowMs: 60_000, agencyCount: 2 });
    const tookMs: Record<string, number> = { W: 10_100, A: 110, C: 90 };
    const byId = new Map(checks.map(([c, b]) => [c.id, { check: c, bindings: planned.bindings.get(c.id) ?? b }]));
    const running = planned.order.map((id) => {
      const { check, bindings } = byId.get(id)!;
      return unitOf(check, bindings, () => clock.wait(tookMs[id] ?? 100));
    });
    await runSchedule(running, { ...options, planner: new LeasePlanner(o) });
    // B waits the 10 ms for agency 0 rather than taking agency 1, where its 6 writes would leave D's 13 no room for a window
    expect(slots.map((x) => `${x.id} on ${x.binding.join(',')}`).sort()).toEqual(planned.slots.map((x) => `${x.id} on ${x.binding.join(',')}`).sort());
    expect(clock.now()).toBe(planned.estimateMs);
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
