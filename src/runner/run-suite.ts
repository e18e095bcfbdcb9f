import { setMaxListeners } from 'node:events';
import { agencyApis } from '../api/agency-apis.js';
import { checkContext, type RunScope } from '../checks/check-context.js';
import { createRunCache } from '../checks/run-cache.js';
import type { Check, CheckContext, LearnedTarget } from '../checks/types.js';
import { MemoryRecorder } from '../client/exchange.js';
import type { Profile, ResolvedAgency } from '../profile/index.js';
import type { Receiver } from '../receiver/index.js';
import type { RateLimitPoint, WebhookPoint } from '../results/model.js';
import type { SuiteResult } from '../results/run-result.js';
import { newRunId } from '../results/run-id.js';
import { boundScope } from './agency-binding.js';
import { announcedClock } from './announced-clock.js';
import { bucketMeter } from './bucket-meter.js';
import type { ClockDriver } from '../clock/clock-driver.js';
import { randomSeed, uniqueFactory } from './fresh-values.js';
import type { RunListener } from './run-events.js';
import { webhookScheduleNote } from './run-notes.js';
import type { LeaseChange } from './schedule-unit.js';
import { assembleResult } from './suite-assemble.js';
import { suiteExecutor } from './suite-execute.js';
import { readTarget } from './suite-facts.js';
import type { SuiteParts } from './suite-part-types.js';
import { planSuite } from './suite-plan.js';

/** Everything one run of the suite needs; the caller owns (and closes) the target, clock and receiver. */
interface RunSuiteOptions {
  profile: Readonly<Profile>;
  agencies: readonly ResolvedAgency[];
  checks: readonly Check[];
  clock: ClockDriver;
  /** Puts the target back to its fixture; with a driven clock it is called before every check (isolation). */
  reset?: () => Promise<void>;
  receiver?: Receiver;
  /** Scenario and property runners to call (already selected). */
  parts?: SuiteParts;
  /** @defaultValue a random seed */
  seed?: number;
  /** @defaultValue a fresh run id */
  runId?: string;
  /** The command line, for the report. @defaultValue 'run' */
  command?: string;
  /** True when the harness started the mock itself. @defaultValue false */
  embedded?: boolean;
  /** Time limit of one check beyond its declared waits, real ms. @defaultValue 120000 */
  checkTimeoutMs?: number;
  /** Most checks at once against a real-time target. @defaultValue 8 */
  maxConcurrent?: number;
  /**
   * Longest single wait in real time, ms (`--max-wait`): against a clock that
   * cannot be moved, every check, scenario and property that would wait
   * longer is a SKIP naming the bound, and the estimate leaves it out; with
   * clock control it does not apply. @defaultValue 120 000
   */
  maxWaitMs?: number;
  /** Notes for the top of the reports. */
  notes?: string[];
  /** Extra strings to redact besides the agencies' secrets. */
  secrets?: string[];
  onEvent?: RunListener;
  /**
   * Interrupts the run: no case starts after it aborts, the cases running are
   * cut short (listed as not finished), and the result of what ran comes back
   * with the verdict INTERRUPTED. Give the clock driver the same signal so
   * that its waits end at once too.
   */
  signal?: AbortSignal;
}

