import { setMaxListeners } from 'node:events';
import { agencyApis } from '../api/agency-apis.js';
import type { TargetApi } from '../api/types.js';
import { checkContext, type RunScope } from '../checks/check-context.js';
import { createRunCache } from '../checks/run-cache.js';
import type { Check, CheckContext, LearnedTarget } from '../checks/types.js';
import { MemoryRecorder } from '../client/exchange.js';
import { knownSecretsRedactor, rememberSecrets } from '../profile/known-secrets.js';
import { secretsOf } from '../profile/resolve-secrets.js';
import type { Profile, ResolvedAgency } from '../profile/index.js';
import type { Receiver } from '../receiver/index.js';
import type { CaseResult, RateLimitPoint, Verdict, WebhookPoint } from '../results/model.js';
import type { SuiteResult } from '../results/run-result.js';
import { bindingsOf, boundScope, leaseFor, rolesOf } from './agency-binding.js';
import { withAbortSignal } from '../client/abort-scope.js';
import { readAgencyFacts, type AgencyFacts, type FactsWanted } from './agency-facts.js';
import { planRun } from './estimate-run.js';
import { LeasePlanner } from './lease-planner.js';
import { runLeased, type Bindable, type LeaseChange } from './leased-schedule.js';
import { bucketMeter } from './bucket-meter.js';
import { agencyReleaser, planParts } from './parts-unit.js';
import { RoundTripMeter, withRoundTrips } from '../client/round-trip-scope.js';
import { quoteLifetimeNote, roundTripMs, webhookScheduleNote } from './run-notes.js';
import type { ClockDriver } from '../clock/clock-driver.js';
import { newRunId } from '../results/run-id.js';
import { randomSeed, uniqueFactory } from './run-id.js';
import type { RunListener } from './run-events.js';
import { INTERRUPTED_CASE, NOT_RUN_CASE, runCheck, skippedCase } from './run-check.js';
import { announcedClock } from './announced-clock.js';
import { BASELINE_CHECK_ID, baselineReason, suiteVerdict } from './run-verdict.js';
import type { SuitePart, SuitePartContext } from '../checks/suite-part.js';
import type { SuiteParts } from './suite-part-types.js';
import { skipReason, type TargetFacts } from './target-facts.js';
import { toolInfo } from './tool-info.js';

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
  const unique = uniqueFactory(runId);
  // Every request is counted in its bucket: in real time a bucket rests from the last request it got, not from the end of a lease.
  const meter = bucketMeter(recorder, profile, agencies, () => clock.now());
  // A reset empties the target's buckets: the meter forgets what it counted before it.
  const reset = given.reset;
  // Exchanges recorded when the target was last reset: with none since, it is still the fixture, and a reset would cost a round trip for nothing.
  let recordedAtReset = -1;
  const resetIfUsed = async (): Promise<void> => {
    if (recorder.exchanges.length === recordedAtReset) return;
    await reset!();
    meter.emptied();
    recordedAtReset = recorder.exchanges.length;
  };
  const options: RunSuiteOptions = reset ? { ...given, reset: resetIfUsed } : given;
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
    unique,
    runCache: createRunCache(),
    lastRequestAt: (kind, i = 0) => meter.lastRequestAt(`${i}:${kind}`),
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
    const isolated = clock.kind === 'mock';
    const agencyFacts = await gatherFacts(options, api, isolated);
    const facts = targetFacts(options, agencyFacts[0]);
    const learned: LearnedTarget = { quoteLifetimeS: agencyFacts.find((f) => f.quoteLifetimeS !== undefined)?.quoteLifetimeS };
    const lifetimeNote = quoteLifetimeNote(profile, learned);
    if (lifetimeNote) notes.push(lifetimeNote);
    const regular = options.checks.filter((c) => !c.runsLast);
    const last = options.checks.filter((c) => c.runsLast);
    const partList = (['scenarios', 'properties'] as const).filter((p) => options.parts?.[p]);
    const realTime = !isolated && facts.clock === 'real';
    const limitOf = (bucket: string): number | undefined => {
      const [a, kind] = bucket.split(':');
      const l = agencyFacts[Number(a)]?.limits;
      return l === undefined ? undefined : kind === 'read' ? l.read : l.write;
    };
    const plannerOptions = { windowMs: profile.limits.window_s * 1000, maxConcurrent: isolated ? 1 : (options.maxConcurrent ?? 8), limitOf };
    // In real time the scenarios and properties are one more unit of the leased schedule, beside the checks that need none of their resources.
    const rtt = roundTripMs(recorder.exchanges);
    const partsPlan =
      realTime && partList.length > 0
        ? await planParts(options.parts!, partList, { profile, quoteLifetimeS: learned.quoteLifetimeS, roundTripMs: rtt }, agencyFacts, limitOf)
        : undefined;
    const partsUnit = partsPlan?.unit;
    const bindable = (list: readonly Check[]): Bindable[] =>
      list.map((check) => ({
        check,
        bindings:
          check === partsUnit
            ? [partsPlan!.binding]
            : realTime && !check.runsLast
              ? bindingsOf(check, agencyFacts, agencies, profile)
              : [rolesOf(check) === 2 ? [0, 1] : [0]],
      }));
    // The order the checks are offered to the leases in: the one whose played schedule ends first.
    let order: readonly string[] = [];
    if (realTime) {
      const runnable = [...options.checks.filter((c) => !skipReason(c, facts)), ...(partsUnit ? [partsUnit] : [])];
      const { order: planned, ...est } = planRun(bindable(episodeUnits(runnable).units), {
        ...plannerOptions,
        profile,
        learned,
        agencyCount: agencies.length,
        roundTripMs: rtt,
        runFirst: [BASELINE_CHECK_ID],
      });
      order = planned;
      // The estimate is of the whole run: what reading the target and planning took already counts.
      const spent = Math.round(performance.now() - t0);
      est.estimateMs += spent;
      est.serialMs += spent;
      emit({
        type: 'plan',
        mode: 'real-time',
        checks: options.checks.length,
        scenarios: partList.includes('scenarios'),
        properties: partList.includes('properties'),
        ...est,
      });
      notes.push(
        `The target's clock cannot be moved: waits happen in real time (estimated at ${formatMs(est.estimateMs)}, ${formatMs(est.serialMs)} if the checks ran one by one).`,
      );
    } else {
      emit({
        type: 'plan',
        mode: 'isolated',
        checks: options.checks.length,
        scenarios: partList.includes('scenarios'),
        properties: partList.includes('properties'),
      });
    }

    const results = new Map<Check, CaseResult>();
    // An interrupted wait of the schedule ends it (the cases left are listed as not run below); any other error is the runner's own.
    const interruptible = async (fn: () => Promise<void>): Promise<void> => {
      try {
        await fn();
      } catch (err) {
        if (!signal?.aborted) throw err;
      }
    };
    const runOne = async (check: Check, binding: number[], lease?: LeaseChange): Promise<void> => {
      const reason = skipReason(check, facts);
      emit({ type: 'case-started', id: check.id, kind: 'check', title: check.title });
      let result: CaseResult;
      if (reason) result = skippedCase(check, reason, clock.now());
      else if (signal?.aborted) result = skippedCase(check, NOT_RUN_CASE, clock.now());
      else {
        const waits = Math.max(0, check.waitsMs?.(profile, learned) ?? 0);
        const limit = (options.checkTimeoutMs ?? 120_000) + (clock.kind === 'real' ? Math.ceil(waits * 1.5) : 0);
        result = await runCheck(check, contextFor(check.id, binding, learned, lease), limit, signal);
      }
      results.set(check, result);
      emit({ type: 'case-finished', result });
    };

    const planner = new LeasePlanner(plannerOptions);
    const schedule = async (list: Check[]): Promise<void> => {
      if (isolated) return runSerially(list, planner, options, runOne, emit);
      // An episode's members (or the checks sharing a wait) are one unit here: one lease and one binding for all, run one after the other.
      const { units, membersOf } = episodeUnits(list);
      const runUnit = async (unit: Check, binding: number[], lease: LeaseChange): Promise<void> => {
        if (unit === partsUnit) return runParts(lease);
        for (const member of membersOf.get(unit) ?? [unit]) await runOne(member, binding, lease);
      };
      return runLeased(inOrder(bindable(units), order), planner, agencies.length, clock, runUnit, emit, meter);
    };

    // The baseline first, alone: when a correctly signed request is refused, every other verdict would be about access.
    const baseline = regular.find((c) => c.id === BASELINE_CHECK_ID);
    let stopped: string | undefined;
    if (baseline && !signal?.aborted) {
      await interruptible(() => schedule([baseline]));
      const got = results.get(baseline);
      if (got && (got.verdict === 'FAIL' || got.verdict === 'ERROR')) stopped = baselineReason(got);
    }
    const partCases: CaseResult[] = [];
    const runParts = async (lease?: LeaseChange): Promise<void> => {
      // In real time the parts send only to the agencies leased to them, and give each back once no case left needs it.
      const release = partsPlan?.uses && lease ? agencyReleaser(partsPlan.binding, partsPlan.uses, lease) : undefined;
      for (const name of partList) {
        if (signal?.aborted) {
          const result = skippedPart(name, NOT_RUN_CASE, clock.now());
          partCases.push(result);
          emit({ type: 'case-finished', result });
          continue;
        }
        emit({ type: 'part-started', part: name });
        if (options.reset && isolated) await options.reset();
        const streamed: CaseResult[] = [];
        // The part's cases run one after another: each is given what was sent since the one before it.
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
          release?.caseDone(name);
        };
        const got = await withRoundTrips(trips, () =>
          runPart(
            name,
            options.parts![name]!,
            { ...contextFor(name, [0], learned), reset: isolated ? options.reset : undefined, onCase, usableAgencies: release?.usable },
            clock,
            signal,
          ),
        );
        if (got === 'interrupted') {
          // The cases it finished keep their verdicts; the rest of the part is one case saying it did not finish.
          const result = skippedPart(name, INTERRUPTED_CASE, clock.now());
          emit({ type: 'case-finished', result });
          partCases.push(...streamed, result);
          continue;
        }
        for (const result of got) if (!streamed.includes(result)) emit({ type: 'case-finished', result });
        release?.partDone(name);
        partCases.push(...got);
      }
    };
    if (stopped) {
      const why = `not run: ${stopped}`;
      for (const check of [...regular, ...last].filter((c) => c !== baseline)) {
        const result = skippedCase(check, why, clock.now());
        results.set(check, result);
        emit({ type: 'case-finished', result });
      }
      for (const name of partList) {
        const result = skippedPart(name, why, clock.now());
        partCases.push(result);
        emit({ type: 'case-finished', result });
      }
    } else {
      await interruptible(async () => {
        await schedule([...regular.filter((c) => c !== baseline), ...(partsUnit ? [partsUnit] : [])]);
        if (!partsUnit) await runParts();
        // One at a time, in order: each judges the whole run, so it must see what the ones before it sent (SC-01 after ER-01).
        for (const check of last) await schedule([check]);
      });
    }
    if (signal?.aborted) {
      // What the interruption left without a verdict is listed as not run.
      for (const check of [...regular, ...last]) {
        if (results.has(check)) continue;
        const result = skippedCase(check, NOT_RUN_CASE, clock.now());
        results.set(check, result);
        emit({ type: 'case-finished', result });
      }
      for (const name of partList) {
        if (partCases.some((c) => c.kind === (name === 'scenarios' ? 'scenario' : 'property'))) continue;
        const result = skippedPart(name, NOT_RUN_CASE, clock.now());
        partCases.push(result);
        emit({ type: 'case-finished', result });
      }
    }
    const scheduleNote = webhookScheduleNote(profile, scope.runCache);
    if (scheduleNote) notes.push(scheduleNote);

    const cases = [...regular.map((c) => results.get(c)!), ...partCases, ...last.map((c) => results.get(c)!)];
    // The process's redactor, which the report writer uses too: what it redacted here it knows as clean there.
    rememberSecrets([...secretsOf(agencies), ...(options.secrets ?? [])]);
    const redact = knownSecretsRedactor();
    const summary = { PASS: 0, FAIL: 0, WARN: 0, SKIP: 0, ERROR: 0, total: cases.length } as Record<Verdict, number> & { total: number };
    for (const c of cases) summary[c.verdict] += 1;
    const verdict: ReturnType<typeof suiteVerdict> = signal?.aborted ? { verdict: 'INTERRUPTED' } : suiteVerdict(cases);
    if (signal?.aborted) {
      const finished = cases.filter((c) => c.message !== NOT_RUN_CASE && c.message !== INTERRUPTED_CASE).length;
      notes.unshift(
        `INTERRUPTED: the run was stopped before its end; ${finished} of ${cases.length} cases finished, the others are listed as not run or not finished`,
      );
    }
    const result: SuiteResult = {
      schema: 'svc-harness/run@1',
      kind: 'suite',
      runId,
      command: options.command ?? 'run',
      tool: toolInfo(),
      target: {
        name: profile.name,
        baseUrl: profile.base_url,
        hotelBaseUrl: profile.hotel_base_url,
        clock: profile.clock.control,
        embedded: options.embedded ?? false,
      },
      seed,
      startedAt: new Date(startedAtMs).toISOString(),
      finishedAt: new Date().toISOString(),
      durationMs: Math.round(performance.now() - t0),
      summary,
      verdict: verdict.verdict,
      ...(verdict.reason !== undefined ? { verdictReason: redact([verdict.reason])[0] } : {}),
      cases: redact(cases),
      exchanges: redact(recorder.exchanges),
      timelines: { rateLimit: [...rateLimit], webhooks: [...webhooks] },
      notes: redact(notes),
    };
    return result;
  } finally {
    await closeApis();
  }
}

