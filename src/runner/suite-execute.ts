/*
 * The execution of a suite run: the bodies of its units (the checks, the
 * scenarios and properties), run by the scheduler; the baseline first, and
 * what an interruption or a refused baseline left, listed as not run.
 */
import type { Check, CheckContext, LearnedTarget } from '../checks/types.js';
import { withAbortSignal } from '../client/abort-scope.js';
import type { Profile, ResolvedAgency } from '../profile/index.js';
import type { CaseResult } from '../results/model.js';
import type { ClockDriver } from '../clock/clock-driver.js';
import { LeasePlanner } from './lease-planner.js';
import { agencyReleaser } from './parts-unit.js';
import { INTERRUPTED_CASE, NOT_RUN_CASE, runCheck, skippedCase } from './run-check.js';
import type { RunListener } from './run-events.js';
import { baselineReason } from './run-verdict.js';
import type { LeaseChange, ScheduleUnit, UnitBody } from './schedule-unit.js';
import { runSchedule, type LeaseMeter } from './scheduler.js';
import type { SuiteFacts } from './suite-facts.js';
import type { SuitePart, SuitePartContext } from '../checks/suite-part.js';
import { RoundTripMeter, withRoundTrips } from '../client/round-trip-scope.js';
import type { SuiteParts } from './suite-part-types.js';
import type { PartName, SuitePlan } from './suite-plan.js';
import { maxWaitReason, skipReason } from './target-facts.js';

/** What the units run with. */
interface ExecuteInput {
  profile: Readonly<Profile>;
  agencies: readonly ResolvedAgency[];
  /** Longest single wait in real time, ms (`--max-wait`): a check whose longest wait is over it is skipped. */
  maxWaitMs?: number | undefined;
  clock: ClockDriver;
  /** Puts the target back to its fixture (a driven clock: before every unit). */
  reset?: (() => Promise<void>) | undefined;
  parts?: SuiteParts | undefined;
  checkTimeoutMs: number;
  signal?: AbortSignal | undefined;
  emit: RunListener;
  meter: LeaseMeter;
  /** The context of a check (or a part) bound to `binding`. */
  contextFor(id: string, binding: readonly number[], learned: LearnedTarget, lease?: LeaseChange): CheckContext;
}

/** The cases of a run, as they finished: the checks', and the scenarios' and properties'. */
interface Executed {
  results: Map<Check, CaseResult>;
  partCases: CaseResult[];
}

