import type { Check } from '../checks/types.js';
import { leaseFor, resourcesOf } from './agency-binding.js';
import type { ClockDriver } from '../clock/clock-driver.js';
import type { BucketUse, Lease, LeasePlanner } from './lease-planner.js';
import type { RunListener } from './run-events.js';

/** A check to schedule, with the agency bindings it may run with (best first). */
export interface Bindable {
  check: Check;
  bindings: number[][];
}

/** The first binding of `item` whose lease may start at `now`, with that lease. */
function firstFree(item: Bindable, planner: LeasePlanner, agencyCount: number, now: number): { binding: number[]; lease: Lease } | undefined {
  for (const binding of item.bindings) {
    const lease = leaseFor(item.check, binding, agencyCount);
    if (planner.canStart(lease, now)) return { binding, lease };
  }
  return undefined;
}

/**
 * Starts, in list order, every pending item whose lease may start at `now`
 * (removing it from `pending`). An item that waits for buckets to rest (a
 * filler, or the scenarios and properties) on its only binding keeps those
 * buckets from the items after it: one of them using a bucket would push its
 * rest back a window, again and again.
 */
export function startInOrder(
  pending: Bindable[],
  planner: LeasePlanner,
  agencyCount: number,
  now: number,
  start: (item: Bindable, free: { binding: number[]; lease: Lease }) => void,
): void {
  const reserved = new Set<string>();
  for (let i = 0; i < pending.length;) {
    const item = pending[i]!;
    const free = firstFree(item, planner, agencyCount, now);
    if (free && !free.lease.resources.some((r) => reserved.has(r))) {
      pending.splice(i, 1);
      start(item, free);
      continue;
    }
    if (!free && item.bindings.length === 1) {
      const lease = leaseFor(item.check, item.bindings[0]!, agencyCount);
      for (const b of [...lease.fills, ...(lease.rested ?? [])]) reserved.add(b);
    }
    i++;
  }
}

/** How a running check may change its lease: give back all but some resources (refs as the check sees them), and take it all back later. */
export interface LeaseChange {
  narrow(keep: readonly string[]): void;
  widen(): Promise<void>;
}

/** What the leased runner measures the buckets with (see `bucketMeter`); without it, a lease counts as using its buckets fully. */
interface LeaseMeter {
  mark(buckets: readonly string[]): ReadonlyMap<string, number>;
  usedSince(since: ReadonlyMap<string, number>, buckets: readonly string[]): BucketUse;
}

/**
 * Runs checks in real time, each holding a lease on the agency resources it
 * touches on whichever suitable agency is free: checks on disjoint resources
 * overlap, and a filled bucket cools a window before its next user. Checks
 * start in list order as far as the leases allow. A check may give back part
 * of its lease while it runs (`narrow`); a bucket rests from the last request
 * it really received (`meter`).
 */
export async function runLeased(
  list: readonly Bindable[],
  planner: LeasePlanner,
  agencyCount: number,
  clock: ClockDriver,
  runOne: (check: Check, binding: number[], change: LeaseChange) => Promise<void>,
  emit: RunListener,
  meter?: LeaseMeter,
): Promise<void> {
  const pending = [...list];
  const running = new Set<Promise<void>>();
  let wake: () => void = () => undefined;
  // Checks taking their whole lease back after a wait: served before any new check.
  const resuming: Array<{ lease: Lease; resolve: () => void }> = [];
  const launch = (item: Bindable, binding: number[], first: Lease): Promise<void> => {
    let lease = first;
    let mark = meter?.mark(lease.resources);
    const used = (): BucketUse | undefined => (meter && mark ? meter.usedSince(mark, lease.resources) : undefined);
    const change: LeaseChange = {
      narrow(keep) {
        const kept = resourcesOf(item.check, keep, binding, agencyCount);
        // What the kept buckets got so far still counts when they are given back: the mark stays.
        lease = planner.release(lease, kept, clock.now(), used());
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
        mark = meter?.mark(lease.resources);
      },
    };
    planner.start(lease);
    return runOne(item.check, binding, change).finally(() => {
      planner.finish(lease, clock.now(), used());
    });
  };
  while (pending.length > 0 || running.size > 0) {
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
    startInOrder(pending, planner, agencyCount, now, (item, free) => {
      const p: Promise<void> = launch(item, free.binding, free.lease).finally(() => running.delete(p));
      running.add(p);
    });
    if (pending.length === 0 && running.size === 0) break;
    const change = planner.nextChangeAt(now);
    const woken = new Promise<void>((resolve) => (wake = resolve));
    const waiters: Promise<unknown>[] = [...running, woken];
    if (change !== undefined && (pending.length > 0 || resuming.length > 0)) {
      if (running.size === 0) emit({ type: 'waiting', ms: change - now, reason: 'a rate-limit bucket is resting for one window before its next user' });
      const rested = clock.wait(Math.max(0, change - now));
      // It may lose the race and reject later (an interrupted run): that is news only if it wins.
      rested.catch(() => undefined);
      waiters.push(rested);
    }
    if (running.size === 0 && change === undefined) {
      // Nothing runs and nothing rests, yet checks wait: no lease can ever be granted (e.g. too few agencies); run the next one alone rather than hang.
      const item = pending.shift()!;
      await runOne(item.check, item.bindings[0] ?? [0], { narrow: () => undefined, widen: () => Promise.resolve() });
      continue;
    }
    await Promise.race(waiters);
  }
}
