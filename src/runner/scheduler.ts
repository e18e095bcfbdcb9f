/*
 * The one scheduler of a suite run: it runs the units of the schedule on a
 * clock, and the estimate plays it with stand-in bodies on a virtual clock.
 */
import { leaseFor, resourcesOf } from './agency-binding.js';
import type { ClockDriver } from '../clock/clock-driver.js';
import type { BucketUse, Lease, LeasePlanner } from './lease-planner.js';
import type { RunListener } from './run-events.js';
import type { LeaseChange, ScheduleUnit, UnitSpan } from './schedule-unit.js';

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
  /** A unit's planned time when it starts at `at` on `binding` (the estimate's `spansOf`); without it, a unit counts as holding its whole lease until it ends. */
  spansOf?: ((unit: ScheduleUnit, binding: readonly number[], at: number) => UnitSpan[]) | undefined;
  /**
   * When the plan starts a unit (the clock's time; undefined: as soon as its lease allows): it starts no earlier. A unit ready before its
   * time takes what the plan gave to a unit it put before it, one not ready yet (whose buckets rest a moment longer, or which comes back
   * from a wait a moment later): the plan then no longer holds, and the run ends a window or more after its estimate.
   */
  notBefore?: ((unit: ScheduleUnit) => number | undefined) | undefined;
}

/** A unit away for a wait it comes back from: what it takes back, from when (`from`, the run's clock) and until when it then holds it (`until`). */
interface Away {
  unit: ScheduleUnit;
  resources: readonly string[];
  from: number;
  until: number;
}

/** Room on either side of an away unit's planned return that others keep off its resources, ms: plans are estimates. */
const AWAY_MARGIN_MS = 1_000;

/** When a unit starting at `now` on `binding` is planned to hold each resource of `lease`: [from, to) intervals; without spans, from now on. */
function plannedHolds(unit: ScheduleUnit, binding: readonly number[], lease: Lease, now: number, agencyCount: number, spans: readonly UnitSpan[] | undefined) {
  const held = new Map<string, Array<[number, number]>>(lease.resources.map((r) => [r, []]));
  if (!spans) {
    for (const list of held.values()) list.push([now, Infinity]);
    return held;
  }
  let at = now;
  for (const span of spans) {
    const holds = span.holds === 'all' ? lease.resources : span.holds === 'away' ? [] : resourcesOf(unit.uses, span.holds, binding, agencyCount);
    for (const r of holds) held.get(r)?.push([at, at + span.ms]);
    at += span.ms;
  }
  return held;
}

