import { performance } from 'node:perf_hooks';
import * as fc from 'fast-check';
import { checkContext } from '../src/checks/check-context.js';
import type { CheckContext, Need } from '../src/checks/types.js';
import { HarnessError, isHarnessError } from '../src/errors/harness-error.js';
import { refusedWaitOf } from '../src/clock/max-wait.js';
import type { CaseResult } from '../src/results/model.js';
import type { SuitePartContext } from '../src/checks/suite-part.js';
import { eventSettleMs } from './_internal/event-watch.js';
import { PropertyEnv } from './_internal/property-env.js';
import { BUDGET_MARGIN } from './_internal/rate-budget.js';
import { likelyBefore, quoteBatchMs, quoteRuns, quoteWritesNow } from './_internal/quote-batch.js';
import { plannedAgency, realTimeAgencies, type PlanAgency } from './_internal/real-time-plan.js';
import { replayCommand } from './_internal/replay-command.js';
import { settledProperty } from './_internal/settled-property.js';
import { PropertyViolation } from './_internal/violation.js';
import { idempotencyModel, RUN_WRITES } from './idempotency-model.js';
import { noChargeOn429AndFailure } from './no-charge-on-429-and-failure.js';
import { openapiInputs } from './openapi-inputs.js';
import type { BuiltProperty, PropertyDef } from './property-types.js';
import { quoteLock, quoteLockOverMaxWait } from './quote-lock.js';

/** Every property, in the order they run. */
export const PROPERTIES: readonly PropertyDef[] = Object.freeze([idempotencyModel, noChargeOn429AndFailure, quoteLock, openapiInputs]);

/** Options of {@link runProperties}. */
export interface RunPropertiesOptions {
  /** Seed of fast-check: the same seed against the same target generates the same cases. @defaultValue the run's seed (`ctx.seed`) */
  seed: number;
  /** Runs per property. @defaultValue each property's own (idempotency-model 25, no-charge-on-429-and-failure 10, quote-lock 25) */
  numRuns?: number;
  /** Property names to run (with or without the `property:` prefix). @defaultValue all */
  only?: string[];
  /** fast-check path of a counterexample to replay (with its seed); meaningful with one property in `only`. */
  path?: string;
  /** fast-check's replay path of a shrunk command list (model-based properties), with `path`. */
  replayPath?: string;
  /** Arguments naming the run's target (`--target file`, `--mock-defects a,b`), put in every replay command. @defaultValue none (the embedded mock) */
  replayContext?: readonly string[];
  /** Write limit of each agency as the run's plan saw it (so that the run shares the agencies out as planned). @defaultValue as each account answers */
  writeLimits?: ReadonlyMap<number, number | undefined>;
  /** Runs of openapi-inputs, over `numRuns` (deeper fuzzing: `run --fuzz-runs`). @defaultValue numRuns, else its own (1) */
  fuzzRuns?: number;
  /** Wall-clock budget per property, ms; fast-check stops generating (or shrinking) after it. @defaultValue 120000 */
  timeLimitMs?: number;
}

/** Runs of a property: `fuzzRuns` for openapi-inputs when given, else `numRuns`, else its own. */
function runsOf(def: PropertyDef, opts: RunPropertiesOptions): number {
  if (def === openapiInputs && opts.fuzzRuns !== undefined) return opts.fuzzRuns;
  return opts.numRuns ?? def.defaultNumRuns;
}

/** Default wall-clock budget per property, ms. */
const TIME_LIMIT_MS = 120_000;

function unmet(ctx: CheckContext, needs: Need[]): string | undefined {
  for (const n of needs) {
    if (n === 'clock-control' && ctx.clock.kind !== 'mock') return 'needs clock control (it waits rate windows and quote lifetimes many times over)';
    if (n === 'failure-trigger' && !ctx.profile.failure_trigger) return 'needs a failure trigger in the profile (failure_trigger)';
  }
  return undefined;
}

