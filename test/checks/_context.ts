import { randomBytes } from 'node:crypto';
import { agencyApis } from '../../src/api/agency-apis.js';
import { checkContext, type RunScope } from '../../src/checks/check-context.js';
import { createRunCache } from '../../src/checks/run-cache.js';
import type { Check, CheckContext, CheckOutcome } from '../../src/checks/types.js';
import { MemoryRecorder, type Exchange } from '../../src/client/exchange.js';
import { createMock, type RunningMock } from '../../src/mock/create-mock.js';
import type { MockOptions } from '../../src/mock/options.js';
import { DEFAULT_PROFILE } from '../../src/profile/defaults.js';
import type { Profile } from '../../src/profile/types.js';
import { resolvedAgency } from '../helpers/mock-agencies.js';
import { MockClockDriver } from '../../src/clock/mock-clock-driver.js';

/** A real mock with a run over it, for end-to-end tests of checks. */
export interface CheckTarget {
  mock: RunningMock;
  /** The context of check `checkId` in the current run. */
  context(checkId: string): CheckContext;
  recorder: MemoryRecorder;
  log: string[];
  /** The exchanges each check sent in `run`, by check id. */
  sentBy: Map<string, Exchange[]>;
  /** Runs checks in order, keyed by id. */
  run(checks: readonly Check[]): Promise<Record<string, CheckOutcome>>;
  /** Switches the defects off, turns `names` on, resets the mock's state and starts a new run (fresh run cache). */
  defects(names: string[]): Promise<void>;
  close(): Promise<void>;
}

/** Starts a mock on port 0 and builds a minimal run scope over it (clock moves are instant). */
export async function startCheckTarget(options: MockOptions = {}): Promise<CheckTarget> {
  const mock = await createMock({ port: 0, hotelPort: 0, adminPort: 0, admin: true, ...options });
  const profile: Profile = {
    ...DEFAULT_PROFILE,
    base_url: mock.baseUrl,
    hotel_base_url: mock.hotelBaseUrl,
    clock: { control: 'mock-admin', admin_url: mock.adminUrl ?? '' },
    agencies: mock.agencies.map((a) => ({ id: a.agency_id, key_id: a.key_id })),
    quotes: { lifetime_s: options.quoteLifetimeS ?? DEFAULT_PROFILE.quotes.lifetime_s },
  };
  const agencies = mock.agencies.map((a) => resolvedAgency(a));
  const recorder = new MemoryRecorder();
  const now = () => mock.clock.now();
  const apis = agencyApis({ profile, agencies, recorder, now });
  const log: string[] = [];
  const prefixCounter = randomBytes(4).toString('hex');
  let n = 0;
  const scope: RunScope = {
    runCache: createRunCache(),
    profile,
    agencies,
    api: apis.api,
    hotel: apis.hotel,
    clock: new MockClockDriver(mock.clock, { advance: (ms) => mock.advance(ms) }),
    receiver: undefined,
    recorder,
    exchanges: () => recorder.exchanges,
    timeline: { rateLimit: () => {}, webhook: () => {} },
    log: (m) => log.push(m),
    seed: 1,
    unique: (prefix) => `${prefix}-${prefixCounter}-${(n += 1)}`,
  };
  const sentBy = new Map<string, Exchange[]>();
  return {
    mock,
    context: (checkId) => checkContext(scope, checkId),
    recorder,
    log,
    sentBy,
    async run(checks) {
      const out: Record<string, CheckOutcome> = {};
      for (const c of checks) {
        const from = recorder.exchanges.length;
        out[c.id] = await c.run(checkContext(scope, c.id));
        sentBy.set(c.id, recorder.exchanges.slice(from));
      }
      return out;
    },
    async defects(names) {
      scope.runCache = createRunCache();
      mock.defects.disable(mock.defects.list());
      mock.defects.enable(names);
      await mock.reset();
      // A fresh rate window per scenario: earlier checks' writes must not throttle the next ones.
      await mock.advance(61_000);
    },
    async close() {
      await apis.close();
      await mock.close();
    },
  };
}

/** "ID: VERDICT message" lines of outcomes that are not PASS, for assertion messages. */
export function notPassing(outcomes: Record<string, CheckOutcome>): string[] {
  return Object.entries(outcomes)
    .filter(([, o]) => o.verdict !== 'PASS')
    .map(([id, o]) => `${id}: ${o.verdict} ${o.message}`);
}

/** "ID: label" of every exchange a check sent in `run` whose label does not start with the check's id. */
export function mislabelled(t: CheckTarget): string[] {
  return [...t.sentBy].flatMap(([id, xs]) => xs.filter((x) => !x.label?.startsWith(`${id} `)).map((x) => `${id}: ${x.label ?? '(no label)'}`));
}
