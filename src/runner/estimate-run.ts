/*
 * The estimate of a real-time run: the run's own scheduler, played on a
 * virtual clock with stand-in bodies for the units.
 */
import { leaseFor, totalRequests } from './agency-binding.js';
import { LeasePlanner, requestsTo, type Lease, type LeasePlannerOptions } from './lease-planner.js';
import { runSchedule, type LeaseMeter, type PlayedSlot } from './scheduler.js';
import type { ScheduleUnit, UnitBody, UnitDemand, UnitSpan } from './schedule-unit.js';
import { VirtualClockDriver } from '../clock/virtual-clock-driver.js';

/** What the estimate plays the schedule with. */
interface EstimateOptions extends LeasePlannerOptions {
  agencyCount: number;
  /** Measured round trip of one request, ms. */
  roundTripMs: number;
  /** Local work of one unit beyond its requests and waits, ms. @defaultValue 100 */
  checkOverheadMs?: number;
}

/** A real-time run's estimated duration (the played schedule), and the same schedule played one unit at a time. */
interface Estimate {
  estimateMs: number;
  serialMs: number;
}

/** An estimate with the order of the units it was played in: the runner starts them in that order. */
interface PlannedRun extends Estimate {
  /** Unit ids, in the order to start them. */
  order: string[];
  /** The units whose agencies the plan prefers in another order than given (by unit id): their bindings, best first. */
  bindings: Map<string, number[][]>;
  /** Each unit's slot in the played schedule. */
  slots: PlayedSlot[];
}

/** What one unit costs in the played schedule. */
interface Cost {
  /** Sending its requests, holding its whole lease. */
  busyMs: number;
  /** Waiting, holding its `waitTouches` when it names them. */
  waitMs: number;
  /** False when it only judges what another unit sent (a shared wait already paid). */
  sends: boolean;
}

/**
 * A unit's cost: its requests times the measured round trip, the buckets it
 * fills (`fills`, as bound: their limits count) likewise, and its wait, paid
 * once per shared wait (a unit that judges a wait another paid sends nothing).
 */
function costOf(uses: UnitDemand, o: EstimateOptions, paid: Set<string>, fills: readonly string[], waitMs = uses.waitMs): Cost {
  const overhead = o.checkOverheadMs ?? 100;
  if (uses.waitKey !== undefined && paid.has(uses.waitKey)) return { busyMs: overhead, waitMs: 0, sends: false };
  if (uses.waitKey !== undefined) paid.add(uses.waitKey);
  const fillRequests = fills.reduce((sum, b) => sum + (o.limitOf?.(b) ?? 60) + 1, 0);
  return { busyMs: overhead + (totalRequests(uses) + fillRequests) * o.roundTripMs, waitMs, sends: true };
}

/**
 * A bucket meter the stand-in bodies send into: what their leases declare,
 * when they send it. A bucket a lease holds counts as reached even when it
 * declares no request there (it rests a window, its budget counts nothing).
 */
function standInMeter(): LeaseMeter & { sent(lease: Lease, at: number): void } {
  const counts = new Map<string, { n: number; touched: number; lastAt: number }>();
  return {
    sent(lease, at) {
      for (const b of lease.resources) {
        if (!(b.endsWith(':read') || b.endsWith(':write')) || lease.fills.includes(b)) continue;
        const c = counts.get(b) ?? { n: 0, touched: 0, lastAt: 0 };
        counts.set(b, { n: c.n + requestsTo(lease, b), touched: c.touched + 1, lastAt: at });
      }
    },
    mark: (buckets) => new Map(buckets.flatMap((b) => [[b, counts.get(b)?.n ?? 0] as const, [`${b}#touched`, counts.get(b)?.touched ?? 0] as const])),
    usedSince(since, buckets) {
      const out = new Map<string, { n: number; lastAt: number }>();
      for (const b of buckets) {
        const c = counts.get(b);
        if (c && c.touched > (since.get(`${b}#touched`) ?? 0)) out.set(b, { n: c.n - (since.get(b) ?? 0), lastAt: c.lastAt });
      }
      return out;
    },
  };
}