/** The bodies of a run's units, and the run of its plan (call `bodies` to plan, then `execute` once). */
export function suiteExecutor(x: ExecuteInput, facts: SuiteFacts) {
  const { clock, signal, emit } = x;
  const results = new Map<Check, CaseResult>();
  const partCases: CaseResult[] = [];
  let partList: readonly PartName[] = [];

  const runOne = async (member: ScheduleUnit['members'][number], binding: number[], lease: LeaseChange): Promise<void> => {
    const { check, waitMs } = member;
    const reason = skipReason(check, facts.target) ?? maxWaitReason(check, clock, x.profile, facts.learned, x.maxWaitMs);
    emit({ type: 'case-started', id: check.id, kind: 'check', title: check.title, ...(facts.realTime ? { agencies: binding } : {}) });
    let result: CaseResult;
    if (reason) result = skippedCase(check, reason, clock.now());
    else if (signal?.aborted) result = skippedCase(check, NOT_RUN_CASE, clock.now());
    else {
      const limit = x.checkTimeoutMs + (clock.kind === 'real' ? Math.ceil(waitMs * 1.5) : 0);
      result = await runCheck(check, x.contextFor(check.id, binding, facts.learned, facts.realTime ? lease : undefined), limit, signal);
    }
    results.set(check, result);
    emit({ type: 'case-finished', result });
  };

  const finishPart = (name: PartName, why: string): void => {
    const result = skippedPart(name, why, clock.now());
    partCases.push(result);
    emit({ type: 'case-finished', result });
  };

  /**
   * Runs part `name` as case `id` with `extra` in its context, each case
   * reported as it finishes with the requests sent since the one before it
   * (`onDone` after each): its cases, or those it finished before an
   * interruption.
   */
  const runStreamed = async (
    name: PartName,
    id: string,
    extra: Partial<SuitePartContext>,
    lease: LeaseChange | undefined,
    onDone?: () => void,
  ): Promise<{ cases: CaseResult[]; interrupted: boolean }> => {
    const streamed: CaseResult[] = [];
    const trips = new RoundTripMeter();
    let counted = trips.read();
    const onCase = (result: CaseResult): void => {
      if (signal?.aborted) return; // cut short: what it still reports is not a verdict
      const now = trips.read();
      if (result.roundTrips === undefined)
        Object.assign(result, { requests: now.requests - counted.requests, roundTrips: now.roundTrips - counted.roundTrips });
      counted = now;
      streamed.push(result);
      emit({ type: 'case-finished', result });
      onDone?.();
    };
    const got = await withRoundTrips(trips, () =>
      runPart(name, x.parts![name]!, { ...x.contextFor(id, [0], facts.learned, lease), reset: undefined, ...extra, onCase }, clock, signal),
    );
    if (got === 'interrupted') return { cases: streamed, interrupted: true };
    for (const result of got) if (!streamed.includes(result)) emit({ type: 'case-finished', result });
    return { cases: got, interrupted: false };
  };

  /**
   * The parts one after the other; in real time each sends only to the
   * agencies leased to it, and gives each back once no case left needs it.
   * In real time the properties that leave the buckets usable run beside the
   * scenarios' first long wait (`waitBeside`), the others after the scenarios.
   */
  const runParts = async (
    uses: Map<PartName, Array<number | null>> | undefined,
    binding: number[],
    lease: LeaseChange,
    aside: readonly string[] = [],
  ): Promise<void> => {
    const release = uses ? agencyReleaser(binding, uses, lease) : undefined;
    const isolated = facts.isolated ? x.reset : undefined;
    /** Runs part `name` (only the properties beside a wait, or only the others, with `besideWait`); false when it was interrupted. */
    const runOne = async (name: PartName, extra: Pick<SuitePartContext, 'waitBeside' | 'besideWait' | 'scenarioFilter'> = {}): Promise<boolean> => {
      if (signal?.aborted) {
        finishPart(name, NOT_RUN_CASE);
        return false;
      }
      if (extra.besideWait !== false) emit({ type: 'part-started', part: name });
      if (isolated) await isolated();
      // In real time a part may give its lease back through a wait (a scenario's) and take back what it held.
      const got = await runStreamed(name, name, { reset: isolated, usableAgencies: release?.usable, ...extra }, facts.realTime ? lease : undefined, () =>
        release?.caseDone(name),
      );
      partCases.push(...got.cases);
      // The cases it finished keep their verdicts; the rest of the part is one case saying it did not finish.
      if (got.interrupted) finishPart(name, INTERRUPTED_CASE);
      return !got.interrupted;
    };
    /** The properties beside the scenarios' first long wait, once started. */
    let beside: Promise<boolean> | undefined;
    const overlap = facts.realTime && partList[0] === 'scenarios' && partList.includes('properties');
    const waitBeside = async (ms: number): Promise<void> => {
      const first = beside === undefined;
      beside ??= runOne('properties', { besideWait: true });
      await Promise.all([clock.wait(ms, 'a wait step'), first ? beside : undefined]);
    };
    for (const name of partList) {
      if (name === 'properties' && beside !== undefined) {
        // Beside the wait ran those that leave the buckets usable: the others now, unless it was interrupted.
        if ((await beside) && !(await runOne(name, { besideWait: false }))) continue;
      } else if (name === 'scenarios') {
        const only = aside.length > 0 ? { scenarioFilter: (n: string) => !aside.includes(n) } : {};
        if (!(await runOne(name, overlap ? { waitBeside, ...only } : only))) continue;
      } else if (!(await runOne(name))) continue;
      release?.partDone(name);
    }
  };

  const bodies = {
    checks:
      (members: ScheduleUnit['members']): UnitBody =>
      async (binding, lease) => {
        // An episode's members (or the checks sharing a wait) run one after the other under one lease.
        for (const member of members) await runOne(member, binding, lease);
      },
    parts:
      (uses: Map<PartName, Array<number | null>> | undefined, binding: number[], aside?: readonly string[]): UnitBody =>
      (_binding, lease) =>
        runParts(uses, binding, lease, aside),
    aside:
      (name: string, agency: number): UnitBody =>
      async () => {
        const id = `scenario:${name}`;
        if (signal?.aborted) {
          const result = { ...skippedPart('scenarios', NOT_RUN_CASE, clock.now()), id, title: name };
          partCases.push(result);
          emit({ type: 'case-finished', result });
          return;
        }
        const got = await runStreamed('scenarios', id, { usableAgencies: new Set([agency]), scenarioFilter: (n) => n === name }, undefined);
        partCases.push(...got.cases);
      },
  };

  /** Runs the plan: the baseline first, alone (when a correctly signed request is refused, every other verdict would be about access), then the rest. */
  const execute = async (plan: SuitePlan): Promise<Executed> => {
    partList = plan.partList;
    const baseline = plan.regular.find((c) => c.phase === 'baseline');
    let stopped: string | undefined;
    const options = {
      planner: new LeasePlanner(plan.planner),
      agencyCount: x.agencies.length,
      clock,
      emit,
      meter: facts.realTime ? x.meter : undefined,
      serial: facts.isolated ? { reset: x.reset } : undefined,
      signal,
      spansOf: plan.spansOf,
      notBefore: plan.notBefore,
    };
    try {
      await runSchedule(plan.units, options, () => {
        const got = baseline && results.get(baseline);
        if (got && (got.verdict === 'FAIL' || got.verdict === 'ERROR')) stopped = baselineReason(got);
        return stopped === undefined;
      });
    } catch (err) {
      // An interrupted wait ends the schedule (the cases left are listed as not run below); any other error is the runner's own.
      if (!signal?.aborted) throw err;
    }
    const unfinished = (why: string): void => {
      for (const check of [...plan.regular, ...plan.last]) {
        if (results.has(check)) continue;
        const result = skippedCase(check, why, clock.now());
        results.set(check, result);
        emit({ type: 'case-finished', result });
      }
      for (const name of partList) if (!partCases.some((c) => c.kind === (name === 'scenarios' ? 'scenario' : 'property'))) finishPart(name, why);
    };
    if (stopped !== undefined) unfinished(`not run: ${stopped}`);
    // What the interruption left without a verdict is listed as not run.
    if (signal?.aborted) unfinished(NOT_RUN_CASE);
    return { results, partCases };
  };

  return { bodies, execute };
}

