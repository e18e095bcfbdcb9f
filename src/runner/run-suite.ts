import { agencyApis } from '../api/agency-apis.js';
import type { TargetApi } from '../api/types.js';
import { checkContext, type RunScope } from '../checks/check-context.js';
import { createRunCache } from '../checks/run-cache.js';
import type { Check, CheckContext } from '../checks/types.js';
import { MemoryRecorder } from '../client/exchange.js';
import { isHarnessError } from '../errors/harness-error.js';
import { redactor } from '../profile/redactor.js';
import { secretsOf } from '../profile/resolve-secrets.js';
import type { Profile, ResolvedAgency } from '../profile/types.js';
import type { Receiver } from '../receiver/index.js';
import type { CaseResult, RateLimitPoint, Verdict, WebhookPoint } from '../report/model.js';
import type { SuiteResult } from '../report/run-result.js';
import { BucketPlanner, estimateRealTime } from './bucket-planner.js';
import type { ClockDriver } from './clock-driver.js';
import { randomSeed, newRunId, uniqueFactory } from './run-id.js';
import type { RunListener } from './run-events.js';
import { runCheck, skippedCase } from './run-check.js';
import { BASELINE_CHECK_ID, baselineReason, suiteVerdict } from './run-verdict.js';
import type { SuitePart, SuitePartContext, SuiteParts } from './suite-parts.js';
import { skipReason, type TargetFacts } from './target-facts.js';
import { toolInfo } from './tool-info.js';

/** Everything one run of the suite needs; the caller owns (and closes) the target, clock and receiver. */
export interface RunSuiteOptions {
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
}

