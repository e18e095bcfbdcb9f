import { defaultRegistry, defineRegistry } from './checks/index.js';
import type { Check } from './checks/types.js';
import { createMock, type MockOptions, type RunningMock } from './mock/index.js';
import type { LoadOptions } from './load/load-on-target.js';
import { agencyFromMock } from './profile/agency-from-mock.js';
import { loadProfile, type Profile, resolveProfile } from './profile/index.js';
import type { LoadRunResult, SuiteResult } from './results/run-result.js';
import type { HarnessRunOptions } from './runner/run-on-target.js';
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

export type { HarnessRunOptions };

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

/** Creates a harness over a profile (or the embedded mock). Nothing starts until `prepare` or `run`. */
export function createHarness(options: HarnessOptions = {}): Harness {
  const embedded = options.embedded ?? (options.profile === undefined && options.targetFile === undefined);
  // Built here, so that a check list with a duplicate id throws from createHarness, before anything starts.
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
      // The runner and what it reads load with the first run: a load never compiles them.
      const { runOnTarget } = await import('./runner/run-on-target.js');
      return runOnTarget(prepare, registry, options, runOptions);
    },
    async load(loadOptions) {
      const { loadOnTarget } = await import('./load/load-on-target.js');
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