/** The one case standing for a scenario or property part that was not run. */
function skippedPart(name: PartName, reason: string, at: number): CaseResult {
  const kind = name === 'scenarios' ? 'scenario' : 'property';
  return { id: `${kind}:*`, kind, title: `all ${name}`, area: name, clause: '', verdict: 'SKIP', message: reason, evidence: [], startedAt: at, durationMs: 0 };
}

/** Runs a part; `'interrupted'` as soon as `stop` aborts (its requests are aborted with it, and what it still returns is dropped). */
async function runPart(name: PartName, part: SuitePart, ctx: SuitePartContext, clock: ClockDriver, stop?: AbortSignal): Promise<CaseResult[] | 'interrupted'> {
  const at = clock.now();
  const t0 = performance.now();
  try {
    if (!stop) return await part(ctx);
    const running = withAbortSignal(stop, () => Promise.resolve().then(() => part({ ...ctx, signal: stop })));
    // Abandoned at the interruption, it may still reject later: that is no longer news.
    running.catch(() => undefined);
    let onStop = (): void => undefined;
    const stopped = new Promise<'interrupted'>((resolve) => {
      onStop = () => resolve('interrupted');
      if (stop.aborted) onStop();
      else stop.addEventListener('abort', onStop, { once: true });
    });
    try {
      return await Promise.race([running, stopped]);
    } finally {
      stop.removeEventListener('abort', onStop);
    }
  } catch (err) {
    if (stop?.aborted) return 'interrupted';
    const kind = name === 'scenarios' ? 'scenario' : 'property';
    return [
      {
        id: `${kind}:*`,
        kind,
        title: `all ${name}`,
        area: name,
        clause: '',
        verdict: 'ERROR',
        message: `${name} could not run: ${err instanceof Error ? err.message : String(err)}`,
        evidence: [],
        startedAt: at,
        durationMs: Math.round(performance.now() - t0),
      },
    ];
  }
}