/** True when `unit`, started now with `lease`, is planned to hold a resource an away unit takes back while that one holds it (with a margin). */
function crossesAway(
  unit: ScheduleUnit,
  binding: readonly number[],
  lease: Lease,
  now: number,
  o: Pick<ScheduleOptions, 'agencyCount' | 'spansOf'>,
  away: readonly Away[],
): boolean {
  const others = away.filter((a) => a.unit !== unit && a.resources.some((r) => lease.resources.includes(r)));
  if (others.length === 0) return false;
  const held = plannedHolds(unit, binding, lease, now, o.agencyCount, o.spansOf?.(unit, binding, now));
  return others.some((a) => a.resources.some((r) => (held.get(r) ?? []).some(([from, to]) => from < a.until + AWAY_MARGIN_MS && to > a.from - AWAY_MARGIN_MS)));
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
 *   lease back keeps the rest of it (that may come at any moment).
 * No unit takes what a unit away for a wait (`away`) comes back for, if it
 * would still hold it, by its plan, when that one comes back.
 */
function startInOrder(
  pending: ScheduleUnit[],
  o: Pick<ScheduleOptions, 'planner' | 'agencyCount' | 'spansOf' | 'notBefore'>,
  now: number,
  strict: boolean,
  start: (unit: ScheduleUnit, free: { binding: number[]; lease: Lease }) => void,
  away: readonly Away[] = [],
  heldUntil: (resource: string) => number = () => Infinity,
): void {
  const { planner, agencyCount } = o;
  const reserved = new Set<string>();
  const keep: Away[] = [...away];
  for (let i = 0; i < pending.length && !(strict && i > 0);) {
    const unit = pending[i]!;
    const leases = leasesOf(unit, agencyCount);
    const planned = o.notBefore?.(unit);
    if (planned !== undefined && planned > now) {
      // Not its time yet: about to be, the units after it keep off its lease as off a unit due to start.
      if (planned <= now + DUE_SOON_MS) for (const r of leases[0]!.lease.resources) reserved.add(r);
      i++;
      continue;
    }
    const free = leases.find(({ lease }) => planner.canStart(lease, now));
    if (free && !free.lease.resources.some((r) => reserved.has(r)) && !crossesAway(unit, free.binding, free.lease, now, o, keep)) {
      pending.splice(i, 1);
      start(unit, free);
      continue;
    }
    if (!free) {
      // About to start (only a rest or a cooling ends within a moment): its whole lease is kept from the units after it, which would otherwise take it by a few milliseconds.
      const due = leases.find(({ lease }) => (planner.dueAt(lease, now) ?? Infinity) <= now + DUE_SOON_MS);
      const only = leases.length === 1 ? leases[0]!.lease : undefined;
      if (due) for (const r of due.lease.resources) reserved.add(r);
      // On its only agencies, held in part by a unit that may give them back at any moment: the rest of its lease is kept from the units after it;
      // where the plan says when they come back, only from then on (a unit after it that is done with them before may use them meanwhile).
      else if (only && planner.dueAt(only, now) === undefined) {
        const from = Math.max(now, ...only.resources.filter((r) => planner.isHeld(r)).map(heldUntil));
        const spans = Number.isFinite(from) ? o.spansOf?.(unit, leases[0]!.binding, from) : undefined;
        if (spans) keep.push({ unit, resources: only.resources, from, until: from + spans.reduce((sum, x) => sum + x.ms, 0) });
        else for (const r of only.resources) reserved.add(r);
      }
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
  /** Units that gave their lease back for a wait they come back from. */
  const away = new Map<ScheduleUnit, Away>();
  /** When the unit holding each resource gives it back, by its plan (Infinity: unknown). */
  const freeAt = new Map<string, number>();
  const launch = (unit: ScheduleUnit, binding: number[], first: Lease): Promise<void> => {
    let lease = first;
    let mark = meter?.mark(lease.resources);
    const used = (): BucketUse | undefined => (meter && mark ? meter.usedSince(mark, lease.resources) : undefined);
    const slot: PlayedSlot = { id: unit.id, binding, resources: [...first.resources], startAt: clock.now(), endAt: clock.now() };
    o.slots?.push(slot);
    const planned = o.spansOf?.(unit, binding, slot.startAt);
    const holds = plannedHolds(unit, binding, first, slot.startAt, agencyCount, planned);
    for (const r of first.resources) freeAt.set(r, Math.max(...(holds.get(r) ?? []).map(([, to]) => to), slot.startAt));
    /** What it held before it last gave part of its lease back for a wait it comes back from. */
    let comeBack: Lease | undefined;
    const change: LeaseChange = {
      narrow(keep, backAt) {
        const before = lease;
        const kept = resourcesOf(unit.uses, keep, binding, agencyCount);
        // What the kept buckets got so far still counts when they are given back: the mark stays.
        lease = planner.release(lease, kept, clock.now(), used());
        if (slot.narrowAt === undefined) Object.assign(slot, { narrowAt: clock.now(), keep: [...lease.resources] });
        if (backAt !== undefined || unit.uses.resumes) comeBack = before;
        if (backAt !== undefined) {
          // Back at `backAt`, it holds what it took back for the rest of its plan after its wait away (a plan has one at most).
          const index = planned?.findIndex((x) => x.holds === 'away') ?? -1;
          const rest = index < 0 ? Infinity : planned!.slice(index + 1).reduce((sum, x) => sum + x.ms, 0);
          away.set(unit, { unit, resources: before.resources.filter((r) => !kept.includes(r)), from: backAt, until: backAt + rest });
        }
        wake();
      },
      async widen() {
        const target = comeBack ?? first;
        comeBack = undefined;
        if (lease.resources.length === target.resources.length) return;
        planner.release(lease, [], clock.now(), used());
        lease = { ...lease, resources: [] };
        await new Promise<void>((resolve) => {
          resuming.push({ lease: target, resolve });
          wake();
        });
        lease = target;
        away.delete(unit);
        mark = meter?.mark(lease.resources);
      },
    };
    planner.start(lease);
    return unit.run(binding, change).finally(() => {
      for (const r of lease.resources) freeAt.delete(r);
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
      o,
      now,
      o.serial !== undefined,
      (unit, free) => {
        const p: Promise<void> = launch(unit, free.binding, free.lease).finally(() => running.delete(p));
        running.add(p);
      },
      [...away.values()],
      (r) => freeAt.get(r) ?? Infinity,
    );
    if (pending.length === 0 && running.size === 0) break;
    const rests = planner.nextChangeAt(now);
    const timetabled = Math.min(...pending.map((u) => o.notBefore?.(u) ?? Infinity).filter((at) => at > now));
    const change = Number.isFinite(timetabled) && timetabled < (rests ?? Infinity) ? timetabled : rests;
    const woken = new Promise<void>((resolve) => (wake = resolve));
    const waiters: Array<Promise<unknown>> = [...running, woken, aborted];
    if (change !== undefined && (pending.length > 0 || resuming.length > 0)) {
      if (running.size === 0) {
        const reason =
          change === timetabled
            ? 'the plan starts the next unit then'
            : o.serial && pending[0]
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