/** A property made ready to run: what fast-check checks, and the runs it makes (and why, in real time). */
interface Prepared {
  // oxlint-disable-next-line typescript/no-explicit-any -- each property draws its own input type
  built: BuiltProperty<any>;
  fcRuns: number;
  runs: number;
  why?: string;
  timeLimitMs?: number;
  agencies?: string[];
  /** The environments it runs on. */
  envs: PropertyEnv[];
}

/** Runs one property against the live target; never throws for a failed property. */
async function runOne(
  ctx: CheckContext,
  def: PropertyDef,
  opts: RunPropertiesOptions,
  prepare: () => Promise<Prepared | { skip: string }>,
): Promise<CaseResult> {
  const startedAt = ctx.clock.now();
  const t0 = performance.now();
  const seed = opts.seed | 0;
  let numRuns = runsOf(def, opts);
  let planned: Record<string, unknown> = {};
  const base = { id: `property:${def.name}`, kind: 'property' as const, title: def.title, area: 'properties' as const, clause: def.clause, startedAt };
  let built: BuiltProperty<unknown> | undefined;
  const done = (verdict: CaseResult['verdict'], message: string, evidence: string[], details: Record<string, unknown>): CaseResult => ({
    ...base,
    verdict,
    message,
    evidence,
    details: {
      seed,
      numRuns,
      ...planned,
      ...built?.details?.(),
      replay: replayCommand({ name: def.name, seed, path: opts.path, replayPath: opts.replayPath, context: opts.replayContext }),
      ...details,
    },
    durationMs: Math.round(performance.now() - t0),
  });
  const why = unmet(ctx, def.needs);
  if (why) return done('SKIP', why, [], {});
  try {
    const ready = await prepare();
    if ('skip' in ready) return done('SKIP', ready.skip, [], {});
    built = ready.built;
    // The case's own context: its exchange labels start with its id, as a check's do.
    for (const env of ready.envs) env.forCase(base.id);
    numRuns = ready.runs;
    const sized = ready.why ? ` (${ready.why})` : '';
    if (ready.why) planned = { realTime: true, why: ready.why, ...(ready.agencies ? { agencies: ready.agencies } : {}) };
    ctx.log(`property ${def.name}: ${ready.runs} runs, seed ${seed}${sized}`);
    const params: fc.Parameters<[unknown]> = {
      seed,
      numRuns: ready.fcRuns,
      interruptAfterTimeLimit: opts.timeLimitMs ?? ready.timeLimitMs ?? TIME_LIMIT_MS,
      markInterruptAsFailure: false,
    };
    // One run judging every case against one wait: shrinking would repeat the wait for each try.
    if (ready.fcRuns === 1 && ready.runs > 1) params.endOnFailure = true;
    if (opts.path) params.path = opts.path;
    const runs = settledProperty(ready.built.property);
    let details: fc.RunDetails<[unknown]>;
    try {
      details = await fc.check(runs.property, params);
      // A run the time limit cut short goes on sending: the case ends when it has.
      await runs.settled();
    } finally {
      await ready.built.finish?.();
    }
    const unjudged = ready.built.unjudged?.();
    const caveat = unjudged ? `; not judged: ${unjudged}` : '';
    // A batch judges all its runs in its one fast-check run.
    const made = (n: number): number => (ready.fcRuns === ready.runs ? n : n * ready.runs);
    if (!details.failed) {
      if (details.interrupted)
        return done('WARN', `interrupted by the time limit after ${made(details.numRuns)} of ${numRuns} runs, none failing${sized}${caveat}`, [], {
          runs: made(details.numRuns),
        });
      return done('PASS', `${made(details.numRuns)} runs held (seed ${seed})${sized}${caveat}`, [], { runs: made(details.numRuns) });
    }
    const err = details.errorInstance;
    const refused = refusedWaitOf(err);
    if (refused) return done('SKIP', refused.message, [], { runs: made(details.numRuns) });
    if (isHarnessError(err)) return done('ERROR', err.message, [], { runs: made(details.numRuns) });
    if (details.counterexample === null) return done('ERROR', `fast-check gave up after ${details.numRuns} runs (${details.numSkips} skipped)`, [], {});
    const [value] = details.counterexample as [unknown];
    const shown = ready.built.render(value);
    const replayPath = /\/\*replayPath="([^"]*)"\*\//.exec(String(value))?.[1];
    const message = err instanceof Error ? err.message : String(err);
    const violated = err instanceof PropertyViolation;
    const pair = violated ? err.pair : undefined;
    // The exchanges that broke the promise first (a broken replay's two among them): they are what a reader must see.
    const decisive = violated ? err.decisive : [];
    const evidence = violated ? [...decisive, ...err.evidence.filter((id) => !decisive.includes(id))] : [];
    // A message that already shows the case (the property names the input it judged) is not made to repeat it.
    const said = message.includes(shown) ? message : `${message} — shrunk counterexample: ${shown}`;
    return done(violated ? 'FAIL' : 'ERROR', `${violated ? '' : 'unexpected error: '}${said}`, evidence, {
      counterexample: shown,
      ...(pair ? { replayPair: pair } : {}),
      ...(decisive.length > 0 ? { decisive } : {}),
      path: details.counterexamplePath,
      ...(replayPath ? { replayPath } : {}),
      runsUntilFailure: details.numRuns,
      shrinks: details.numShrinks,
      replay: replayCommand({ name: def.name, seed, path: details.counterexamplePath, replayPath, context: opts.replayContext }),
    });
  } catch (err) {
    const refused = refusedWaitOf(err);
    if (refused) return done('SKIP', refused.message, [], {});
    const message = isHarnessError(err) ? err.message : `unexpected error: ${err instanceof Error ? err.message : String(err)}`;
    return done('ERROR', message, [], {});
  }
}

