import type { Check } from '../checks/types.js';
import { leaseFor } from './agency-binding.js';
import type { ClockDriver } from './clock-driver.js';
import type { Lease, LeasePlanner } from './lease-planner.js';
import type { RunListener } from './run-events.js';

/** A check to schedule, with the agency bindings it may run with (best first). */
export interface Bindable {
  check: Check;
  bindings: number[][];
}

/** The first binding of `item` whose lease may start at `now`, with that lease. */
export function firstFree(item: Bindable, planner: LeasePlanner, agencyCount: number, now: number): { binding: number[]; lease: Lease } | undefined {
  for (const binding of item.bindings) {
    const lease = leaseFor(item.check, binding, agencyCount);
    if (planner.canStart(lease, now)) return { binding, lease };
  }
  return undefined;
}

/**
 * Runs checks in real time, each holding a lease on the agency resources it
 * touches on whichever suitable agency is free: checks on disjoint resources
 * overlap, and a filled bucket cools a window before its next user. Checks
 * start in list order as far as the leases allow.
 */
export async function runLeased(
  list: readonly Bindable[],
  planner: LeasePlanner,
  agencyCount: number,
  clock: ClockDriver,
  runOne: (check: Check, binding: number[]) => Promise<void>,
  emit: RunListener,
): Promise<void> {
  const pending = [...list];
  const running = new Set<Promise<void>>();
  while (pending.length > 0 || running.size > 0) {
    const now = clock.now();
    for (let i = 0; i < pending.length; ) {
      const item = pending[i]!;
      const free = firstFree(item, planner, agencyCount, now);
      if (!free) {
        i++;
        continue;
      }
      pending.splice(i, 1);
      planner.start(free.lease);
      const p: Promise<void> = runOne(item.check, free.binding).finally(() => {
        planner.finish(free.lease, clock.now());
        running.delete(p);
      });
      running.add(p);
    }
    if (pending.length === 0 && running.size === 0) break;
    const change = planner.nextChangeAt(now);
    const waiters: Promise<unknown>[] = [...running];
    if (change !== undefined && pending.length > 0) {
      if (running.size === 0) emit({ type: 'waiting', ms: change - now, reason: 'a rate-limit bucket is resting for one window before its next user' });
      waiters.push(clock.wait(Math.max(0, change - now)));
    }
    if (waiters.length === 0) {
      // Nothing runs and nothing rests, yet checks wait: no lease can ever be granted (e.g. too few agencies); run the next one alone rather than hang.
      const item = pending.shift()!;
      await runOne(item.check, item.bindings[0] ?? [0]);
      continue;
    }
    await Promise.race(waiters);
  }
}
