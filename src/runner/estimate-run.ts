import type { LearnedTarget } from '../checks/types.js';
import type { Profile } from '../profile/index.js';
import { resourcesOf, totalRequests } from './agency-binding.js';
import { LeasePlanner, requestsTo, type BucketUse, type Lease, type LeasePlannerOptions } from './lease-planner.js';
import { startInOrder, type Bindable } from './leased-schedule.js';

/** What the estimate plays the schedule with. */
interface EstimateOptions extends LeasePlannerOptions {
  profile: Readonly<Profile>;
  learned?: LearnedTarget | undefined;
  agencyCount: number;
  /** Measured round trip of one request, ms. */
  roundTripMs: number;
  /** Local work of one check beyond its requests and waits, ms. @defaultValue 100 */
  checkOverheadMs?: number;
  /** Ids of checks the runner runs alone before the others (the baseline). */
  runFirst?: readonly string[];
}

/** A real-time run's estimated duration (the played schedule), and the same schedule played one check at a time. */
interface Estimate {
  estimateMs: number;
  serialMs: number;
}

/** An estimate with the order of the checks it was played in: the runner starts them in that order. */
interface PlannedRun extends Estimate {
  /** Check ids (an episode by its first member), in the order to start them. */
  order: string[];
}

/**
 * Estimates a real-time run by playing the lease schedule the runner will
 * follow (leases, cooling, agency binding) on a virtual clock. A check costs
 * its requests times the measured round trip, the buckets it fills (their
 * limits) likewise, and its waits, paid once per shared wait (a check that
 * judges a wait another paid sends nothing). Through its wait a check holds
 * only its `waitTouches`, when it names them.
 */
export function estimateRun(items: readonly Bindable[], o: EstimateOptions): Estimate {
  return { estimateMs: Math.round(play(items, o)), serialMs: Math.round(play(items, { ...o, maxConcurrent: 1 })) };
}

/** Orders tried besides the given one and the rules below: random ones, from a fixed seed (the plan is the same for the same checks). */
const RANDOM_ORDERS = 32;

/** Moves of one check tried on the best order found (a plan takes well under a second of local work). */
const LOCAL_MOVES = 160;

/**
 * Picks the order in which the runner offers the checks to the leases (list
 * scheduling: each check starts as soon as its resources allow, in that
 * order): the one whose played schedule ends first among the given order,
 * longest first, shortest first, the fillers of buckets last (a filled bucket
 * cools a window, which overlaps the final rest only when the fill comes last)
 * or first (while every bucket is fresh), and a few random orders, then improved by moving one check at a time.
 * Returns it with its estimate.
 */
export function planRun(items: readonly Bindable[], o: EstimateOptions): PlannedRun {
  const alone = (b: Bindable): number => {
    const c = costOf(b, o, new Set(), b.check.fills ?? []);
    return c.busyMs + c.waitMs;
  };
  const fills = (b: Bindable): number => ((b.check.fills?.length ?? 0) > 0 ? 1 : 0);
  const longest = [...items].sort((a, b) => alone(b) - alone(a));
  const shortest = [...items].sort((a, b) => alone(a) - alone(b));
  const candidates: Bindable[][] = [
    [...items],
    longest,
    shortest,
    [...items].sort((a, b) => fills(a) - fills(b)),
    [...longest].sort((a, b) => fills(a) - fills(b)),
    [...shortest].sort((a, b) => fills(a) - fills(b)),
    // The short checks first, so that the buckets they touch rest early; then the fillers, the longest first.
    [...shortest.filter((b) => fills(b) === 0), ...longest.filter((b) => fills(b) > 0)],
    // Fillers first, longest first, while every bucket is fresh; then the rest.
    [...longest.filter((b) => fills(b) > 0), ...shortest.filter((b) => fills(b) === 0)],
    [...longest.filter((b) => fills(b) > 0), ...longest.filter((b) => fills(b) === 0)],
    [...longest.filter((b) => fills(b) > 0), ...items.filter((b) => fills(b) === 0)],
    // Fillers first; then the checks that wait holding little, shortest first, so that their requests are over early; then the rest.
    ...[shortest, longest, [...items]].map((rest) => [
      ...longest.filter((b) => fills(b) > 0),
      ...shortest.filter((b) => fills(b) === 0 && b.check.waitTouches !== undefined),
      ...rest.filter((b) => fills(b) === 0 && b.check.waitTouches === undefined),
    ]),
  ];
  const random = mulberry32(0x5eed);
  for (let i = 0; i < RANDOM_ORDERS; i++) candidates.push(shuffle([...items], random));
  let best = candidates[0]!;
  let bestMs = play(best, o);
  for (const c of candidates.slice(1)) {
    const ms = play(c, o);
    if (ms < bestMs) {
      best = c;
      bestMs = ms;
    }
  }
  // Then moves of one check to another place, or swaps of two, kept when the schedule ends sooner.
  for (let i = 0; i < LOCAL_MOVES && best.length > 1; i++) {
    const from = Math.floor(random() * best.length);
    const to = Math.floor(random() * best.length);
    if (from === to) continue;
    const moved = [...best];
    if (i % 2 === 0) moved.splice(to, 0, ...moved.splice(from, 1));
    else [moved[from], moved[to]] = [moved[to]!, moved[from]!];
    const ms = play(moved, o);
    if (ms < bestMs) {
      best = moved;
      bestMs = ms;
    }
  }
  return { estimateMs: Math.round(bestMs), serialMs: Math.round(play(best, { ...o, maxConcurrent: 1 })), order: best.map((b) => b.check.id) };
}