/**
 * Time the properties take against a target whose clock cannot be moved, ms
 * (to plan real-time runs): quote-lock one quote lifetime and the
 * redemptions after it, idempotency-model the runs one window of its
 * agencies' write buckets takes (less quote-lock's bookings after it), the
 * no-charge property one fill and its bookings.
 */
export function propertiesRealTimeMs(input: {
  only?: readonly string[] | undefined;
  /** Only those that run beside a scenario's wait (true), or only the others (false); absent, all. */
  besideWait?: boolean | undefined;
  windowMs: number;
  writeLimit: number | undefined;
  requestMs: number;
  /** Quote lifetime, s. @defaultValue 900 */
  quoteLifetimeS?: number | undefined;
  /** Write limit of each agency the properties may use, by index; absent: one agency with `writeLimit`. */
  agencies?: readonly PlanAgency[] | undefined;
  /** Longest single wait in real time, ms (`--max-wait`): quote-lock, whose quotes live longer, is skipped and takes no time. @defaultValue 120 000 */
  maxWaitMs?: number | undefined;
}): number {
  const all = chosenProperties(input.only);
  const agencies = input.agencies?.length ? input.agencies : [{ index: 0, writeLimit: input.writeLimit }];
  // The agencies are shared out among every chosen property, as the run does; the time is of those asked for.
  const plan = realTimeAgencies(
    agencies,
    all.map((d) => d.name),
  );
  const chosen = all.filter((d) => inPhase(d, input.besideWait)).map((d) => d.name);
  const limitOf = (i: number): number => agencies.find((a) => a.index === i)?.writeLimit ?? input.writeLimit ?? 10;
  const lifetimeS = input.quoteLifetimeS ?? 900;
  const quoteLockRuns = !quoteLockOverMaxWait(lifetimeS, { kind: 'real' }, input.maxWaitMs);
  const quoteMs = chosen.includes('quote-lock') && quoteLockRuns ? quoteBatchMs(lifetimeS * 1000, input.requestMs) : 0;
  // Three requests a booking (quote, booking, balance) and the fill.
  const chargeMs = chosen.includes('no-charge-on-429-and-failure')
    ? (noChargeOn429AndFailure.defaultNumRuns * 2.5 * 3 + limitOf(plan.noCharge) + 10) * input.requestMs
    : 0;
  let modelMs = 0;
  if (chosen.includes('idempotency-model')) {
    // After quote-lock on its agency, its bookings and cancellations take part of the window.
    const names = all.map((d) => d.name);
    const taken =
      chosen.includes('quote-lock') && quoteLockRuns && plan.idempotency[0] === plan.quoteLock
        ? 2 * quoteRuns(quoteLock.defaultNumRuns, limitOf(plan.quoteLock), leftForModel(plan, names, limitOf(plan.quoteLock)))
        : 0;
    const perWindow = plan.idempotency.reduce((n, a) => n + Math.max(0, limitOf(a) - 2 - (a === plan.quoteLock ? taken : 0)), 0);
    const runs = Math.max(1, Math.min(idempotencyModel.defaultNumRuns, Math.floor(perWindow / ((idempotencyModel.writesPerRun ?? 7) + 1))));
    // About twenty requests a run, one after the other.
    modelMs = runs * 20 * input.requestMs;
  }
  // openapi-inputs: the agency's endpoint set (and set back); a run is the wallet read, every request at once, the wallet read again, the events looked at; its writes fit what is free.
  const inputsMs = chosen.includes('openapi-inputs') ? 3 * input.requestMs + openapiInputs.defaultNumRuns * (4 * input.requestMs + eventSettleMs('real')) : 0;
  return modelMs + quoteMs + chargeMs + inputsMs;
}