/** Reads sent to measure the round trip before a real-time run. */
const ROUND_TRIP_PROBES = 3;

/** Longest a round-trip probe may take, ms: a slower target is planned with this much, and the run does not wait on it. */
const ROUND_TRIP_PROBE_MAX_MS = 2000;

/** Facts of each agency (only the first against an isolated target, as every check runs there), read at once. */
async function gatherFacts(options: RunSuiteOptions, api: (i?: number) => TargetApi, isolated: boolean): Promise<AgencyFacts[]> {
  const { profile, agencies } = options;
  const needs = new Set(options.checks.flatMap((c) => c.needs));
  const wanted: FactsWanted = { products: needs.has('closed-product') || needs.has('open-product'), wallet: needs.has('open-product') };
  if (wanted.products && options.reset && isolated) await options.reset();
  const list = isolated ? agencies.slice(0, 1) : agencies;
  if (list.length === 0) return [];
  const facts = await Promise.all(list.map((agency, i) => readAgencyFacts(api(i), agency, i, profile, wanted, () => options.clock.now())));
  if (!isolated) {
    // A few reads on open connections, one at a time: the round trip the estimate counts with.
    for (let i = 0; i < ROUND_TRIP_PROBES; i++) {
      const answered = await withAbortSignal(AbortSignal.timeout(ROUND_TRIP_PROBE_MAX_MS), () => api(0).account({ label: 'runner: round trip' })).then(
        () => true,
        () => false,
      );
      if (!answered) break;
    }
  }
  return facts;
}