/**
 * A unit's planned time from `startMs` (ms from the run's start) as spans:
 * busy sending for its requests holding its whole lease, then its wait
 * (through which it holds only its `waitTouches`, when it names them); one
 * that `resumes` sends half its requests before its wait and half after,
 * holding its whole lease again; one with `awayMs` is away that long first,
 * holding nothing, then holds its `waitTouches` through the rest. `paid`:
 * the shared waits already paid (read, not changed).
 */
export function spansOf(uses: UnitDemand, o: EstimateOptions, paid: ReadonlySet<string>, fills: readonly string[], startMs: number): UnitSpan[] {
  const cost = costOf(uses, o, new Set(paid), fills, uses.waitAt?.(startMs) ?? uses.waitMs);
  if (uses.waitTouches === undefined || cost.waitMs <= 0) return [{ ms: cost.busyMs + cost.waitMs, holds: 'all' }];
  const away = Math.min(uses.awayMs ?? 0, cost.waitMs);
  if (away > 0)
    return [
      { ms: cost.busyMs, holds: 'all' },
      { ms: away, holds: 'away' },
      { ms: cost.waitMs - away, holds: uses.waitTouches },
    ];
  if (uses.resumes)
    return [
      { ms: cost.busyMs / 2, holds: 'all' },
      { ms: cost.waitMs, holds: uses.waitTouches.length === 0 ? 'away' : uses.waitTouches },
      { ms: cost.busyMs / 2, holds: 'all' },
    ];
  return [
    { ms: cost.busyMs, holds: 'all' },
    { ms: cost.waitMs, holds: uses.waitTouches },
  ];
}

/**
 * The stand-in body of a unit: its spans (`spansOf`) one after the other. It
 * sends its requests at the end of each span holding its whole lease, gives
 * back what a span does not hold, and away, gives back everything until it
 * takes back what it held before.
 */
function standIn(unit: ScheduleUnit, o: EstimateOptions, paid: Set<string>, clock: VirtualClockDriver, meter: ReturnType<typeof standInMeter>): UnitBody {
  const uses = unit.uses;
  return async (binding, change) => {
    const lease = leaseFor(uses, binding, o.agencyCount);
    const spans = spansOf(uses, o, paid, lease.fills, clock.now());
    const sends = costOf(uses, o, paid, lease.fills).sends;
    let narrowed = false;
    for (const [i, span] of spans.entries()) {
      if (span.holds === 'away') {
        // What it takes back: the holds of the span after, when that is only part of its lease.
        const next = spans[i + 1]?.holds;
        if (Array.isArray(next)) change.narrow(next);
        change.narrow([], uses.resumesLate ? undefined : clock.now() + span.ms);
        await clock.wait(span.ms);
        await change.widen();
        continue;
      }
      if (span.holds !== 'all') change.narrow(span.holds);
      else if (narrowed) await change.widen();
      narrowed = span.holds !== 'all';
      await clock.wait(span.ms);
      if (span.holds === 'all' && sends) meter.sent(lease, clock.now());
    }
  };
}

/** The schedule the runner follows for `units` in that order, played with stand-in bodies: its end (ms from the start) and each unit's slot. */
export async function playSchedule(units: readonly ScheduleUnit[], o: EstimateOptions): Promise<{ endMs: number; slots: PlayedSlot[] }> {
  const clock = new VirtualClockDriver(0);
  const meter = standInMeter();
  const paid = new Set<string>();
  const slots: PlayedSlot[] = [];
  const played = units.map((u) => ({ ...u, run: standIn(u, o, paid, clock, meter) }));
  try {
    const spans = (u: ScheduleUnit, binding: readonly number[], at: number): UnitSpan[] =>
      spansOf(u.uses, o, paid, leaseFor(u.uses, binding, o.agencyCount).fills, at);
    await runSchedule(played, { planner: new LeasePlanner(o), agencyCount: o.agencyCount, clock, meter, slots, spansOf: spans });
    return { endMs: clock.now(), slots };
  } finally {
    clock.stop();
  }
}