/** True when property `def` runs in the phase `besideWait` names: beside a scenario's wait (true: those that leave the buckets usable), after it (false: the others), or either (undefined). */
function inPhase(def: PropertyDef, besideWait: boolean | undefined): boolean {
  return besideWait === undefined || besideWait === !def.fills;
}

/**
 * Writes quote-lock leaves of its window (`writeLimit`) for idempotency-model,
 * when that books with the same agency right after it: two runs' worth, at
 * most half the writes a window has free.
 */
function leftForModel(plan: ReturnType<typeof realTimeAgencies>, chosen: readonly string[], writeLimit: number): number {
  const after = chosen.includes('quote-lock') && chosen.includes('idempotency-model') && plan.idempotency[0] === plan.quoteLock;
  return after ? Math.min(2 * RUN_WRITES, Math.floor((writeLimit - 2) / 2)) : 0;
}

/**
 * Requests each chosen property needs free in its agency's buckets when it
 * starts in real time, in the order they run (see {@link realTimeAgencies}):
 * quote-lock its quotes and the bookings before their expiry it is planned
 * with; the others measure what is free and size their runs to it.
 */
export function propertiesRequests(input: {
  only?: readonly string[] | undefined;
  writeLimit: number | undefined;
  windowMs: number;
  quoteLifetimeS: number;
  /** Longest single wait in real time, ms (`--max-wait`): quote-lock, whose quotes live longer, is skipped and sends nothing. @defaultValue 120 000 */
  maxWaitMs?: number | undefined;
}): Array<{ name: string; read: number; write: number }> {
  const chosen = chosenProperties(input.only).map((d) => d.name);
  const plan = realTimeAgencies([{ index: 0, writeLimit: input.writeLimit }], chosen);
  return plan.order.map((name) => {
    if (name !== 'quote-lock' || quoteLockOverMaxWait(input.quoteLifetimeS, { kind: 'real' }, input.maxWaitMs)) return { name, read: 0, write: 0 };
    const runs = quoteRuns(quoteLock.defaultNumRuns, input.writeLimit ?? 10, leftForModel(plan, chosen, input.writeLimit ?? 10));
    // Its batch asks room for its bookings now, the reserve its budget keeps and the write that measured the bucket. Planned for half
    // the bookings and one before the expiry, and neither of the others, the unit started short in 2 of 14 runs (14 of 17 drawn
    // before): quote-lock waited a whole window, then ran past its time limit. Planned for every booking, the suite took 176 s; for
    // what one batch in a hundred exceeds, 157 s.
    const now = quoteWritesNow(likelyBefore(runs), runs, input.quoteLifetimeS * 1000, input.windowMs);
    return { name, read: runs + 4, write: now + BUDGET_MARGIN + PropertyEnv.LEARNING_WRITES };
  });
}

