/*
 * What the scheduler schedules: a check, an episode of checks sharing one fill,
 * the checks sharing one wait, or the scenarios and properties. The one place
 * that reads the scheduling fields of a `Check`.
 */
import type { BucketRef, Check, LearnedTarget, Need, ResourceRef } from '../checks/types.js';
import type { Profile } from '../profile/index.js';

/**
 * How a running unit may change its lease: give back all but some resources
 * (refs as its checks see them), and take back what it held before that.
 * `backAt` (the run's clock) says when it means to take them back: the units
 * due to hold them then are kept off them meanwhile.
 */
export interface LeaseChange {
  narrow(keep: readonly string[], backAt?: number): void;
  widen(): Promise<void>;
}

/** One stretch of a unit's planned time: holding its whole lease, only some of it (refs as its checks see them), or nothing, away until it takes its lease back. */
export interface UnitSpan {
  ms: number;
  holds: 'all' | 'away' | readonly ResourceRef[];
}

/**
 * What a unit asks of a real-time schedule: the resources it leases (as roles),
 * its requests and its wait. A check's comes from its `uses` (see `CheckUses`
 * for each field); `tops` only the scenarios and properties ask for.
 */
export interface UnitDemand {
  /** The lease holder: the unit's id. */
  id: string;
  needs: Need[];
  touches?: ResourceRef[];
  fills?: BucketRef[];
  /** Buckets it fills up from whatever they hold (it measures them itself): no rest before it, but a window's cooling after. */
  tops?: BucketRef[];
  /** Its role 0 is always the profile's first agency. */
  pinned?: boolean;
  /** Its role 0 is every agency of the run. */
  everyAgency?: boolean;
  requests?: number | { read: number; write: number };
  charges?: number;
  /** What it holds through its wait, after giving back the rest. */
  waitTouches?: ResourceRef[];
  /** It takes its whole lease back after its wait. */
  resumes?: boolean;
  /** It may take its lease back later than its wait ends: nothing is kept free for it. */
  resumesLate?: boolean;
  /** Units with the same key share one wait: only the first pays it. */
  waitKey?: string;
  /** Target time it waits, ms. */
  waitMs: number;
  /** Of `waitMs`, the time it spends away first, holding nothing (the scenarios' waits), before it holds `waitTouches` through the rest. */
  awayMs?: number;
  /** Target time it waits when it starts `startMs` after the run's start, ms (a wait anchored to the target's clock), where that differs from `waitMs`. */
  waitAt?: (startMs: number) => number;
}

/** How a unit runs once leased: role i played by agency `binding[i]`, its lease changed through `lease`. */
export type UnitBody = (binding: number[], lease: LeaseChange) => Promise<void>;

/** When a unit runs: the baseline alone first, the others, then each check that judges the whole run alone, last. */
export type UnitPhase = 'first' | 'main' | 'last';

/** One unit of the schedule. */
export interface ScheduleUnit {
  kind: 'check' | 'episode' | 'shared-wait' | 'parts';
  id: string;
  uses: UnitDemand;
  /** Agency bindings it may run with, best first. */
  bindings: number[][];
  phase: UnitPhase;
  /** The checks it runs, in order, with the time each waits (none for the scenarios and properties). */
  members: ReadonlyArray<{ check: Check; waitMs: number }>;
  /** It isolates its own cases (resets between them): serially, the target is not reset before it. */
  isolatesItself?: boolean;
  run: UnitBody;
}

/** Id of the unit the scenarios and properties run as. */
export const PARTS_UNIT_ID = 'scenarios and properties';

/** The checks in the order a report lists them: the others first, those that judge the whole run last. */
export function splitLast(checks: readonly Check[]): { regular: Check[]; last: Check[] } {
  return { regular: checks.filter((c) => c.phase !== 'last'), last: checks.filter((c) => c.phase === 'last') };
}

/** A check's wait, ms (0 when it names none or an impossible one). */
function waitOf(check: Check, profile: Readonly<Profile>, learned: LearnedTarget | undefined, startMs?: number): number {
  const ms = check.uses?.wait?.ms(profile, learned, startMs) ?? 0;
  return Number.isFinite(ms) ? Math.max(0, ms) : 0;
}