/** What the runner knows of the target, for the needs of the checks (the first agency's products). */
function targetFacts(options: RunSuiteOptions, first: AgencyFacts | undefined): TargetFacts {
  const { profile, agencies } = options;
  const primary = agencies[0];
  let hotel: TargetFacts['hotel'] = true;
  if (!profile.hotel_base_url) hotel = 'profile hotel_base_url is null';
  else if (!primary?.hotelApiKey) hotel = `no hotel API key for agency ${primary?.id ?? '?'} (set agencies[0].hotel_api_key_env)`;
  return {
    clock: options.clock.kind,
    agencies: agencies.length,
    hotel,
    failureTrigger: profile.failure_trigger !== null,
    receiver: options.receiver !== undefined,
    products: first?.products ?? { error: 'no agency' },
    primaryAgency: primary?.id ?? '?',
  };
}

/** The checks in order, the members of an episode moved up behind its first member so that they run together. */
function episodesTogether(list: readonly Check[]): Check[] {
  const out: Check[] = [];
  for (const check of list) {
    if (out.includes(check)) continue;
    out.push(check);
    if (check.episode !== undefined) out.push(...list.filter((c) => c !== check && c.episode === check.episode));
  }
  return out;
}

/**
 * One check after another; before each, the target is reset (or, with no
 * reset, a filled bucket is left a window to cool), except between members of
 * one episode: they judge one fill, made by the first of them.
 */
