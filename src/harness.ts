import { probeTarget } from './api/probe-target.js';
import { defaultRegistry, defineRegistry } from './checks/index.js';
import type { Check } from './checks/types.js';
import { HarnessError, isHarnessError } from './errors/harness-error.js';
import type { MockOptions, RunningMock } from './mock/index.js';
import { loadOnTarget, type LoadOptions } from './load/load-on-target.js';
import { loadOpenApiDocument } from './openapi/load-document.js';
import { agencyFromMock } from './profile/agency-from-mock.js';
import { loadProfile, type Profile, type ResolvedAgency, resolveProfile } from './profile/index.js';
import { resolveAgencies, type SecretNeeds } from './profile/resolve-secrets.js';
import { startTargetReceiver } from './receiver/index.js';
import type { LoadRunResult, SuiteResult } from './results/run-result.js';
import { createAdminClient } from './clock/admin-client.js';
import { AdminClockDriver } from './clock/admin-clock-driver.js';
import { clockBoundMs } from './clock/clock-bound.js';
import { ClockRestorer } from './clock/clock-restorer.js';
import type { ClockDriver } from './clock/clock-driver.js';
import { MockClockDriver } from './clock/mock-clock-driver.js';
import { RealClockDriver } from './clock/real-clock-driver.js';
import type { RunListener } from './runner/run-events.js';
import { runSuite } from './runner/run-suite.js';
import { replayContext } from './runner/replay-context.js';
import { loadSuiteParts } from './runner/suite-parts.js';
import type { SuiteParts } from './runner/suite-part-types.js';

/** Options of `createHarness`. With neither `profile` nor `targetFile`, the harness starts the embedded mock. */
export interface HarnessOptions {
  /** A profile object, merged over the reference defaults (wins over `targetFile`). */
  profile?: unknown;
  /** A YAML or JSON target profile file. */
  targetFile?: string;
  /** Start the mock in-process and point the profile at it. @defaultValue true when neither profile nor targetFile is given */
  embedded?: boolean;
  /** Options of the embedded mock (ports are 0 and admin is on unless given). */
  mock?: MockOptions;
  /** Where `*_env` secrets are read. @defaultValue process.env */
  env?: NodeJS.ProcessEnv;
  /** The webhook receiver: bind address, and the URL the target reaches it at. Overrides the profile's `receiver`. */
  receiver?: { host?: string; port?: number; publicUrl?: string };
  /** The checks to choose from. @defaultValue every check of the harness */
  checks?: readonly Check[];
  /** Scenario and property runners; false runs none. @defaultValue those found in `src/scenario/` and `properties/` */
  parts?: SuiteParts | false;
  /** Time limit of one check beyond its declared waits, ms. @defaultValue 120000 */
  checkTimeoutMs?: number;
}

/** Options of one run. */
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

/** What a prepared harness points at. */
export interface PreparedTarget {
  profile: Readonly<Profile>;
  embedded: boolean;
  mock: RunningMock | undefined;
}

/** The library API over which the CLI and tests run the suite. */
export interface Harness {
  /** Loads and validates the profile, starts the embedded mock when asked; `run` calls it itself. */
  prepare(): Promise<PreparedTarget>;
  /** Probes the target, runs the selected checks, scenarios and properties, and returns the (redacted) result. */
  run(options?: HarnessRunOptions): Promise<SuiteResult>;
  /** Replays scenarios (or signed searches) as load against the target; verdicts under load, figures and gates come back as a run result. */
  load(options: LoadOptions): Promise<LoadRunResult>;
  /** Stops what the harness started (the embedded mock). */
  close(): Promise<void>;
}

/** The embedded mock's addresses and the default fixture's secrets, written into the profile. */
function pointAt(profile: Readonly<Profile>, mock: RunningMock, mockOptions: MockOptions): Readonly<Profile> {
  const p: Profile = structuredClone(profile);
  p.base_url = mock.baseUrl;
  p.hotel_base_url = mock.hotelBaseUrl;
  p.clock = { control: 'mock-admin', admin_url: mock.adminUrl ?? '' };
  if (!mock.adminUrl) p.clock = { control: 'none' };
  p.agencies = p.agencies.map((def) => {
    const creds = mock.agencies.find((a) => a.agency_id === def.id);
    return creds ? agencyFromMock(creds) : def;
  });
  if (mockOptions.webhookBaseMs !== undefined) p.webhooks.base_ms = mockOptions.webhookBaseMs;
  if (mockOptions.webhookFactor !== undefined) p.webhooks.factor = mockOptions.webhookFactor;
  if (mockOptions.webhookTimeoutMs !== undefined) p.webhooks.delivery_timeout_ms = mockOptions.webhookTimeoutMs;
  if (mockOptions.quoteLifetimeS !== undefined) p.quotes.lifetime_s = mockOptions.quoteLifetimeS;
  if (mockOptions.windowS !== undefined) p.limits.window_s = mockOptions.windowS;
  return resolveProfile(p, 'embedded mock profile');
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

/** Creates a harness over a profile (or the embedded mock). Nothing starts until `prepare` or `run`. */
export function createHarness(options: HarnessOptions = {}): Harness {
  const embedded = options.embedded ?? (options.profile === undefined && options.targetFile === undefined);
  const registry = options.checks ? defineRegistry(options.checks) : defaultRegistry();
  let prepared: Promise<PreparedTarget> | undefined;
  let mock: RunningMock | undefined;

  const prepare = (): Promise<PreparedTarget> => {
    prepared ??= (async () => {
      let profile =
        options.profile !== undefined
          ? resolveProfile(options.profile)
          : options.targetFile !== undefined
            ? await loadProfile(options.targetFile)
            : resolveProfile({});
      if (embedded) {
        const { createMock } = await import('./mock/index.js');
        const mockOptions: MockOptions = { port: 0, hotelPort: 0, adminPort: 0, admin: true, ...options.mock };
        mock = await createMock(mockOptions);
        profile = pointAt(profile, mock, mockOptions);
      }
      return { profile, embedded, mock };
    })();
    return prepared;
  };

  return {
    prepare,
    async run(runOptions = {}) {
      const selection = registry.select(runOptions.only);
      const target = await prepare();
      const { profile } = target;
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
    },
    async load(loadOptions) {
      return loadOnTarget(await prepare(), loadOptions, options.env ?? process.env);
    },
    async close() {
      const m = mock;
      mock = undefined;
      prepared = undefined;
      await m?.close();
    },
  };
}
