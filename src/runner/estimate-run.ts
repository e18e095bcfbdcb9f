import type { LearnedTarget } from '../checks/types.js';
import type { Profile } from '../profile/types.js';
import { DEFAULT_REQUESTS } from './agency-binding.js';
import { LeasePlanner, type Lease, type LeasePlannerOptions } from './lease-planner.js';
import { firstFree, type Bindable } from './leased-schedule.js';

/** What the estimate plays the schedule with. */
export interface EstimateOptions extends LeasePlannerOptions {
  profile: Readonly<Profile>;
  learned?: LearnedTarget | undefined;
  agencyCount: number;
  /** Measured round trip of one request, ms. */
  roundTripMs: number;
  /** Requests the scenarios and properties send after the checks, roughly (0 when they do not run). */
  partRequests?: number;
  /** Their local work beyond round trips, ms. @defaultValue 0 */
  partOverheadMs?: number;
  /** Local work of one check beyond its requests and waits, ms. @defaultValue 100 */
  checkOverheadMs?: number;
}

/** A real-time run's estimated duration (the played schedule), and the same schedule played one check at a time. */
export interface Estimate {
  estimateMs: number;
  serialMs: number;
}

/**
 * Estimates a real-time run by playing the lease schedule the runner will
 * follow (leases, cooling, agency binding) on a virtual clock. A check costs
 * its requests times the measured round trip, the buckets it fills (their
 * limits) likewise, and its waits, paid once per shared wait.
 */
export function estimateRun(items: readonly Bindable[], o: EstimateOptions): Estimate {
  return { estimateMs: Math.round(play(items, o)), serialMs: Math.round(play(items, { ...o, maxConcurrent: 1 })) };
}

/** The end of the played schedule, ms from the start. */
function play(items: readonly Bindable[], o: EstimateOptions): number {
  const overhead = o.checkOverheadMs ?? 100;
  const paid = new Set<string>();
  const cost = (item: Bindable, fills: readonly string[]): number => {
    const c = item.check;
    const fillRequests = fills.reduce((sum, b) => sum + (o.limitOf?.(b) ?? 60) + 1, 0);
    let waits = Math.max(0, c.waitsMs?.(o.profile, o.learned) ?? 0);
    if (c.waitKey !== undefined) {
      if (paid.has(c.waitKey)) waits = 0;
      paid.add(c.waitKey);
    }
    return overhead + ((c.requests ?? DEFAULT_REQUESTS) + fillRequests) * o.roundTripMs + waits;
  };
  const planner = new LeasePlanner(o);
  const phase = (list: readonly Bindable[], start: number): number => {
    const pending = [...list];
    const running: Array<{ lease: Lease; endsAt: number }> = [];
    let now = start;
    while (pending.length > 0 || running.length > 0) {
      for (let i = 0; i < pending.length; ) {
        const free = firstFree(pending[i]!, planner, o.agencyCount, now);
        if (!free) {
          i++;
          continue;
        }
        planner.start(free.lease);
        running.push({ lease: free.lease, endsAt: now + cost(pending[i]!, free.lease.fills) });
        pending.splice(i, 1);
      }
      const nextEnd = running.length > 0 ? Math.min(...running.map((r) => r.endsAt)) : Infinity;
      const next = Math.min(nextEnd, planner.nextChangeAt(now) ?? Infinity);
      if (!Number.isFinite(next)) {
        // The runner would run a check no lease can serve alone: count it the same way.
        const item = pending.shift();
        if (!item) break;
        now += cost(item, []);
        continue;
      }
      now = next;
      for (let i = running.length - 1; i >= 0; i--) {
        if (running[i]!.endsAt <= now) {
          planner.finish(running[i]!.lease, now);
          running.splice(i, 1);
        }
      }
    }
    return now;
  };
  let now = phase(items.filter((i) => !i.check.runsLast), 0);
  const partRequests = o.partRequests ?? 0;
  if (partRequests > 0) now = Math.max(now, planner.restedAt()) + partRequests * o.roundTripMs + (o.partOverheadMs ?? 0);
  for (const item of items.filter((i) => i.check.runsLast)) now = phase([item], now);
  return now;
}
