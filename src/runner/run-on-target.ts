import { probeTarget } from '../api/probe-target.js';
import type { Registry } from '../checks/registry.js';
import type { Check } from '../checks/types.js';
import { createAdminClient } from '../clock/admin-client.js';
import { AdminClockDriver } from '../clock/admin-clock-driver.js';
import { clockBoundMs } from '../clock/clock-bound.js';
import type { ClockDriver } from '../clock/clock-driver.js';
import { ClockRestorer } from '../clock/clock-restorer.js';
import { MockClockDriver } from '../clock/mock-clock-driver.js';
import { RealClockDriver } from '../clock/real-clock-driver.js';
import { HarnessError, isHarnessError } from '../errors/harness-error.js';
import { loadOpenApiDocument } from '../openapi/load-document.js';
import type { Profile, ResolvedAgency } from '../profile/index.js';
import type { RunningMock } from '../mock/index.js';
import { resolveAgencies, type SecretNeeds } from '../profile/resolve-secrets.js';
import { startTargetReceiver } from '../receiver/index.js';
import type { SuiteResult } from '../results/run-result.js';
import type { RunListener } from './run-events.js';
import { replayContext } from './replay-context.js';
import { runSuite } from './run-suite.js';
import type { SuiteParts } from './suite-part-types.js';
import { loadSuiteParts } from './suite-parts.js';

/*
 * `Harness.run`: the suite on a prepared target. Kept apart from
 * `harness.ts`, which imports it when a run starts, so that a load, a mock
 * or a report command never compiles the runner.
 */

/** Options of one run (`Harness.run`). */
export interface HarnessRunOptions {
  /** Comma list (or list) of check ids and areas; everything when absent. */
  only?: string | readonly string[];
  seed?: number;
  /** fast-check path of a property counterexample to replay (with `seed` and one `property:<name>`). */
  propertyPath?: string;
  /** fast-check replay path of a shrunk command list, with `propertyPath`. */
  propertyReplayPath?: string;
  /** Runs of property:openapi-inputs (deeper fuzzing). @defaultValue its own (1) */
  fuzzRuns?: number;
  /**
   * Longest single wait in real time, s (`run --max-wait`): against a target
   * whose clock cannot be moved, a check, scenario or property that would
   * wait longer is a SKIP naming the bound, and the estimate leaves it out.
   * With clock control (the embedded mock, a mock's admin API) waits are
   * moves of the clock and it does not apply. @defaultValue 120
   */
  maxWaitS?: number;
  /** The command line, for the report. */
  command?: string;
  /** The run id of the report. @defaultValue a new one */
  runId?: string;
  onEvent?: RunListener;
  /** Interrupts the run: waits end at once, no case starts, and the result of what ran comes back with the verdict INTERRUPTED. */
  signal?: AbortSignal;
}

/** What a run takes from the harness's own options (`HarnessOptions`). */
interface RunSetup {
  env?: NodeJS.ProcessEnv;
  receiver?: { host?: string; port?: number; publicUrl?: string };
  parts?: SuiteParts | false;
  checkTimeoutMs?: number;
  targetFile?: string;
  mock?: { defects?: Iterable<string> };
}

/** The secrets the selected checks cannot do without. */
function secretNeeds(checks: readonly Check[], profile: Readonly<Profile>): SecretNeeds {
  const needs = new Set(checks.flatMap((c) => c.needs));
  return {
    agencies: needs.has('second-agency') ? Math.min(2, profile.agencies.length) : 1,
    webhookSecret: needs.has('receiver'),
    hotel: needs.has('hotel') && profile.hotel_base_url !== null,
  };
}

/** The note of a run whose probe was answered with a body too large to read: the target answers, but may be unusable. */
export const PROBE_TOO_LARGE = 'the target answered the probe (a signed GET of the account) with a body larger than the harness reads';

/** Probes the target (see `probeTarget`); a refused signature or an answer too large to read becomes a note. */
async function probe(profile: Readonly<Profile>, agency: ResolvedAgency): Promise<string | undefined> {
  const { status, code, tooLarge } = await probeTarget(profile, agency, 'runner: probe');
  if (tooLarge !== undefined) return `${PROBE_TOO_LARGE}: ${tooLarge}`;
  // Signed with local time: a moved mock clock refuses it for skew, which says nothing about the credentials.
  if (status === profile.errors.unauthenticated.status && code !== profile.errors.timestamp_skew.code) {
    return `the target refused the probe with ${status} (${code ?? 'no code'}): check agency ${agency.id}'s key id and secret`;
  }
  return undefined;
}