/** What one check costs in the played schedule. */
interface Cost {
  /** Sending its requests, holding its whole lease. */
  busyMs: number;
  /** Waiting, holding its `waitTouches` when it names them. */
  waitMs: number;
  /** False when it only judges what another check sent (a shared wait already paid). */
  sends: boolean;
}

/** `fills`: the buckets it fills, as bound (their limits count). */
function costOf(item: Bindable, o: EstimateOptions, paid: Set<string>, fills: readonly string[]): Cost {
  const c = item.check;
  let waitMs = Math.max(0, c.waitsMs?.(o.profile, o.learned) ?? 0);
  if (c.waitKey !== undefined && paid.has(c.waitKey)) return { busyMs: o.checkOverheadMs ?? 100, waitMs: 0, sends: false };
  if (c.waitKey !== undefined) paid.add(c.waitKey);
  const fillRequests = fills.reduce((sum, b) => sum + (o.limitOf?.(b) ?? 60) + 1, 0);
  if (!Number.isFinite(waitMs)) waitMs = 0;
  return { busyMs: (o.checkOverheadMs ?? 100) + (totalRequests(c) + fillRequests) * o.roundTripMs, waitMs, sends: true };
}

/** One check in a played schedule. */
export interface PlayedSlot {
  id: string;
  binding: number[];
  /** Resources held from `startAt`, and from `narrowAt` on only `keep` of them, to `endAt` (a check that `resumes` takes them all back for its last requests). */
  resources: string[];
  keep?: string[] | undefined;
  startAt: number;
  narrowAt?: number | undefined;
  endAt: number;
}

/** The schedule `items` are played in, in that order (what the estimate and the runner follow), slot by slot, and its end. */
export function playSchedule(items: readonly Bindable[], o: EstimateOptions): { endMs: number; slots: PlayedSlot[] } {
  const slots: PlayedSlot[] = [];
  const endMs = play(items, o, slots);
  return { endMs, slots };
}

