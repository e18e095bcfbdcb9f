/*
 * The one scheduler of a suite run: it runs the units of the schedule on a
 * clock, and the estimate plays it with stand-in bodies on a virtual clock.
 */
import { leaseFor, resourcesOf } from './agency-binding.js';
import type { ClockDriver } from '../clock/clock-driver.js';
import type { BucketUse, Lease, LeasePlanner } from './lease-planner.js';
import type { RunListener } from './run-events.js';
import type { LeaseChange, ScheduleUnit } from './schedule-unit.js';

/** What the scheduler measures the buckets with (see `bucketMeter`); without it, a lease counts as using its buckets fully. */
export interface LeaseMeter {
  mark(buckets: readonly string[]): ReadonlyMap<string, number>;
  usedSince(since: ReadonlyMap<string, number>, buckets: readonly string[]): BucketUse;
}

/** One unit as it ran: its resources from `startAt`, from `narrowAt` on only `keep` of them, to `endAt`. */
export interface PlayedSlot {
  id: string;
  binding: number[];
  resources: string[];
  keep?: string[] | undefined;
  startAt: number;
  narrowAt?: number | undefined;
  endAt: number;
}

/** What the scheduler runs with. */
interface ScheduleOptions {
  planner: LeasePlanner;
  agencyCount: number;
  clock: ClockDriver;
  emit?: RunListener | undefined;
  meter?: LeaseMeter | undefined;
  /**
   * One unit at a time, strictly in list order (a target whose clock is
   * driven). With `reset`, the target is put back to its fixture before each
   * unit (but one that isolates itself), and its buckets count as empty.
   */
  serial?: { reset?: (() => Promise<void>) | undefined } | undefined;
  /** Once it aborts, no unit starts; the running ones are awaited (they stop on the same signal). */
  signal?: AbortSignal | undefined;
  /** Each unit's slot is pushed here as it starts, and completed as it narrows and ends. */
  slots?: PlayedSlot[] | undefined;
}

/**
 * Runs a suite's units: the first phase (the baseline) alone, then, when
 * `proceed()` says so, the main units together, then each unit of the last
 * phase alone, in list order.
 */
export async function runSchedule(units: readonly ScheduleUnit[], o: ScheduleOptions, proceed: () => boolean = () => true): Promise<void> {
  await runUnits(
    units.filter((u) => u.phase === 'first'),
    o,
  );
  if (!proceed()) return;
  await runUnits(
    units.filter((u) => u.phase === 'main'),
    o,
  );
  for (const unit of units.filter((u) => u.phase === 'last')) await runUnits([unit], o);
}

/** Each binding of `unit`, best first, with its lease. */
function leasesOf(unit: ScheduleUnit, agencyCount: number): Array<{ binding: number[]; lease: Lease }> {
  return unit.bindings.map((binding) => ({ binding, lease: leaseFor(unit.uses, binding, agencyCount) }));
}

/** How soon a blocked unit must be due to start for the units after it to leave it its lease, ms. */
const DUE_SOON_MS = 2_000;

/**
 * Starts, in list order, every pending unit whose lease may start at `now`
 * (removing it from `pending`); with `strict`, only the first. Units listed
 * later do not take what an earlier one waits for:
 * - a filler waiting for its buckets to rest on its only binding keeps those
 *   buckets (one of them used would push its rest back a window, again and again);
 * - a unit due to start within a moment (its rests end then, nothing of its
 *   lease is held) keeps its whole lease, so that a few milliseconds either
 *   way do not hand its agencies to a unit the plan put after it;
 * - a unit waiting on its only binding for another unit to give part of its
 *   lease back keeps the rest of it (that may come at any moment);
 * - a unit away for a wait it comes back from (`away`, ranked by list order)
 *   keeps the lease it comes back for.
 */
function startInOrder(
  pending: ScheduleUnit[],
  planner: LeasePlanner,
  agencyCount: number,
  now: number,
  strict: boolean,
  start: (unit: ScheduleUnit, free: { binding: number[]; lease: Lease }) => void,
  away: ReadonlyArray<{ rank: number; resources: readonly string[] }> = [],
  rankOf: (unit: ScheduleUnit) => number = () => 0,
): void {
  const reserved = new Set<string>();
  for (let i = 0; i < pending.length && !(strict && i > 0);) {
    const unit = pending[i]!;
    // A unit away for a wait it comes back from keeps its lease from the units listed after it.
    for (const a of away) if (a.rank < rankOf(unit)) for (const r of a.resources) reserved.add(r);
    const leases = leasesOf(unit, agencyCount);
    const free = leases.find(({ lease }) => planner.canStart(lease, now));
    if (free && !free.lease.resources.some((r) => reserved.has(r))) {
      pending.splice(i, 1);
      start(unit, free);
      continue;
    }
    if (!free) {
      // About to start (only a rest or a cooling ends within a moment): its whole lease is kept from the units after it, which would otherwise take it by a few milliseconds.
      const due = leases.find(({ lease }) => (planner.dueAt(lease, now) ?? Infinity) <= now + DUE_SOON_MS);
      const only = leases.length === 1 ? leases[0]!.lease : undefined;
      if (due) for (const r of due.lease.resources) reserved.add(r);
      // On its only agencies, held in part by a unit that may give them back at any moment: the rest of its lease is kept from the units after it.
      else if (only && planner.dueAt(only, now) === undefined) for (const r of only.resources) reserved.add(r);
      // Waiting there for buckets to rest: those buckets, which a unit after it would keep from resting.
      else if (only) for (const b of only.fills) reserved.add(b);
    }
    i++;
  }
}