async function runSerially(
  list: Check[],
  planner: LeasePlanner,
  options: RunSuiteOptions,
  runOne: (c: Check, binding: number[]) => Promise<void>,
  emit: RunListener,
): Promise<void> {
  let previous: Check | undefined;
  for (const check of episodesTogether(list)) {
    const sameEpisode = check.episode !== undefined && previous?.episode === check.episode;
    previous = check;
    const binding = rolesOf(check) === 2 ? [0, 1] : [0];
    const lease = leaseFor(check, binding, options.agencies.length);
    if (sameEpisode) {
      // Nothing to cool or reset: the episode's requests are made already.
    } else if (options.reset) await options.reset();
    else {
      // A driven clock with no reset: let a bucket used before rest (moving the clock is cheap).
      const now = options.clock.now();
      if (!planner.canStart(lease, now)) {
        const until = planner.nextChangeAt(now) ?? now;
        emit({ type: 'waiting', ms: until - now, reason: `a rate-limit bucket of ${check.id} is still resting` });
        await options.clock.wait(until - now);
      }
    }
    planner.start(lease);
    try {
      await runOne(check, binding);
    } finally {
      planner.finish(lease, options.clock.now());
    }
  }
}

/**
 * The checks as units for the leased scheduler: a check alone, or the members
 * of one episode folded into one unit that needs and touches what any of them
 * does (they share one fill of the buckets, so they must share one lease). The
 * checks sharing one wait (`waitKey`: one run of a webhook scenario) form a
 * unit the same way: the first makes the run, the others judge it at once.
 */