/** The end of the played schedule, ms from the start; each check's slot is pushed on `slots` when given. */
function play(items: readonly Bindable[], o: EstimateOptions, slots?: PlayedSlot[]): number {
  const paid = new Set<string>();
  const planner = new LeasePlanner(o);
  interface Running {
    item: Bindable;
    binding: number[];
    lease: Lease;
    cost: Cost;
    /** When it gives back all but its `waitTouches` (its requests are sent). */
    narrowAt: number | undefined;
    endsAt: number;
    lastSendAt: number;
    /** The whole lease it takes back after its wait (`resumes`), and the time its last requests take then. */
    resume?: { lease: Lease; tailMs: number } | undefined;
    /** True while it waits to take its lease back. */
    resuming?: boolean;
    slot?: PlayedSlot | undefined;
  }
  const usage = (r: Running, buckets: readonly string[]): BucketUse =>
    new Map(r.cost.sends ? buckets.filter((b) => !r.lease.fills.includes(b)).map((b) => [b, { n: requestsTo(r.lease, b), lastAt: r.lastSendAt }]) : []);
  const phase = (list: readonly Bindable[], start: number): number => {
    const pending = [...list];
    const running: Running[] = [];
    let now = start;
    while (pending.length > 0 || running.length > 0) {
      for (const r of running) {
        if (!r.resuming || !planner.canTake(r.resume!.lease, now)) continue;
        planner.take(r.resume!.lease);
        r.lease = r.resume!.lease;
        r.endsAt = now + r.resume!.tailMs;
        r.lastSendAt = r.endsAt;
        r.resuming = false;
        r.resume = undefined;
      }
      startInOrder(pending, planner, o.agencyCount, now, (item, free) => {
        planner.start(free.lease);
        const cost = costOf(item, o, paid, free.lease.fills);
        const narrows = item.check.waitTouches !== undefined && cost.waitMs > 0;
        const resumes = narrows && item.check.resumes === true;
        // One that takes its lease back sends half its requests before its wait, half after.
        const busyMs = resumes ? cost.busyMs / 2 : cost.busyMs;
        const endsAt = now + busyMs + cost.waitMs;
        const slot: PlayedSlot = {
          id: item.check.id,
          binding: free.binding,
          resources: [...free.lease.resources],
          keep: narrows ? resourcesOf(item.check, item.check.waitTouches ?? [], free.binding, o.agencyCount) : undefined,
          startAt: now,
          narrowAt: narrows ? now + busyMs : undefined,
          endAt: endsAt,
        };
        slots?.push(slot);
        running.push({
          slot,
          item,
          binding: free.binding,
          lease: free.lease,
          cost,
          narrowAt: narrows ? now + busyMs : undefined,
          endsAt,
          lastSendAt: narrows ? now + busyMs : endsAt,
          resume: resumes ? { lease: free.lease, tailMs: cost.busyMs - busyMs } : undefined,
        });
      });
      const times = running.flatMap((r) => (r.resuming ? [] : r.narrowAt !== undefined ? [r.narrowAt, r.endsAt] : [r.endsAt]));
      const next = Math.min(...times, planner.nextChangeAt(now) ?? Infinity);
      if (!Number.isFinite(next)) {
        // The runner would run a check no lease can serve alone: count it the same way.
        const item = pending.shift();
        if (!item) break;
        const cost = costOf(item, o, paid, []);
        now += cost.busyMs + cost.waitMs;
        continue;
      }
      now = next;
      for (let i = running.length - 1; i >= 0; i--) {
        const r = running[i]!;
        if (r.narrowAt !== undefined && r.narrowAt <= now) {
          const keep = resourcesOf(r.item.check, r.item.check.waitTouches ?? [], r.binding, o.agencyCount);
          const given = r.lease.resources.filter((x) => !keep.includes(x));
          r.lease = planner.release(r.lease, keep, now, usage(r, given));
          r.narrowAt = undefined;
        }
        if (r.resuming || r.endsAt > now) continue;
        if (r.resume) {
          // Its wait is over: it asks for its whole lease back, served before any new check.
          r.lease = planner.release(r.lease, [], now, usage(r, r.lease.resources));
          r.resuming = true;
          continue;
        }
        planner.finish(r.lease, now, usage(r, r.lease.resources));
        if (r.slot) r.slot.endAt = now;
        running.splice(i, 1);
      }
    }
    return now;
  };
  const first = items.filter((i) => o.runFirst?.includes(i.check.id) && !i.check.runsLast);
  let now = phase(first, 0);
  now = phase(
    items.filter((i) => !first.includes(i) && !i.check.runsLast),
    now,
  );
  for (const item of items.filter((i) => i.check.runsLast)) now = phase([item], now);
  return now;
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(list: T[], random: () => number): T[] {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [list[i], list[j]] = [list[j]!, list[i]!];
  }
  return list;
}