/**
 * The agency each chosen property runs as, in the order they run in real
 * time (see {@link realTimeAgencies}), among the agencies with a product of
 * the profile open.
 */
export function propertiesAgencies(input: {
  only?: readonly string[] | undefined;
  profile: CheckContext['profile'];
  agencies: ReadonlyArray<{ index: number; open: readonly string[] | undefined; writeLimit?: number | undefined }>;
}): number[] {
  const usable = [...propertiesWriteLimits(input)].map(([index, writeLimit]) => ({ index, writeLimit }));
  const plan = realTimeAgencies(
    usable.length ? usable : [{ index: 0, writeLimit: undefined }],
    chosenProperties(input.only).map((d) => d.name),
  );
  return plan.order.map((name) => plannedAgency(plan, name));
}

/** The agencies with a product of the profile open, and their write limits when known: what the real-time plan shares out. */
export function propertiesWriteLimits(input: {
  profile: CheckContext['profile'];
  agencies: ReadonlyArray<{ index: number; open: readonly string[] | undefined; writeLimit?: number | undefined }>;
}): Map<number, number | undefined> {
  return new Map(
    input.agencies.filter((a) => a.open === undefined || input.profile.products.some((p) => a.open!.includes(p))).map((a) => [a.index, a.writeLimit]),
  );
}

/** The properties named in `only` (with or without the `property:` prefix), in run order; all when it names none. */
function chosenProperties(only: readonly string[] | undefined): readonly PropertyDef[] {
  const wanted = (only ?? []).map((n) => n.replace(/^property:/, ''));
  return wanted.length ? PROPERTIES.filter((p) => wanted.includes(p.name)) : PROPERTIES;
}

/** Against a movable clock: the property as `build` makes it, on the primary agency. */
function movableRun(ctx: CheckContext, def: PropertyDef, opts: RunPropertiesOptions): () => Promise<Prepared | { skip: string }> {
  return async () => {
    const env = await PropertyEnv.create(checkContext(ctx, `property:${def.name}`));
    if ('skip' in env) return env;
    const numRuns = runsOf(def, opts);
    return { built: await def.build(env, opts.replayPath ? { replayPath: opts.replayPath } : {}), fcRuns: numRuns, runs: numRuns, envs: [env] };
  };
}

/**
 * Runs the chosen properties in real time: each on the agencies the plan
 * gives it (all on one agency, unless idempotency-model runs alone), one
 * after the other in the plan's order.
 */