/** Probes the target, chooses its clock and receiver, and runs the selected checks, scenarios and properties (`Harness.run`). */
export async function runOnTarget(
  prepare: () => Promise<{ profile: Readonly<Profile>; embedded: boolean; mock: RunningMock | undefined }>,
  registry: Registry,
  options: RunSetup,
  runOptions: HarnessRunOptions,
): Promise<SuiteResult> {
  const selection = registry.select(runOptions.only);
  const target = await prepare();
  const { profile, embedded } = target;
  // A document that cannot be read is the user's mistake: said before the run starts, not as the ERROR of the check that reads it at its end.
  if (profile.openapi !== null && selection.checks.some((c) => c.readsOpenApi === true)) await loadOpenApiDocument(profile.openapi);
  const agencies = resolveAgencies(profile, options.env ?? process.env, secretNeeds(selection.checks, profile));
  const notes: string[] = [];
  const probeNote = await probe(profile, agencies[0]!);
  if (probeNote) notes.push(probeNote);

  let clock: ClockDriver;
  let reset: (() => Promise<void>) | undefined;
  let restorer: ClockRestorer | undefined;
  if (target.mock) {
    const m = target.mock;
    clock = new MockClockDriver(m.clock, { advance: (ms) => m.advance(ms), maxWaitMs: clockBoundMs(profile), signal: runOptions.signal });
    reset = () => m.reset();
  } else if (profile.clock.control === 'mock-admin') {
    restorer = new ClockRestorer(createAdminClient(profile.clock.admin_url), runOptions.signal);
    const driver = await AdminClockDriver.connect(restorer.admin, { maxWaitMs: clockBoundMs(profile), signal: runOptions.signal }).catch((err: unknown) => {
      throw isHarnessError(err) && err.code === 'E_TARGET_UNREACHABLE'
        ? new HarnessError(
            'E_TARGET_UNREACHABLE',
            `mock admin API ${profile.clock.control === 'mock-admin' ? profile.clock.admin_url : ''} is unreachable: ${err.message}`,
            { cause: err },
          )
        : err;
    });
    clock = driver;
    reset = () => driver.admin.reset();
  } else {
    clock = new RealClockDriver({ maxWaitMs: clockBoundMs(profile), signal: runOptions.signal });
  }

  const receiver = await startTargetReceiver(profile, { ...options.receiver, embedded, now: () => clock.now() });
  if (!receiver) {
    notes.push(
      'No webhook receiver: the target is not on this machine and no receiver.public_url (or --receiver-url) says how it can reach one; webhook checks are skipped.',
    );
  }

  const found =
    options.parts === false || !(selection.scenarios || selection.properties)
      ? {}
      : (options.parts ??
        (await loadSuiteParts({
          scenarioNames: selection.scenarioNames,
          propertyNames: selection.propertyNames,
          ...(runOptions.propertyPath ? { propertyPath: runOptions.propertyPath } : {}),
          ...(runOptions.propertyReplayPath ? { propertyReplayPath: runOptions.propertyReplayPath } : {}),
          ...(runOptions.fuzzRuns !== undefined ? { fuzzRuns: runOptions.fuzzRuns } : {}),
          replayContext: replayContext({ targetFile: options.targetFile, embedded, mockDefects: options.mock?.defects }),
        })));
  const parts: SuiteParts = {};
  if (selection.scenarios && found.scenarios) parts.scenarios = found.scenarios;
  if (selection.properties && found.properties) parts.properties = found.properties;
  if (found.realTimeMs) parts.realTimeMs = found.realTimeMs;
  if (found.scenarioWaits) parts.scenarioWaits = found.scenarioWaits;
  if (found.casesOf) parts.casesOf = found.casesOf;
  if (found.agenciesOf) parts.agenciesOf = found.agenciesOf;

  try {
    return await runSuite({
      profile,
      agencies,
      checks: selection.checks,
      clock,
      ...(reset ? { reset } : {}),
      ...(receiver ? { receiver } : {}),
      parts,
      ...(runOptions.seed !== undefined ? { seed: runOptions.seed } : {}),
      ...(runOptions.runId !== undefined ? { runId: runOptions.runId } : {}),
      ...(runOptions.maxWaitS !== undefined ? { maxWaitMs: runOptions.maxWaitS * 1000 } : {}),
      command: runOptions.command ?? 'run',
      embedded,
      ...(options.checkTimeoutMs !== undefined ? { checkTimeoutMs: options.checkTimeoutMs } : {}),
      notes,
      ...(runOptions.onEvent ? { onEvent: runOptions.onEvent } : {}),
      ...(runOptions.signal ? { signal: runOptions.signal } : {}),
    });
  } finally {
    await receiver?.close();
    await restorer?.restore();
  }
}