/**
 * Runs units each holding a lease on the agency resources it touches on
 * whichever suitable agency is free: units on disjoint resources overlap, and
 * a filled bucket cools a window before its next user. Units start in list
 * order as far as the leases allow. A unit may give back part of its lease
 * while it runs (`narrow`) and take it back (`widen`), served before any new
 * unit; a bucket rests from the last request it really received (`meter`).
 * When nothing runs, nothing rests, and no lease can be granted (e.g. too few
 * agencies), the next unit runs alone rather than the run hanging.
 */
async function runUnits(list: readonly ScheduleUnit[], o: ScheduleOptions): Promise<void> {
  const { planner, agencyCount, clock, meter, signal } = o;
  const pending = [...list];
  const running = new Set<Promise<void>>();
  let wake: () => void = () => undefined;
  const resuming: Array<{ lease: Lease; resolve: () => void }> = [];
  const rank = new Map(list.map((u, i) => [u, i] as const));
  const rankOf = (u: ScheduleUnit): number => rank.get(u) ?? 0;
  /** Units that gave their lease back for a wait they come back from. */
  const away = new Map<ScheduleUnit, { rank: number; resources: readonly string[] }>();
  const launch = (unit: ScheduleUnit, binding: number[], first: Lease): Promise<void> => {
    let lease = first;
    let mark = meter?.mark(lease.resources);
    const used = (): BucketUse | undefined => (meter && mark ? meter.usedSince(mark, lease.resources) : undefined);
    const slot: PlayedSlot = { id: unit.id, binding, resources: [...first.resources], startAt: clock.now(), endAt: clock.now() };
    o.slots?.push(slot);
    const change: LeaseChange = {
      narrow(keep) {
        const kept = resourcesOf(unit.uses, keep, binding, agencyCount);
        // What the kept buckets got so far still counts when they are given back: the mark stays.
        lease = planner.release(lease, kept, clock.now(), used());
        if (slot.narrowAt === undefined) Object.assign(slot, { narrowAt: clock.now(), keep: [...lease.resources] });
        if (unit.uses.resumes) away.set(unit, { rank: rankOf(unit), resources: first.resources.filter((r) => !kept.includes(r)) });
        wake();
      },
      async widen() {
        if (lease.resources.length === first.resources.length) return;
        planner.release(lease, [], clock.now(), used());
        lease = { ...lease, resources: [] };
        await new Promise<void>((resolve) => {
          resuming.push({ lease: first, resolve });
          wake();
        });
        lease = first;
        away.delete(unit);
        mark = meter?.mark(lease.resources);
      },
    };
    planner.start(lease);
    return unit.run(binding, change).finally(() => {
      away.delete(unit);
      planner.finish(lease, clock.now(), used());
      slot.endAt = clock.now();
    });
  };
  // Never settles without a signal.
  const aborted = new Promise<void>((resolve) => {
    if (signal?.aborted) resolve();
    else signal?.addEventListener('abort', () => resolve(), { once: true });
  });
  while (pending.length > 0 || running.size > 0) {
    if (signal?.aborted) {
      // Nothing starts any more; the units running stop on the same signal.
      await Promise.all(running);
      return;
    }
    if (o.serial?.reset && running.size === 0 && pending[0] && !pending[0].isolatesItself) {
      await o.serial.reset();
      planner.forget();
    }
    const now = clock.now();
    for (let i = 0; i < resuming.length;) {
      const r = resuming[i]!;
      // It holds a running slot already: only its resources are asked for.
      if (!planner.canTake(r.lease, now)) {
        i++;
        continue;
      }
      resuming.splice(i, 1);
      planner.take(r.lease);
      r.resolve();
    }
    startInOrder(
      pending,
      planner,
      agencyCount,
      now,
      o.serial !== undefined,
      (unit, free) => {
        const p: Promise<void> = launch(unit, free.binding, free.lease).finally(() => running.delete(p));
        running.add(p);
      },
      [...away.values()],
      rankOf,
    );
    if (pending.length === 0 && running.size === 0) break;
    const change = planner.nextChangeAt(now);
    const woken = new Promise<void>((resolve) => (wake = resolve));
    const waiters: Array<Promise<unknown>> = [...running, woken, aborted];
    if (change !== undefined && (pending.length > 0 || resuming.length > 0)) {
      if (running.size === 0) {
        const reason =
          o.serial && pending[0]
            ? `a rate-limit bucket of ${pending[0].id} is still resting`
            : 'a rate-limit bucket is resting for one window before its next user';
        o.emit?.({ type: 'waiting', ms: change - now, reason });
      }
      // Cut short by an interruption, it only wakes the loop, which then stops.
      waiters.push(clock.wait(Math.max(0, change - now)).catch(() => undefined));
    }
    if (running.size === 0 && change === undefined) {
      const unit = pending.shift()!;
      await unit.run(unit.bindings[0] ?? [0], { narrow: () => undefined, widen: () => Promise.resolve() });
      continue;
    }
    await Promise.race(waiters);
    // What else ends at this instant ends before the next decision (on a virtual clock, every unit settles first).
    await clock.wait(0).catch(() => undefined);
  }
}
