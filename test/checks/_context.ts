import { randomBytes } from 'node:crypto';
import { agencyApis } from '../../src/api/agency-apis.js';
import type { Check, CheckContext, CheckOutcome } from '../../src/checks/types.js';
import { MemoryRecorder } from '../../src/client/exchange.js';
import { createMock, type RunningMock } from '../../src/mock/create-mock.js';
import type { MockOptions } from '../../src/mock/options.js';
import { DEFAULT_PROFILE } from '../../src/profile/defaults.js';
import type { Profile } from '../../src/profile/types.js';
import { resolvedAgency } from '../helpers/mock-agencies.js';

/** A real mock with a check context over it, for end-to-end tests of checks. */
export interface CheckTarget {
  mock: RunningMock;
  ctx: CheckContext;
  recorder: MemoryRecorder;
  log: string[];
  /** Runs checks in order, keyed by id. */
  run(checks: readonly Check[]): Promise<Record<string, CheckOutcome>>;
  /** Switches the defects off, turns `names` on and resets the mock's state. */
  defects(names: string[]): Promise<void>;
  close(): Promise<void>;
}

/** Starts a mock on port 0 and builds a minimal CheckContext over it (clock moves are instant). */
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
  const ctx: CheckContext = {
    profile,
    agencies,
    api: apis.api,
    hotel: apis.hotel,
    clock: { kind: 'mock', now, wait: (ms) => mock.advance(ms) },
    receiver: undefined,
    recorder,
    exchanges: () => recorder.exchanges,
    timeline: { rateLimit: () => {}, webhook: () => {} },
    log: (m) => log.push(m),
    seed: 1,
    unique: (prefix) => `${prefix}-${prefixCounter}-${(n += 1)}`,
  };
  return {
    mock,
    ctx,
    recorder,
    log,
    async run(checks) {
      const out: Record<string, CheckOutcome> = {};
      for (const c of checks) out[c.id] = await c.run(ctx);
      return out;
    },
    async defects(names) {
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
