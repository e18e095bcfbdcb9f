/*
 * The plan of a suite run: its units, the order they are offered to the
 * leases in, and (in real time) the estimate of how long it takes.
 */
import { durationText } from '../log/duration-text.js';
import type { Check } from '../checks/types.js';
import type { Profile, ResolvedAgency } from '../profile/index.js';
import { bindingsOf, leaseFor, rolesOf } from './agency-binding.js';
import { planRun, playSchedule, spansOf } from './estimate-run.js';
import type { LeasePlannerOptions } from './lease-planner.js';
import { planParts } from './parts-unit.js';
import type { RunListener } from './run-events.js';
import { inOrder, PARTS_UNIT_ID, splitLast, unitsOf, type ScheduleUnit, type UnitBody, type UnitSpan } from './schedule-unit.js';
import type { SuiteFacts } from './suite-facts.js';
import type { SuiteParts } from './suite-part-types.js';
import { maxWaitReason, skipReason } from './target-facts.js';

/** A part of the suite beyond checks. */
export type PartName = 'scenarios' | 'properties';

/** What the plan is made of. */
interface PlanInput {
  profile: Readonly<Profile>;
  agencies: readonly ResolvedAgency[];
  checks: readonly Check[];
  parts?: SuiteParts | undefined;
  /** Most units at once against a real-time target. */
  maxConcurrent: number;
  facts: SuiteFacts;
  emit: RunListener;
  /** Bodies of the units: the checks of a unit one after the other; the scenarios and properties (the agencies they use, when known, in real time). */
  bodies: {
    checks(members: ScheduleUnit['members']): UnitBody;
    parts(uses: Map<PartName, Array<number | null>> | undefined, binding: number[], aside?: readonly string[]): UnitBody;
    /** A scenario run apart, as a unit of its own on one agency. */
    aside(name: string, agency: number): UnitBody;
  };
  /** When the run started (performance.now()): the estimate counts what reading and planning took. */
  startedAt: number;
  /** When a bucket (`<agency>:read`) last got a request, on the run's clock; undefined when never. */
  lastRequestAt?: ((bucket: string) => number | undefined) | undefined;
  /** The run's clock now. */
  now?: (() => number) | undefined;
  /** Longest single wait in real time, ms (`--max-wait`): what waits longer is skipped, and planned as taking no time. @defaultValue 120 000 */
  maxWaitMs?: number | undefined;
  /**
   * In real time, the time the search for the order may take, ms: the run starts when it is over.
   * @defaultValue {@link SEARCH_PLAYS} plays of the units as listed, at most {@link PLAN_SEARCH_MS}
   */
  searchMs?: number | undefined;
}

/** The plan of a run. */
export interface SuitePlan {
  /** The units in the order they are offered to the leases (each phase keeps it). */
  units: ScheduleUnit[];
  /** The checks in the order the report lists them. */
  regular: Check[];
  last: Check[];
  partList: PartName[];
  planner: LeasePlannerOptions;
  /** In real time, the run's clock when the run starts: the plan is played from then. */
  startAt?: number | undefined;
  /** In real time, when the plan starts a unit (the run's clock): the run starts it no earlier. */
  notBefore?: ((unit: ScheduleUnit) => number | undefined) | undefined;
  /** In real time, a unit's planned time when it starts at `at` (the run's clock) on `binding`, as the estimate plays it. */
  spansOf?: ((unit: ScheduleUnit, binding: readonly number[], at: number) => UnitSpan[]) | undefined;
  /** A note for the top of the reports, if any. */
  note?: string | undefined;
}

/**
 * Real time the search for a real-time run's order may take at most, ms: the run starts when it is over, and past it the search settles
 * on the best order found so far. On a busy 2-CPU machine the search of the whole suite took 1.3 to 2.5 s.
 */
const PLAN_SEARCH_MS = 3_000;

/**
 * Real time the search is given, in plays of the units as listed (the first play, the slowest): the search of the whole suite makes 66
 * plays, the later ones taking a third to a half of the first.
 */
const SEARCH_PLAYS = 40;

