import { ALL_CHECKS } from '../checks/index.js';
import { isHarnessError } from '../errors/harness-error.js';
import { createHarness, type Harness } from '../harness.js';
import { DEFECT_NAMES, DEFECTS, isDefectName, type DefectName } from '../mock/defects/catalogue.js';
import { HarnessError } from '../errors/harness-error.js';
import { newRunId } from '../results/run-id.js';
import type { SuiteResult } from '../results/run-result.js';
import { randomSeed } from '../runner/fresh-values.js';
import { CHECKS_WITHOUT_OWN_DEFECT, DEFECT_EXPECTATIONS, type DefectExpectation } from './expectations.js';
import { defectFocus } from './defect-focus.js';
import { coverageOf, erroredDefect, judgeClean, judgeDefect, unexplained, type DefectSpec } from './judge-selftest.js';
import type { CleanOutcome, DefectOutcome, SelftestMode, SelftestResult } from '../results/selftest-result.js';

/** Options of `runSelftest`. */
interface SelftestOptions {
  /** Defects to try. @defaultValue every defect of the catalogue */
  defects?: readonly string[];
  /**
   * What a defect's run executes: `focused`, the cases that can catch it (its
   * expected checks, after the baseline); `whole`, the whole suite, which also
   * shows every collateral failure. Clean runs are the whole suite either way.
   * @defaultValue 'focused'
   */
  mode?: SelftestMode;
  /** Clean runs (no defect) to look for false alarms. @defaultValue 1 */
  repeatClean?: number;
  /** Suite runs at once, each against its own embedded mock and clock. @defaultValue 4 */
  concurrency?: number;
  /** Seed of every run; a fresh random seed per run when absent. */
  seed?: number;
  /** Per-check time limit, real ms. @defaultValue the runner's */
  checkTimeoutMs?: number;
  /** The command line, for the report. */
  command?: string;
  /** Replaces the expectations of some defects (a test proves an escape this way). @defaultValue DEFECT_EXPECTATIONS */
  expectations?: Partial<Record<string, DefectExpectation>>;
  /** Called as each run finishes. */
  onProgress?: (event: SelftestProgress) => void;
}

/** One finished run of the self-test. */
type SelftestProgress =
  | { type: 'defect'; outcome: DefectOutcome; done: number; total: number }
  | { type: 'clean'; outcome: CleanOutcome; done: number; total: number };

type Job = { kind: 'clean'; index: number } | { kind: 'defect'; spec: DefectSpec & { defect: DefectName }; focus: string[] | undefined };

/** The spec of every defect named (all when none), in catalogue order; an unknown name is a usage error. */
function defectSpecs(names?: readonly string[], overrides: Partial<Record<string, DefectExpectation>> = {}): Array<DefectSpec & { defect: DefectName }> {
  const wanted = names && names.length > 0 ? names : DEFECT_NAMES;
  const unknown = wanted.filter((n) => !isDefectName(n));
  if (unknown.length > 0) throw new HarnessError('E_USAGE', `unknown defect ${unknown.map((n) => `"${n}"`).join(', ')}; known: ${DEFECT_NAMES.join(', ')}`);
  const set = new Set(wanted);
  return DEFECT_NAMES.filter((d) => set.has(d)).map((defect) => {
    const e = overrides[defect] ?? DEFECT_EXPECTATIONS[defect];
    return { defect, description: DEFECTS[defect], promise: e.promise, caughtBy: e.caughtBy };
  });
}

function message(err: unknown): string {
  return isHarnessError(err) || err instanceof Error ? err.message : String(err);
}

/**
 * A worker: one embedded mock, reused from run to run. Before each run the
 * defects are switched to the run's own and the mock is reset (the runner
 * resets it again before every check), so no run sees another's state.
 */
class Worker {
  private harness: Harness | undefined;

  constructor(private readonly options: SelftestOptions) {}

  /** One run with `defects` switched on: the cases of `only` (a `run --only` list), or the whole suite. */
  async run(defects: readonly DefectName[], only?: readonly string[]): Promise<SuiteResult> {
    this.harness ??= createHarness({ ...(this.options.checkTimeoutMs !== undefined ? { checkTimeoutMs: this.options.checkTimeoutMs } : {}) });
    const { mock } = await this.harness.prepare();
    if (!mock) throw new HarnessError('E_INTERNAL', 'the self-test needs the embedded mock');
    mock.defects.disable(DEFECT_NAMES);
    mock.defects.enable(defects);
    await mock.reset();
    return this.harness.run({ ...(only ? { only } : {}), seed: this.options.seed ?? randomSeed(), command: this.options.command ?? 'selftest' });
  }

  async close(): Promise<void> {
    await this.harness?.close();
    this.harness = undefined;
  }
}

/**
 * The jobs, those that run the whole suite first, then the focused runs of a
 * scenario or property (seconds of fast-check each), then the other focused
 * runs (a check or two): the short runs fill in at the end instead of one
 * long run starting last while the other workers stand idle. Stable
 * otherwise; the results are put back in catalogue order.
 */
function heaviestFirst(jobs: readonly Job[]): Job[] {
  const weight = (j: Job): number => (j.kind === 'clean' || !j.focus ? 2 : j.focus.some((id) => id.includes(':')) ? 1 : 0);
  return jobs
    .map((job, i) => ({ job, i }))
    .sort((a, b) => weight(b.job) - weight(a.job) || a.i - b.i)
    .map((x) => x.job);
}

/** True for a job that runs the whole suite (the clean runs, and a defect whose expected case judges the whole run). */
const runsWhole = (j: Job): boolean => j.kind === 'clean' || !j.focus;