async function runRealTime(
  ctx: CheckContext & Partial<Pick<SuitePartContext, 'onCase' | 'usableAgencies' | 'besideWait'>>,
  chosen: readonly PropertyDef[],
  opts: RunPropertiesOptions,
): Promise<CaseResult[]> {
  const usable = ctx.agencies.map((_, i) => i).filter((i) => ctx.usableAgencies === undefined || ctx.usableAgencies.has(i));
  // One environment (and rate budget) per agency, shared by the properties that book with it. The limits the plan saw share the agencies out; without them, the accounts' answers.
  const planned = opts.writeLimits;
  const created = new Map(await Promise.all(usable.filter(() => !planned).map(async (i) => [i, await PropertyEnv.create(ctx, i)] as const)));
  const open = planned
    ? usable.filter((i) => planned.has(i)).map((index) => ({ index, writeLimit: planned.get(index) }))
    : [...created].flatMap(([index, e]) => ('skip' in e ? [] : [{ index, writeLimit: e.budget.limits.write }]));
  const plan = realTimeAgencies(
    open.length ? open : [{ index: usable[0] ?? 0, writeLimit: undefined }],
    chosen.map((d) => d.name),
  );
  const learned = new Map<number, Promise<PropertyEnv | { skip: string }>>();
  const learn = async (e: PropertyEnv | { skip: string }): Promise<PropertyEnv | { skip: string }> => {
    if (!('skip' in e)) await e.learnBuckets();
    return e;
  };
  const envOf = (agency: number): Promise<PropertyEnv | { skip: string }> => {
    let env = learned.get(agency);
    if (!env) {
      const made = created.get(agency);
      env = (made ? Promise.resolve(made) : PropertyEnv.create(ctx, agency)).then(learn);
      learned.set(agency, env);
    }
    return env;
  };
  const numRuns = (def: PropertyDef): number => runsOf(def, opts);
  const prepare =
    (def: PropertyDef): (() => Promise<Prepared | { skip: string }>) =>
    async () => {
      const agencies = def === idempotencyModel ? plan.idempotency : [plannedAgency(plan, def.name)];
      const got = await Promise.all(agencies.map(envOf));
      const ready = got.filter((e): e is PropertyEnv => !('skip' in e));
      if (ready.length === 0) return got[0] as { skip: string };
      const leaveWrites =
        def === quoteLock
          ? leftForModel(
              plan,
              chosen.map((d) => d.name),
              ready[0]!.budget.limits.write,
            )
          : 0;
      const input = { envs: ready, numRuns: numRuns(def), leaveWrites, replayPath: opts.replayPath };
      const real = await def.realTime?.(input);
      if (real && 'skip' in real) return real;
      const names = ready.map((e) => ctx.agencies[e.agency]?.id ?? `#${e.agency}`);
      if (real) return { ...real, agencies: names, envs: ready };
      return {
        built: await def.build(ready[0]!, opts.replayPath ? { replayPath: opts.replayPath } : {}),
        fcRuns: numRuns(def),
        runs: numRuns(def),
        envs: ready,
      };
    };
  // Beside a scenario's wait, only those that leave the buckets usable; after it, the others.
  const order = plan.order.map((name) => chosen.find((d) => d.name === name)!).filter((d) => inPhase(d, ctx.besideWait));
  const out: CaseResult[] = [];
  for (const def of order) {
    const result = await runOne(ctx, def, opts, prepare(def));
    ctx.onCase?.(result);
    out.push(result);
  }
  return out;
}

/**
 * Runs the fast-check properties against the live target with the run's
 * seed, one CaseResult per property (kind `property`, area `properties`):
 * verdict, seed, run count, the shrunk counterexample and the command that
 * replays it. Against a clock that cannot be moved each property runs as it
 * does in real time (see {@link realTimeAgencies}) and says how many runs it
 * made and why. An unknown name in `only` is a usage error.
 */
export async function runProperties(
  ctx: CheckContext & Partial<Pick<SuitePartContext, 'reset' | 'onCase' | 'usableAgencies' | 'besideWait'>>,
  options: Partial<RunPropertiesOptions> = {},
): Promise<CaseResult[]> {
  const opts: RunPropertiesOptions = { ...options, seed: options.seed ?? ctx.seed };
  const wanted = (opts.only ?? []).map((n) => n.replace(/^property:/, ''));
  const unknown = wanted.filter((n) => !PROPERTIES.some((p) => p.name === n));
  if (unknown.length)
    throw new HarnessError(
      'E_USAGE',
      `unknown propert${unknown.length > 1 ? 'ies' : 'y'} ${unknown.join(', ')}; known: ${PROPERTIES.map((p) => p.name).join(', ')}`,
    );
  if (opts.numRuns !== undefined && !(Number.isInteger(opts.numRuns) && opts.numRuns >= 1))
    throw new HarnessError('E_USAGE', `numRuns must be an integer ≥ 1, got ${opts.numRuns}`);
  if (opts.fuzzRuns !== undefined && !(Number.isInteger(opts.fuzzRuns) && opts.fuzzRuns >= 1))
    throw new HarnessError('E_USAGE', `fuzzRuns must be an integer ≥ 1, got ${opts.fuzzRuns}`);
  const chosen = chosenProperties(opts.only);
  if (ctx.clock.kind === 'real') return runRealTime(ctx, chosen, opts);
  const out: CaseResult[] = [];
  for (const def of chosen) {
    // Against a resettable target each property starts from the fixture (wallet, buckets).
    await ctx.reset?.();
    const result = await runOne(ctx, def, opts, movableRun(ctx, def, opts));
    ctx.onCase?.(result);
    out.push(result);
  }
  return out;
}