/** What `check` asks of the schedule, from its `uses`, with a wait of `waitMs`. */
export function demandOf(check: Pick<Check, 'id' | 'needs' | 'uses'>, waitMs = 0): UnitDemand {
  const { touches, fills, requests, charges, wait, role0 } = check.uses ?? {};
  const declared = {
    touches,
    fills,
    pinned: role0 === 'first-agency' ? true : undefined,
    everyAgency: role0 === 'every-agency' ? true : undefined,
    requests,
    charges,
    waitTouches: wait?.holds,
    resumes: wait?.resumes,
    resumesLate: wait?.resumesLate,
    waitKey: wait?.sharedKey,
  };
  return { id: check.id, needs: check.needs, ...Object.fromEntries(Object.entries(declared).filter(([, v]) => v !== undefined)), waitMs };
}

/** How `unitsOf` makes units. */
interface UnitsOptions {
  profile: Readonly<Profile>;
  learned?: LearnedTarget | undefined;
  /** Fold the checks sharing one wait into one unit (in real time; run alone, each is isolated from the others). */
  groupWaits: boolean;
  /** The agency bindings of a unit. */
  bindingsOf(uses: UnitDemand, phase: UnitPhase): number[][];
  /** The body of a unit: its members run one after the other. */
  bodyOf(members: ReadonlyArray<{ check: Check; waitMs: number }>): UnitBody;
  /** True for a check the run skips for a wait over `--max-wait`: it waits nothing. */
  overMaxWait?: ((check: Check) => boolean) | undefined;
}

/**
 * The checks as units, in list order (a group at the place of its first
 * member): a check alone, or the members of one episode folded into one unit
 * that needs and touches what any of them does (they share one fill of the
 * buckets, so they share one lease), or the checks sharing one wait (`uses.wait.sharedKey`:
 * the first makes the run, the others judge it). A group's wait and requests
 * are its first member's.
 */
export function unitsOf(list: readonly Check[], o: UnitsOptions): ScheduleUnit[] {
  const units: ScheduleUnit[] = [];
  const done = new Set<string>();
  const groupOf = (c: Check): string | undefined =>
    c.episode !== undefined ? `episode ${c.episode}` : o.groupWaits && c.uses?.wait?.sharedKey !== undefined ? `wait ${c.uses.wait.sharedKey}` : undefined;
  for (const check of list) {
    const group = groupOf(check);
    if (group !== undefined && done.has(group)) continue;
    if (group !== undefined) done.add(group);
    const members = (group === undefined ? [check] : list.filter((c) => groupOf(c) === group)).map((c) => ({
      check: c,
      waitMs: o.overMaxWait?.(c) ? 0 : waitOf(c, o.profile, o.learned),
    }));
    const uses = demandOf(check, members[0]!.waitMs);
    if (check.uses?.wait && !o.overMaxWait?.(check)) uses.waitAt = (startMs) => waitOf(check, o.profile, o.learned, startMs);
    if (members.length > 1) {
      const union = <T>(pick: (c: Check) => readonly T[] | undefined): T[] | undefined => {
        const all = members.flatMap((m) => [...(pick(m.check) ?? [])]);
        return all.length > 0 ? [...new Set(all)] : undefined;
      };
      uses.needs = union((c) => c.needs) ?? [];
      const touches = union((c) => c.uses?.touches);
      const fills = union((c) => c.uses?.fills);
      if (touches) uses.touches = touches;
      if (fills) uses.fills = fills;
    }
    const phase: UnitPhase = check.phase === 'last' ? 'last' : check.phase === 'baseline' ? 'first' : 'main';
    units.push({
      kind: members.length === 1 ? 'check' : check.episode !== undefined ? 'episode' : 'shared-wait',
      id: check.id,
      uses,
      bindings: o.bindingsOf(uses, phase),
      phase,
      members,
      run: o.bodyOf(members),
    });
  }
  return units;
}

/** `units` in the order of `ids` (by unit id); the ones it does not name keep their order, after. */
export function inOrder(units: readonly ScheduleUnit[], ids: readonly string[]): ScheduleUnit[] {
  const rank = (u: ScheduleUnit): number => {
    const i = ids.indexOf(u.id);
    return i < 0 ? ids.length : i;
  };
  return [...units].sort((a, b) => rank(a) - rank(b));
}