export function episodeUnits(list: readonly Check[]): { units: Check[]; membersOf: Map<Check, Check[]> } {
  const units: Check[] = [];
  const membersOf = new Map<Check, Check[]>();
  const done = new Set<string>();
  const groupOf = (c: Check): string | undefined =>
    c.episode !== undefined ? `episode ${c.episode}` : c.waitKey !== undefined ? `wait ${c.waitKey}` : undefined;
  for (const check of list) {
    const group = groupOf(check);
    if (group === undefined) {
      units.push(check);
      continue;
    }
    if (done.has(group)) continue;
    done.add(group);
    const members = list.filter((c) => groupOf(c) === group);
    if (members.length === 1) {
      units.push(check);
      continue;
    }
    const union = <T>(pick: (c: Check) => readonly T[] | undefined): T[] | undefined => {
      const all = members.flatMap((m) => [...(pick(m) ?? [])]);
      return all.length > 0 ? [...new Set(all)] : undefined;
    };
    const unit: Check = { ...check, needs: union((c) => c.needs) ?? [] };
    const touches = union((c) => c.touches);
    const fills = union((c) => c.fills);
    if (touches) unit.touches = touches;
    if (fills) unit.fills = fills;
    units.push(unit);
    membersOf.set(unit, members);
  }
  return { units, membersOf };
}

/** `list` in the order of `ids` (by check id); the ones it does not name keep their order, after. */
function inOrder(list: readonly Bindable[], ids: readonly string[]): Bindable[] {
  const rank = (b: Bindable): number => {
    const i = ids.indexOf(b.check.id);
    return i < 0 ? ids.length : i;
  };
  return [...list].sort((a, b) => rank(a) - rank(b));
}

/** The one case standing for a scenario or property part that was not run. */
function skippedPart(name: 'scenarios' | 'properties', reason: string, at: number): CaseResult {
  const kind = name === 'scenarios' ? 'scenario' : 'property';
  return { id: `${kind}:*`, kind, title: `all ${name}`, area: name, clause: '', verdict: 'SKIP', message: reason, evidence: [], startedAt: at, durationMs: 0 };
}

/** Runs a part; `'interrupted'` as soon as `stop` aborts (its requests are aborted with it, and what it still returns is dropped). */
async function runPart(
  name: 'scenarios' | 'properties',
  part: SuitePart,
  ctx: SuitePartContext,
  clock: ClockDriver,
  stop?: AbortSignal,
): Promise<CaseResult[] | 'interrupted'> {
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
    const area = name;
    return [
      {
        id: `${name === 'scenarios' ? 'scenario' : 'property'}:*`,
        kind: name === 'scenarios' ? 'scenario' : 'property',
        title: `all ${name}`,
        area,
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

/** `4 min 20 s`, `12 s`, `850 ms`. */
export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return s % 60 === 0 ? `${m} min` : `${m} min ${s % 60} s`;
}