/** Plans a run: in real time the order is the one whose played schedule ends first, announced with its estimate. */
export async function planSuite(input: PlanInput): Promise<SuitePlan> {
  const { profile, agencies, facts, emit } = input;
  const { regular, last } = splitLast(input.checks);
  const partList = (['scenarios', 'properties'] as const).filter((p) => input.parts?.[p]);
  const limitOf = (bucket: string): number | undefined => {
    const [a, kind] = bucket.split(':');
    const l = facts.agencies[Number(a)]?.limits;
    return l === undefined ? undefined : kind === 'read' ? l.read : l.write;
  };
  // In real time, the buckets the facts were read from rest a window from then, in the run as in its estimate.
  const usedAt = new Map<string, number>();
  if (facts.realTime && input.lastRequestAt)
    for (let i = 0; i < agencies.length; i++)
      for (const kind of ['read', 'write']) {
        const at = input.lastRequestAt(`${i}:${kind}`);
        if (at !== undefined) usedAt.set(`${i}:${kind}`, at);
      }
  const planner: LeasePlannerOptions = { windowMs: profile.limits.window_s * 1000, maxConcurrent: facts.isolated ? 1 : input.maxConcurrent, limitOf, usedAt };
  // In real time, a check whose longest wait is over --max-wait is skipped: it waits nothing, and the estimate leaves it out.
  const overMaxWait = (c: Check): boolean => facts.realTime && maxWaitReason(c, { kind: 'real' }, profile, facts.learned, input.maxWaitMs) !== undefined;
  const unitsFrom = (list: readonly Check[], learned = facts.learned): ScheduleUnit[] =>
    unitsOf(list, {
      profile,
      learned,
      overMaxWait,
      groupWaits: facts.realTime,
      bindingsOf: (uses, phase) =>
        facts.realTime && phase !== 'last' ? bindingsOf(uses, facts.agencies, agencies, profile) : [rolesOf(uses) === 2 ? [0, 1] : [0]],
      bodyOf: input.bodies.checks,
    });
  const common = { type: 'plan' as const, checks: input.checks.length, scenarios: partList.includes('scenarios'), properties: partList.includes('properties') };
  if (!facts.realTime) {
    emit({ ...common, mode: 'isolated' });
    // One at a time, the scenarios and properties after the checks; they reset the target between their own cases.
    const parts: ScheduleUnit[] =
      partList.length > 0
        ? [
            {
              kind: 'parts',
              id: PARTS_UNIT_ID,
              uses: { id: PARTS_UNIT_ID, needs: [], touches: [], waitMs: 0 },
              bindings: [[0]],
              phase: 'main',
              members: [],
              isolatesItself: true,
              run: input.bodies.parts(undefined, [0]),
            },
          ]
        : [];
    return { units: [...unitsFrom(input.checks), ...parts], regular, last, partList, planner };
  }
  // In real time the scenarios and properties are one more unit, beside the checks that need none of their resources.
  const partsPlan =
    partList.length > 0
      ? await planParts(
          input.parts!,
          partList,
          { profile, quoteLifetimeS: facts.learned.quoteLifetimeS, roundTripMs: facts.roundTripMs, maxWaitMs: input.maxWaitMs },
          facts.agencies,
          limitOf,
        )
      : undefined;
  const parts: ScheduleUnit[] = partsPlan
    ? [
        {
          kind: 'parts',
          id: PARTS_UNIT_ID,
          uses: partsPlan.unit,
          bindings: [partsPlan.binding],
          phase: 'main',
          members: [],
          run: input.bodies.parts(
            partsPlan.uses,
            partsPlan.binding,
            partsPlan.aside.map((a) => a.name),
          ),
        },
        ...partsPlan.aside.map((a): ScheduleUnit => ({
          kind: 'parts',
          id: a.unit.id,
          uses: a.unit,
          bindings: [[a.agency]],
          phase: 'main',
          members: [],
          run: input.bodies.aside(a.name, a.agency),
        })),
      ]
    : [];
  // The run starts at a set instant, once the search for its order is over, and the estimate's clock starts at 0 then: a wait anchored to
  // the target's clock (a minute's turn) then lasts as long in the run as in its plan. Started as soon as the search ended, the run
  // would meet that turn as many seconds early as the search took, and a unit the plan put after the waiting one would take its agency.
  // The search's time is reckoned from one play of the units as listed: the search makes tens of them.
  const planNow = input.now?.() ?? 0;
  const runnableFrom = (at: number) => {
    const learned =
      facts.learned.targetAt === undefined ? facts.learned : { ...facts.learned, targetAt: facts.learned.targetAt + at - (facts.learnedAt ?? planNow) };
    const units = [
      ...unitsFrom(
        input.checks.filter((c) => !skipReason(c, facts.target) && !overMaxWait(c)),
        learned,
      ),
      ...parts,
    ];
    const played = {
      ...planner,
      usedAt: new Map([...usedAt].map(([b, used]) => [b, used - at] as const)),
      agencyCount: agencies.length,
      roundTripMs: facts.roundTripMs,
    };
    return { learned, units, played };
  };
  const t0 = performance.now();
  const listed = runnableFrom(planNow);
  await playSchedule(listed.units, listed.played);
  const searchMs = input.searchMs ?? Math.min(PLAN_SEARCH_MS, Math.ceil((performance.now() - t0) * SEARCH_PLAYS));
  const startAt = (input.now?.() ?? 0) + searchMs;
  const { learned, units: runnable, played } = runnableFrom(startAt);
  const { order, bindings, slots, ...est } = await planRun(runnable, played, performance.now() + searchMs);
  /** A unit with the agencies the plan prefers for it. */
  const preferred = (u: ScheduleUnit): ScheduleUnit => {
    const b = bindings.get(u.id);
    return b ? { ...u, bindings: b } : u;
  };
  const plannedStart = new Map(slots.map((x) => [x.id, x.startAt] as const));
  // The estimate is of the whole run: what reading the target and planning took already counts, up to the run's start.
  const spent = Math.round(performance.now() - input.startedAt + Math.max(0, startAt - (input.now?.() ?? 0)));
  est.estimateMs += spent;
  est.serialMs += spent;
  emit({
    ...common,
    mode: 'real-time',
    ...est,
    slots: slots.map((s) => ({ id: s.id, agencies: s.binding, startMs: Math.round(s.startAt + spent), endMs: Math.round(s.endAt + spent) })),
  });
  return {
    units: inOrder([...unitsFrom(input.checks, learned), ...parts].map(preferred), order),
    regular,
    last,
    partList,
    planner,
    startAt,
    notBefore: (u) => {
      const at = plannedStart.get(u.id);
      return at === undefined ? undefined : startAt + at;
    },
    spansOf: (u, binding, at) => spansOf(u.uses, played, new Set(), leaseFor(u.uses, binding, agencies.length).fills, at - startAt),
    note: `The target's clock cannot be moved: waits happen in real time (estimated at ${durationText(est.estimateMs)}, ${durationText(est.serialMs)} if the checks ran one by one).`,
  };
}