/** Runs checks, then scenarios and properties, then the checks that run last; returns the redacted result. */
export async function runSuite(given: RunSuiteOptions): Promise<SuiteResult> {
  const { profile, agencies, clock, receiver } = given;
  const emit: RunListener = given.onEvent ?? (() => undefined);
  const signal = given.signal;
  // Every check and every wait in progress listens to it: many at once, by design.
  if (signal) setMaxListeners(0, signal);
  const runId = given.runId ?? newRunId();
  const seed = given.seed ?? randomSeed();
  const startedAtMs = Date.now();
  const t0 = performance.now();
  const recorder = new MemoryRecorder();
  const rateLimit: RateLimitPoint[] = [];
  const webhooks: WebhookPoint[] = [];
  const notes = [...(given.notes ?? [])];
  // Every request is counted in its bucket: in real time a bucket rests from the last request it got, not from the end of a lease.
  const meter = bucketMeter(recorder, profile, agencies, () => clock.now());
  // A reset empties the target's buckets: the meter forgets what it counted before it.
  const givenReset = given.reset;
  // Exchanges recorded when the target was last reset: with none since, it is still the fixture, and a reset would cost a round trip for nothing.
  let recordedAtReset = -1;
  const reset = givenReset
    ? async (): Promise<void> => {
        if (recorder.exchanges.length === recordedAtReset) return;
        await givenReset();
        meter.emptied();
        recordedAtReset = recorder.exchanges.length;
      }
    : undefined;
  const {
    api,
    hotel,
    close: closeApis,
  } = agencyApis({ profile, agencies, recorder: meter.recorder, now: () => clock.now(), onRateLimit: (p) => rateLimit.push(p) });
  const scope: Omit<RunScope, 'log'> = {
    profile,
    agencies: agencies as ResolvedAgency[],
    api,
    hotel,
    clock,
    receiver,
    recorder: meter.recorder,
    exchanges: () => recorder.exchanges,
    timeline: {
      rateLimit: (p) => rateLimit.push(p),
      webhook: (p) => webhooks.push(p),
    },
    seed,
    unique: uniqueFactory(runId),
    runCache: createRunCache(),
    lastRequestAt: (kind, i = 0) => meter.lastRequestAt(`${i}:${kind}`),
    maxWaitMs: given.maxWaitMs,
  };
  const contextFor = (id: string, binding: readonly number[], learned: LearnedTarget, lease?: LeaseChange): CheckContext =>
    checkContext(
      {
        ...boundScope(scope, binding),
        clock: announcedClock(clock, id, emit),
        learned,
        narrowLease: lease?.narrow,
        widenLease: lease?.widen,
        log: (message) => emit({ type: 'log', id, message }),
      },
      id,
    );

  try {
    const facts = await readTarget({
      ...given,
      reset,
      api,
      exchanges: () => recorder.exchanges,
      ownRequests: (bucket) => meter.mark([bucket]).get(bucket) ?? 0,
      onWait: (ms, reason) => emit({ type: 'waiting', ms, reason }),
    });
    if (facts.note) notes.push(facts.note);
    const executor = suiteExecutor(
      {
        profile,
        agencies,
        maxWaitMs: given.maxWaitMs,
        clock,
        reset,
        parts: given.parts,
        checkTimeoutMs: given.checkTimeoutMs ?? 120_000,
        signal,
        emit,
        meter,
        contextFor,
      },
      facts,
    );
    const plan = await planSuite({
      profile,
      agencies,
      checks: given.checks,
      parts: given.parts,
      maxConcurrent: given.maxConcurrent ?? 8,
      facts,
      emit,
      bodies: executor.bodies,
      startedAt: t0,
      lastRequestAt: (bucket) => meter.lastRequestAt(bucket),
      now: () => clock.now(),
      maxWaitMs: given.maxWaitMs,
    });
    if (plan.note) notes.push(plan.note);
    // A real-time run starts when its plan starts (an interruption cuts the wait short; the executor then starts nothing).
    if (plan.startAt !== undefined) await clock.waitUntil(Math.max(clock.now(), plan.startAt)).catch(() => undefined);
    const { results, partCases } = await executor.execute(plan);
    const scheduleNote = webhookScheduleNote(profile, scope.runCache);
    if (scheduleNote) notes.push(scheduleNote);
    return assembleResult({
      profile,
      agencies,
      runId,
      seed,
      command: given.command ?? 'run',
      embedded: given.embedded ?? false,
      secrets: given.secrets ?? [],
      startedAtMs,
      t0,
      interrupted: signal?.aborted === true,
      regular: plan.regular,
      last: plan.last,
      results,
      partCases,
      exchanges: recorder.exchanges,
      rateLimit,
      webhooks,
      notes,
    });
  } finally {
    await closeApis();
  }
}