/** Estimates a real-time run of `units` in that order, and of the same units one at a time. */
export async function estimateRun(units: readonly ScheduleUnit[], o: EstimateOptions): Promise<Estimate> {
  const [run, serial] = await Promise.all([playSchedule(units, o), playSchedule(units, { ...o, maxConcurrent: 1 })]);
  return { estimateMs: Math.round(run.endMs), serialMs: Math.round(serial.endMs) };
}

/** Passes of moving each long unit to the front of the best order found. */
const FRONT_PASSES = 2;

/** Rounds of preferring other agencies and moving units to the front, at most. */
const SEARCH_ROUNDS = 3;

/** How much later the played schedule may end with every unit kept on its played agencies, ms: a run that follows its plan is worth a moment. */
const KEPT_SLACK_MS = 1_000;

/** Plays the search makes after its last improvement (the best order for its slots, with the agencies it played, and one unit at a time): three, and one to spare. */
const SETTLING_PLAYS = 4;

/**
 * `order` with each unit that holds nothing through its wait kept to its
 * first agencies in the profile's order: away, it costs them only its
 * requests, and where the plan would let it start elsewhere it takes a bucket
 * another agency keeps quiet for a fill.
 */
function awayKept(order: readonly ScheduleUnit[]): ScheduleUnit[] {
  return order.map((u) =>
    u.uses.waitMs > 0 && u.uses.waitTouches?.length === 0 && u.bindings.length > 1 ? { ...u, bindings: [[...u.bindings].sort(byProfileOrder)[0]!] } : u,
  );
}

