import { performance } from 'node:perf_hooks';
import * as fc from 'fast-check';
import { checkContext } from '../src/checks/check-context.js';
import type { CheckContext, Need } from '../src/checks/types.js';
import { HarnessError, isHarnessError } from '../src/errors/harness-error.js';
import type { CaseResult } from '../src/results/model.js';
import type { SuitePartContext } from '../src/checks/suite-part.js';
import { PropertyEnv } from './_internal/property-env.js';
import { replayCommand } from './_internal/replay-command.js';
import { settledProperty } from './_internal/settled-property.js';
import { PropertyViolation } from './_internal/violation.js';
import { idempotencyModel } from './idempotency-model.js';
import { noChargeOn429AndFailure } from './no-charge-on-429-and-failure.js';
import type { PropertyDef } from './property-types.js';
import { quoteLock } from './quote-lock.js';

/** Every property, in the order they run. */
export const PROPERTIES: readonly PropertyDef[] = Object.freeze([idempotencyModel, noChargeOn429AndFailure, quoteLock]);

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
  /** Wall-clock budget per property, ms; fast-check stops generating (or shrinking) after it. @defaultValue 120000 */
  timeLimitMs?: number;
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

/** Runs one property against the live target; never throws for a failed property. */
async function runOne(ctx: CheckContext, def: PropertyDef, opts: RunPropertiesOptions): Promise<CaseResult> {
  const startedAt = ctx.clock.now();
  const t0 = performance.now();
  const numRuns = opts.numRuns ?? def.defaultNumRuns;
  const seed = opts.seed | 0;
  const base = { id: `property:${def.name}`, kind: 'property' as const, title: def.title, area: 'properties' as const, clause: def.clause, startedAt };
  const done = (verdict: CaseResult['verdict'], message: string, evidence: string[], details: Record<string, unknown>): CaseResult => ({
    ...base,
    verdict,
    message,
    evidence,
    details: {
      seed,
      numRuns,
      replay: replayCommand({ name: def.name, seed, path: opts.path, replayPath: opts.replayPath, context: opts.replayContext }),
      ...details,
    },
    durationMs: Math.round(performance.now() - t0),
  });
  const why = unmet(ctx, def.needs);
  if (why) return done('SKIP', why, [], {});
  try {
    // The case's own context: its exchange labels start with its id, as a check's do.
    const env = await PropertyEnv.create(checkContext(ctx, base.id));
    if ('skip' in env) return done('SKIP', env.skip, [], {});
    const built = def.build(env, opts.replayPath ? { replayPath: opts.replayPath } : {});
    ctx.log(`property ${def.name}: ${numRuns} runs, seed ${seed}, product ${env.product}`);
    const params: fc.Parameters<[unknown]> = { seed, numRuns, interruptAfterTimeLimit: opts.timeLimitMs ?? TIME_LIMIT_MS, markInterruptAsFailure: false };
    if (opts.path) params.path = opts.path;
    const runs = settledProperty(built.property);
    const details = await fc.check(runs.property, params);
    // A run the time limit cut short goes on sending: the case ends when it has.
    await runs.settled();
    if (!details.failed) {
      if (details.interrupted)
        return done('WARN', `interrupted by the time limit after ${details.numRuns} of ${numRuns} runs, none failing`, [], { runs: details.numRuns });
      return done('PASS', `${details.numRuns} runs held (seed ${seed})`, [], { runs: details.numRuns });
    }
    const err = details.errorInstance;
    if (isHarnessError(err)) return done('ERROR', err.message, [], { runs: details.numRuns });
    if (details.counterexample === null) return done('ERROR', `fast-check gave up after ${details.numRuns} runs (${details.numSkips} skipped)`, [], {});
    const [value] = details.counterexample as [unknown];
    const shown = built.render(value);
    const replayPath = /\/\*replayPath="([^"]*)"\*\//.exec(String(value))?.[1];
    const message = err instanceof Error ? err.message : String(err);
    const violated = err instanceof PropertyViolation;
    const pair = violated ? err.pair : undefined;
    // The broken replay's two exchanges first: they are what a reader must see.
    const evidence = violated
      ? pair
        ? [pair.original, pair.replay, ...err.evidence.filter((id) => id !== pair.original && id !== pair.replay)]
        : err.evidence
      : [];
    return done(violated ? 'FAIL' : 'ERROR', `${violated ? '' : 'unexpected error: '}${message} — shrunk counterexample: ${shown}`, evidence, {
      counterexample: shown,
      ...(pair ? { replayPair: pair } : {}),
      path: details.counterexamplePath,
      ...(replayPath ? { replayPath } : {}),
      runsUntilFailure: details.numRuns,
      shrinks: details.numShrinks,
      replay: replayCommand({ name: def.name, seed, path: details.counterexamplePath, replayPath, context: opts.replayContext }),
    });
  } catch (err) {
    const message = isHarnessError(err) ? err.message : `unexpected error: ${err instanceof Error ? err.message : String(err)}`;
    return done('ERROR', message, [], {});
  }
}

/**
 * Time the properties take against a target whose clock cannot be moved, ms
 * (to plan real-time runs): those needing clock control skip at once; each
 * other is paced by the write limit (its writes over the limit, in windows)
 * and its round trips, and stops at its time limit.
 */
export function propertiesRealTimeMs(input: {
  only?: readonly string[] | undefined;
  windowMs: number;
  writeLimit: number | undefined;
  requestMs: number;
}): number {
  let ms = 0;
  for (const def of chosenProperties(input.only)) {
    if (def.needs.includes('clock-control')) continue;
    const writes = def.defaultNumRuns * (def.writesPerRun ?? 0);
    const paced = input.writeLimit ? (writes / input.writeLimit) * input.windowMs : 0;
    ms += Math.min(TIME_LIMIT_MS, Math.max(paced, writes * 3 * input.requestMs));
  }
  return ms;
}

/** The agency each chosen property runs as, in the order they run: the primary, or null for one that skips at once for want of clock control. */
export function propertiesAgencies(input: { only?: readonly string[] | undefined }): Array<0 | null> {
  return chosenProperties(input.only).map((def) => (def.needs.includes('clock-control') ? null : 0));
}

/** The properties named in `only` (with or without the `property:` prefix), in run order; all when it names none. */
function chosenProperties(only: readonly string[] | undefined): readonly PropertyDef[] {
  const wanted = (only ?? []).map((n) => n.replace(/^property:/, ''));
  return wanted.length ? PROPERTIES.filter((p) => wanted.includes(p.name)) : PROPERTIES;
}

/**
 * Runs the fast-check properties against the live target with the run's
 * seed, one CaseResult per property (kind `property`, area `properties`):
 * verdict, seed, run count, the shrunk counterexample and the command that
 * replays it. An unknown name in `only` is a usage error.
 */
export async function runProperties(
  ctx: CheckContext & Partial<Pick<SuitePartContext, 'reset' | 'onCase'>>,
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
  const chosen = chosenProperties(opts.only);
  const out: CaseResult[] = [];
  for (const def of chosen) {
    // Against a resettable target each property starts from the fixture (wallet, buckets).
    await ctx.reset?.();
    const result = await runOne(ctx, def, opts);
    ctx.onCase?.(result);
    out.push(result);
  }
  return out;
}