/** Runs checks, then scenarios and properties, then the checks that run last; returns the redacted result. */
export async function runSuite(options: RunSuiteOptions): Promise<SuiteResult> {
  const { profile, agencies, clock, receiver } = options;
  const emit: RunListener = options.onEvent ?? (() => undefined);
  const runId = options.runId ?? newRunId();
  const seed = options.seed ?? randomSeed();
  const startedAtMs = Date.now();
  const t0 = performance.now();
  const recorder = new MemoryRecorder();
  const rateLimit: RateLimitPoint[] = [];
  const webhooks: WebhookPoint[] = [];
  const notes = [...(options.notes ?? [])];
  const unique = uniqueFactory(runId);
  const { api, hotel, close: closeApis } = agencyApis({ profile, agencies, recorder, now: () => clock.now(), onRateLimit: (p) => rateLimit.push(p) });

  const scope: Omit<RunScope, 'log'> = {
    profile,
    agencies: agencies as ResolvedAgency[],
    api,
    hotel,
    clock,
    receiver,
    recorder,
    exchanges: () => recorder.exchanges,
    timeline: {
      rateLimit: (p) => rateLimit.push(p),
      webhook: (p) => webhooks.push(p),
    },
    seed,
    unique,
    runCache: createRunCache(),
  };
  const contextFor = (id: string): CheckContext => checkContext({ ...scope, log: (message) => emit({ type: 'log', id, message }) }, id);

  try {
    const facts = await gatherFacts(options, api);
    const isolated = clock.kind === 'mock';
    const regular = options.checks.filter((c) => !c.runsLast);
    const last = options.checks.filter((c) => c.runsLast);
    const partList = (['scenarios', 'properties'] as const).filter((p) => options.parts?.[p]);
    if (!isolated && facts.clock === 'real') {
      const runnable = options.checks.filter((c) => !skipReason(c, facts));
      const est = estimateRealTime(runnable, profile, options.maxConcurrent);
      emit({ type: 'plan', mode: 'real-time', checks: options.checks.length, scenarios: partList.includes('scenarios'), properties: partList.includes('properties'), ...est });
      notes.push(`The target's clock cannot be moved: waits happen in real time (checks estimated at ${formatMs(est.estimateMs)}, ${formatMs(est.serialMs)} if run one by one).`);
    } else {
      emit({ type: 'plan', mode: 'isolated', checks: options.checks.length, scenarios: partList.includes('scenarios'), properties: partList.includes('properties') });
    }

    const results = new Map<Check, CaseResult>();
    const runOne = async (check: Check): Promise<void> => {
      const reason = skipReason(check, facts);
      emit({ type: 'case-started', id: check.id, kind: 'check', title: check.title });
      let result: CaseResult;
      if (reason) result = skippedCase(check, reason, clock.now());
      else {
        const waits = Math.max(0, check.waitsMs?.(profile) ?? 0);
        const limit = (options.checkTimeoutMs ?? 120_000) + (clock.kind === 'real' ? Math.ceil(waits * 1.5) : 0);
        result = await runCheck(check, contextFor(check.id), limit);
      }
      results.set(check, result);
      emit({ type: 'case-finished', result });
    };

    const planner = new BucketPlanner(profile.limits.window_s * 1000, isolated ? 1 : (options.maxConcurrent ?? 8));
    const schedule = (list: Check[]) => (isolated ? runSerially(list, planner, options, runOne, emit) : runConcurrently(list, planner, clock, runOne, emit));

    // The baseline first, alone: when a correctly signed request is refused, every other verdict would be about access.
    const baseline = regular.find((c) => c.id === BASELINE_CHECK_ID);
    let stopped: string | undefined;
    if (baseline) {
      await schedule([baseline]);
      const got = results.get(baseline)!;
      if (got.verdict === 'FAIL' || got.verdict === 'ERROR') stopped = baselineReason(got);
    }
    const partCases: CaseResult[] = [];
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
    } else await schedule(regular.filter((c) => c !== baseline));
    for (const name of stopped ? [] : partList) {
      emit({ type: 'part-started', part: name });
      if (options.reset && isolated) await options.reset();
      const streamed = new Set<CaseResult>();
      const onCase = (result: CaseResult): void => {
        streamed.add(result);
        emit({ type: 'case-finished', result });
      };
      const got = await runPart(name, options.parts![name]!, { ...contextFor(name), reset: isolated ? options.reset : undefined, onCase }, clock);
      for (const result of got) if (!streamed.has(result)) emit({ type: 'case-finished', result });
      partCases.push(...got);
    }
    // One at a time, in order: each judges the whole run, so it must see what the ones before it sent (SC-01 after ER-01).
    if (!stopped) for (const check of last) await schedule([check]);

    const cases = [...regular.map((c) => results.get(c)!), ...partCases, ...last.map((c) => results.get(c)!)];
    const redact = redactor([...secretsOf(agencies), ...(options.secrets ?? [])]);
    const summary = { PASS: 0, FAIL: 0, WARN: 0, SKIP: 0, ERROR: 0, total: cases.length } as Record<Verdict, number> & { total: number };
    for (const c of cases) summary[c.verdict] += 1;
    const verdict = suiteVerdict(cases);
    const result: SuiteResult = {
      schema: 'svc-harness/run@1',
      kind: 'suite',
      runId,
      command: options.command ?? 'run',
      tool: toolInfo(),
      target: { name: profile.name, baseUrl: profile.base_url, hotelBaseUrl: profile.hotel_base_url, clock: profile.clock.control, embedded: options.embedded ?? false },
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

async function gatherFacts(options: RunSuiteOptions, api: (i?: number) => TargetApi): Promise<TargetFacts> {
  const { profile, agencies } = options;
  const primary = agencies[0];
  let products: TargetFacts['products'];
  const wanted = options.checks.some((c) => c.needs.includes('closed-product') || c.needs.includes('open-product'));
  if (!wanted) products = { error: 'not read (no selected check needs it)' };
  else {
    try {
      if (options.reset && options.clock.kind === 'mock') await options.reset();
      const { open, closed, response } = await api(0).openProducts({ label: 'runner: which products are open' });
      products = response.status >= 200 && response.status < 300 ? { open, closed } : { error: `the account answered ${response.status}` };
    } catch (err) {
      products = { error: isHarnessError(err) || err instanceof Error ? err.message : String(err) };
    }
  }
  let hotel: TargetFacts['hotel'] = true;
  if (!profile.hotel_base_url) hotel = 'profile hotel_base_url is null';
  else if (!primary?.hotelApiKey) hotel = `no hotel API key for agency ${primary?.id ?? '?'} (set agencies[0].hotel_api_key_env)`;
  return {
    clock: options.clock.kind,
    agencies: agencies.length,
    hotel,
    failureTrigger: profile.failure_trigger !== null,
    receiver: options.receiver !== undefined,
    products,
    primaryAgency: primary?.id ?? '?',
  };
}

/** The checks in order, the members of an episode moved up behind its first member so that they run together. */
export function episodesTogether(list: readonly Check[]): Check[] {
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
async function runSerially(list: Check[], planner: BucketPlanner, options: RunSuiteOptions, runOne: (c: Check) => Promise<void>, emit: RunListener): Promise<void> {
  let previous: Check | undefined;
  for (const check of episodesTogether(list)) {
    const sameEpisode = check.episode !== undefined && previous?.episode === check.episode;
    previous = check;
    if (sameEpisode) {
      // Nothing to cool or reset: the episode's requests are made already.
    } else if (options.reset) await options.reset();
    else {
      const now = options.clock.now();
      if (!planner.canStart(check, now)) {
        const until = planner.nextCoolAt(now) ?? now;
        emit({ type: 'waiting', ms: until - now, reason: `a rate-limit bucket of ${check.id} is still full` });
        await options.clock.wait(until - now);
      }
    }
    planner.start(check);
    try {
      await runOne(check);
    } finally {
      planner.finish(check, options.clock.now());
    }
  }
}

/** Checks with no common bucket at once, so that independent real-time waits overlap; a filled bucket cools a window before its next user. */
async function runConcurrently(list: Check[], planner: BucketPlanner, clock: ClockDriver, runOne: (c: Check) => Promise<void>, emit: RunListener): Promise<void> {
  const pending = [...list];
  const running = new Set<Promise<void>>();
  while (pending.length > 0 || running.size > 0) {
    const now = clock.now();
    for (let i = 0; i < pending.length; ) {
      const check = pending[i]!;
      if (!planner.canStart(check, now)) {
        i++;
        continue;
      }
      pending.splice(i, 1);
      planner.start(check);
      const p: Promise<void> = runOne(check).finally(() => {
        planner.finish(check, clock.now());
        running.delete(p);
      });
      running.add(p);
    }
    if (pending.length === 0 && running.size === 0) break;
    const cool = planner.nextCoolAt(now);
    const waiters: Promise<unknown>[] = [...running];
    if (cool !== undefined && pending.length > 0) {
      if (running.size === 0) emit({ type: 'waiting', ms: cool - now, reason: 'a filled rate-limit bucket is cooling for one window' });
      waiters.push(clock.wait(Math.max(0, cool - now)));
    }
    if (waiters.length === 0) {
      // Nothing runs and nothing cools, yet checks wait: the planner is stuck; run the next one alone rather than hang.
      const check = pending.shift()!;
      await runOne(check);
      continue;
    }
    await Promise.race(waiters);
  }
}

/** The one case standing for a scenario or property part that was not run. */
function skippedPart(name: 'scenarios' | 'properties', reason: string, at: number): CaseResult {
  const kind = name === 'scenarios' ? 'scenario' : 'property';
  return { id: `${kind}:*`, kind, title: `all ${name}`, area: name, clause: '', verdict: 'SKIP', message: reason, evidence: [], startedAt: at, durationMs: 0 };
}

async function runPart(name: 'scenarios' | 'properties', part: SuitePart, ctx: SuitePartContext, clock: ClockDriver): Promise<CaseResult[]> {
  const at = clock.now();
  const t0 = performance.now();
  try {
    return await part(ctx);
  } catch (err) {
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