/** Earlier agencies first, role by role: the profile's order. */
function byProfileOrder(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/**
 * Picks the order in which the runner offers the units to the leases (list
 * scheduling: each unit starts as soon as its resources allow, in that
 * order): the one whose played schedule ends first among the given order,
 * the shortest first (with the fillers of buckets last, or the fillers
 * longest first after the others: a filled bucket cools a window, which
 * overlaps the final rest only when the fill comes last), each also with the
 * units away through their waits kept to the profile's first agencies
 * (`awayKept`: kept there, it waits for them; preferred, it starts
 * elsewhere whenever they are busy, and the moves below did not lead from
 * one to the other), then improved by
 * preferring another of each long unit's agencies (one that waits, fills a
 * bucket or looks through every agency: a wait on one agency may leave
 * another to a fill), then by moving each long unit to the front
 * while that ends the schedule sooner: started first, its wait overlaps the
 * most, and no short unit takes its agency and pushes its rest back. Past
 * `deadline` (performance.now()) it stops improving and settles on the best
 * order so far: the run starts at a set instant. Returns it with its estimate. On the registry with three reference agencies
 * and the scenarios and properties, at each 5 s of the target's minute, this
 * plans 154 to 155 s after 66 plays (1.3 to 2.5 s on a busy 2-CPU machine); from the given agencies alone it planned
 * 155 to 166 s, and 185 s at one second (test/runner/suite-plan.test.ts).
 */
export async function planRun(units: readonly ScheduleUnit[], o: EstimateOptions, deadline = Infinity): Promise<PlannedRun> {
  let plays = 0;
  let playingMs = 0;
  const ms = async (order: readonly ScheduleUnit[]): Promise<number> => {
    const t0 = performance.now();
    const { endMs } = await playSchedule(order, o);
    plays++;
    playingMs += performance.now() - t0;
    return endMs;
  };
  /** True once the search must stop improving to settle on the best order so far by `deadline` (performance.now()): its last plays still to come. */
  const late = (): boolean => performance.now() + SETTLING_PLAYS * (playingMs / Math.max(1, plays)) >= deadline;
  const alone = (u: ScheduleUnit): number => {
    const c = costOf(u.uses, o, new Set(), u.uses.fills ?? []);
    return c.busyMs + c.waitMs;
  };
  // A unit that leaves a bucket full (fills it, or tops it up) makes its next user wait a window.
  const fills = (u: ScheduleUnit): number => ((u.uses.fills?.length ?? 0) + (u.uses.tops?.length ?? 0) > 0 ? 1 : 0);
  const shortest = [...units].sort((a, b) => alone(a) - alone(b));
  const longest = [...units].sort((a, b) => alone(b) - alone(a));
  const orders = [
    [...units],
    shortest,
    [...shortest].sort((a, b) => fills(a) - fills(b)),
    [...shortest.filter((u) => fills(u) === 0), ...longest.filter((u) => fills(u) > 0)],
  ];
  const candidates = [...orders, ...orders.map(awayKept)];
  let best = candidates[0]!;
  let bestMs = await ms(best);
  for (const order of candidates.slice(1)) {
    const got = await ms(order);
    if (got < bestMs) {
      best = order;
      bestMs = got;
    }
  }
  const long = units.filter((u) => u.uses.waitMs > 0 || fills(u) > 0 || u.uses.everyAgency === true);
  /** Each long unit's agencies: another binding preferred (a wait on one agency may free another for a fill), while that helps. */
  const preferBindings = async (): Promise<boolean> => {
    let better = false;
    for (const u of long) {
      const at = best.findIndex((x) => x.id === u.id);
      for (const b of u.bindings) {
        if (late()) return false;
        const current = best[at]!;
        if (current.bindings[0] === b) continue;
        const tried = { ...current, bindings: [b, ...current.bindings.filter((x) => x !== b)] };
        const order = best.map((x, i) => (i === at ? tried : x));
        const got = await ms(order);
        if (got < bestMs) {
          best = order;
          bestMs = got;
          better = true;
        }
      }
    }
    return better;
  };
  /** Each long unit moved to the front, while that ends the schedule sooner. */
  const moveToFront = async (): Promise<boolean> => {
    let improved = false;
    for (let pass = 0, better = true; better && pass < FRONT_PASSES; pass++) {
      better = false;
      for (const { id } of long) {
        if (late()) return improved;
        const u = best.find((x) => x.id === id)!;
        if (best[0] === u) continue;
        const moved = [u, ...best.filter((x) => x !== u)];
        const got = await ms(moved);
        if (got < bestMs) {
          best = moved;
          bestMs = got;
          better = true;
          improved = true;
        }
      }
    }
    return improved;
  };
  // A unit moved to the front may want other agencies than before, and the other way round: a few rounds of both.
  for (let round = 0; round < SEARCH_ROUNDS && !late(); round++) {
    const bound = await preferBindings();
    const moved = await moveToFront();
    if (!bound && !moved) break;
  }
  // The run keeps every unit on the agencies it played with: another binding, taken a moment early or late, hands a filler's agency to a unit
  // the plan put after it, or spends a bucket's budget the plan left to another unit (a short check on an agency with a small limit can
  // keep a unit that sends there off it for a window).
  const { slots: bestSlots } = await playSchedule(best, o);
  const kept = best.map((u) => {
    const played = bestSlots.find((s) => s.id === u.id)?.binding;
    return played && u.bindings.length > 1 ? { ...u, bindings: [played] } : u;
  });
  const keptPlay = await playSchedule(kept, o);
  let slots = bestSlots;
  if (keptPlay.endMs <= bestMs + KEPT_SLACK_MS) {
    best = kept;
    bestMs = keptPlay.endMs;
    slots = keptPlay.slots;
  }
  const serial = await playSchedule(best, { ...o, maxConcurrent: 1 });
  return {
    estimateMs: Math.round(bestMs),
    serialMs: Math.round(serial.endMs),
    order: best.map((u) => u.id),
    bindings: new Map(best.filter((u) => !units.includes(u)).map((u) => [u.id, u.bindings] as const)),
    slots,
  };
}