/**
 * Takes the next job a free worker may start from `pending` (in order): a
 * run of the whole suite only while none other runs (`wholeRunning`), else
 * the first focused one. Whole runs at once in one process make their
 * rate-limit fills at the same moment: beside two busy CPUs, four of them
 * left RL-01's requests unanswered for 15 s, a false alarm of the clean run.
 */
export function takeNext<J>(pending: J[], wholeRunning: number, whole: (j: J) => boolean): J | undefined {
  const i = pending.findIndex((j) => !(whole(j) && wholeRunning > 0));
  return i < 0 ? undefined : pending.splice(i, 1)[0];
}

/**
 * Runs the suite once per defect (that defect alone switched on; focused on
 * the cases that can catch it unless `mode` is `whole`) and `repeatClean`
 * times, whole, with none, several runs at once; judges each run and returns
 * the self-test result.
 */
export async function runSelftest(options: SelftestOptions = {}): Promise<SelftestResult> {
  const specs = defectSpecs(options.defects, options.expectations);
  const repeatClean = options.repeatClean ?? 1;
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const mode = options.mode ?? 'focused';
  if (mode !== 'focused' && mode !== 'whole') throw new HarnessError('E_USAGE', `the self-test mode must be focused or whole, got ${String(mode)}`);
  if (!Number.isInteger(repeatClean) || repeatClean < 0) throw new HarnessError('E_USAGE', `--repeat-clean must be an integer ≥ 0, got ${String(repeatClean)}`);
  if (!Number.isInteger(concurrency)) throw new HarnessError('E_USAGE', `--concurrency must be an integer ≥ 1, got ${String(options.concurrency)}`);
  const runId = newRunId();
  const startedAt = new Date();
  const t0 = performance.now();

  const jobs: Job[] = heaviestFirst([
    ...Array.from({ length: repeatClean }, (_, index): Job => ({ kind: 'clean', index })),
    ...specs.map((spec): Job => ({ kind: 'defect', spec, focus: mode === 'focused' ? defectFocus(spec.caughtBy, ALL_CHECKS) : undefined })),
  ]);
  const total = jobs.length;
  const defects: DefectOutcome[] = [];
  const clean: CleanOutcome[] = [];
  let done = 0;
  let wholeRunning = 0;
  /** Wakes the workers waiting for a whole run to end (each takes a job again). */
  let wholeEnded: Array<() => void> = [];
  const endWhole = (): void => {
    wholeRunning -= 1;
    const waiting = wholeEnded;
    wholeEnded = [];
    for (const wake of waiting) wake();
  };
  /** The next job for a worker: undefined once none is left; while only whole runs are left and one runs, it waits for that one. */
  const take = async (): Promise<Job | undefined> => {
    for (;;) {
      if (jobs.length === 0) return undefined;
      const job = takeNext(jobs, wholeRunning, runsWhole);
      if (job) {
        if (runsWhole(job)) wholeRunning += 1;
        return job;
      }
      await new Promise<void>((resolve) => wholeEnded.push(resolve));
    }
  };

  const work = async (): Promise<void> => {
    const worker = new Worker(options);
    try {
      for (let job = await take(); job; job = await take()) {
        const r0 = performance.now();
        const seed = options.seed ?? randomSeed();
        if (job.kind === 'clean') {
          let outcome: CleanOutcome;
          try {
            outcome = judgeClean(job.index, await worker.run([]));
          } catch (err) {
            outcome = { index: job.index, falseAlarms: [], cases: 0, durationMs: Math.round(performance.now() - r0), seed, error: message(err) };
            await worker.close();
          }
          clean.push(outcome);
          options.onProgress?.({ type: 'clean', outcome, done: ++done, total });
        } else {
          let outcome: DefectOutcome;
          try {
            outcome = judgeDefect(job.spec, await worker.run([job.spec.defect], job.focus));
          } catch (err) {
            outcome = erroredDefect(job.spec, message(err), Math.round(performance.now() - r0), seed);
            await worker.close();
          }
          if (job.focus) outcome.focus = job.focus;
          defects.push(outcome);
          options.onProgress?.({ type: 'defect', outcome, done: ++done, total });
        }
        if (runsWhole(job)) endWhole();
      }
    } finally {
      await worker.close();
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, total)) }, work));

  const order = new Map(specs.map((s, i) => [s.defect, i]));
  defects.sort((a, b) => (order.get(a.defect as DefectName) ?? 0) - (order.get(b.defect as DefectName) ?? 0));
  clean.sort((a, b) => a.index - b.index);
  const coverage = coverageOf(
    defects,
    ALL_CHECKS.map((c) => c.id),
    CHECKS_WITHOUT_OWN_DEFECT,
  );
  const caught = defects.filter((d) => d.caught).length;
  const falseAlarmRuns = clean.filter((c) => c.falseAlarms.length > 0 || c.error !== undefined).length;
  // Which checks are needed can only be judged over the whole catalogue.
  const whole = specs.length === DEFECT_NAMES.length;
  const gaps = whole ? unexplained(coverage) : [];
  return {
    schema: 'svc-harness/selftest@1',
    kind: 'selftest',
    runId,
    command: options.command ?? 'selftest',
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    durationMs: Math.round(performance.now() - t0),
    concurrency,
    mode,
    wholeCatalogue: whole,
    defects,
    clean,
    coverage,
    score: { caught, total: defects.length },
    falseAlarmRuns,
    unexplainedChecks: gaps,
    verdict: caught === defects.length && falseAlarmRuns === 0 ? 'PASS' : 'FAIL',
  };
}
