import { HarnessError } from '../errors/harness-error.js';
import type { RunningMock } from '../mock/index.js';
import type { Profile } from '../profile/index.js';
import type { LoadRunResult } from '../results/run-result.js';
import { loadScenarios } from '../scenario/index.js';
import type { Scenario } from '../scenario/types.js';
import type { Threshold } from './gate/gates.js';
import type { LoadResult } from '../results/load-result.js';
import type { RegressionLimits } from './gate/regression-rule.js';
import { mockLoadTarget, profileLoadTarget } from './load-target.js';
import type { LoadProgress } from './drive-load.js';
import { loadAgencies, runLoad, type LoadTarget } from './run-load.js';
import type { OnLoadWait } from './announced-wait.js';
import type { LiveLoad } from './live-load.js';

/** Options of a load run over a prepared target (`Harness.load`). */
export interface LoadOptions {
  /** Scenario files and/or a folder of them to replay. @defaultValue every shipped scenario */
  scenarios?: { files?: readonly string[]; dir?: string };
  /** Send only signed searches of this product (the fast template path) instead of scenarios. */
  search?: string;
  /** Seconds of load (real time). */
  durationS: number;
  /** Stop after this many autocannon responses. */
  maxRequests?: number;
  /** autocannon connections. @defaultValue max(10, agencies of this shard) */
  connections?: number;
  /** Also drive every agency past its limits at planned instants. @defaultValue false */
  pushLimits?: boolean;
  /** Which part of the agencies this process takes. */
  shard?: { index: number; count: number };
  thresholds?: Threshold[];
  baseline?: { result: LoadResult; limits: RegressionLimits };
  /** Aborting ends the load early; the result still covers what ran. */
  signal?: AbortSignal;
  onProgress?: (p: LoadProgress) => void;
  /** Told of every real-time wait longer than a second, with its length, before it starts. */
  onWait?: OnLoadWait;
  /** Seconds the requests in flight at the end of the duration get to finish. @defaultValue GRACEFUL_STOP_S */
  gracefulStopS?: number;
  /** The command line, for the report. */
  command?: string;
  /** The run id of the report. @defaultValue a new one */
  runId?: string;
  /** Given the running load before its first request: a live page and metrics outputs watch it. */
  onStart?: (live: LiveLoad) => void;
}

/**
 * Runs a load against what the harness prepared: the embedded mock (its
 * generated agencies) or a profiled service (every agency of the profile).
 */
export async function loadOnTarget(
  prepared: { profile: Readonly<Profile>; mock: RunningMock | undefined },
  options: LoadOptions,
  env: NodeJS.ProcessEnv,
): Promise<LoadRunResult> {
  const target = prepared.mock
    ? mockLoadTarget(prepared.mock)
    : await profileLoadTarget(prepared.profile, env, { shard: options.shard, onWait: options.onWait, signal: options.signal });
  const { search } = options;
  if (search !== undefined && !target.profile.products.includes(search)) {
    throw new HarnessError('E_USAGE', `--search names an unknown product "${search}" (products: ${target.profile.products.join(', ')})`);
  }
  const scenarios =
    search !== undefined
      ? undefined
      : await loadScenarios(
          {
            ...(options.scenarios?.files ? { files: [...options.scenarios.files] } : {}),
            ...(options.scenarios?.dir !== undefined ? { dir: options.scenarios.dir } : {}),
          },
          target.profile,
        );
  try {
    return await runLoadOn(target, options, scenarios, search);
  } finally {
    await target.close?.();
  }
}

function runLoadOn(target: LoadTarget, options: LoadOptions, scenarios: Scenario[] | undefined, search: string | undefined): Promise<LoadRunResult> {
  return runLoad({
    target,
    scenarios,
    search: search !== undefined ? { product: search } : undefined,
    durationS: options.durationS,
    maxRequests: options.maxRequests,
    connections: options.connections ?? Math.max(10, loadAgencies(target, options.shard).length),
    pushLimits: options.pushLimits ?? false,
    shard: options.shard,
    thresholds: options.thresholds ?? [],
    baseline: options.baseline,
    signal: options.signal,
    onProgress: options.onProgress,
    onWait: options.onWait,
    gracefulStopS: options.gracefulStopS,
    command: options.command,
    runId: options.runId,
    onStart: options.onStart,
  });
}
