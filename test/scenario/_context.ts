import { randomBytes } from 'node:crypto';
import { createTargetApi, type ClosableTargetApi } from '../../src/api/index.js';
import { checkContext } from '../../src/checks/check-context.js';
import { createRunCache } from '../../src/checks/run-cache.js';
import type { CheckContext } from '../../src/checks/types.js';
import { MemoryRecorder } from '../../src/client/exchange.js';
import { createMock, type MockOptions, type RunningMock } from '../../src/mock/index.js';
import { DEFAULT_PROFILE } from '../../src/profile/defaults.js';
import type { Profile } from '../../src/profile/types.js';
import { resolvedAgency } from '../helpers/mock-agencies.js';
import { MockClockDriver } from '../../src/clock/mock-clock-driver.js';

/** A minimal CheckContext over a real mock on port 0: every mock agency, mock clock, memory recorder. */
export interface TestContext {
  ctx: CheckContext;
  mock: RunningMock;
  recorder: MemoryRecorder;
  logs: string[];
  close(): Promise<void>;
}

/** Starts a mock and builds a context for it; `close()` ends both. */
export async function startContext(options: MockOptions = {}, seed = 42): Promise<TestContext> {
  const mock = await createMock(options);
  const agencies = mock.agencies.map((a) => resolvedAgency(a));
  const profile: Profile = {
    ...DEFAULT_PROFILE,
    base_url: mock.baseUrl,
    hotel_base_url: mock.hotelBaseUrl,
    clock: { control: 'none' },
    agencies: agencies.map((a) => ({ id: a.id, key_id: a.keyId, secret: a.secret })),
    quotes: { lifetime_s: options.quoteLifetimeS ?? DEFAULT_PROFILE.quotes.lifetime_s },
  };
  const recorder = new MemoryRecorder();
  const apis = new Map<number, ClosableTargetApi>();
  const logs: string[] = [];
  let counter = 0;
  const runTag = randomBytes(4).toString('hex');
  // Scenarios and properties run as a suite part does: one context for the whole part.
  const ctx: CheckContext = checkContext(
    {
      runCache: createRunCache(),
      profile,
      agencies,
      api(i = 0) {
        let api = apis.get(i);
        if (!api) {
          const agency = agencies[i];
          if (!agency) throw new Error(`no agency #${i}`);
          api = createTargetApi({ profile, agency, recorder, now: () => mock.clock.now() });
          apis.set(i, api);
        }
        return api;
      },
      hotel: () => undefined,
      clock: new MockClockDriver(mock.clock),
      receiver: undefined,
      recorder,
      exchanges: () => recorder.exchanges,
      timeline: { rateLimit: () => undefined, webhook: () => undefined },
      log: (m) => void logs.push(m),
      seed,
      unique: (prefix) => `${prefix}-${runTag}-${(counter += 1)}`,
    },
    'test',
  );
  return {
    ctx,
    mock,
    recorder,
    logs,
    async close() {
      await Promise.all([...apis.values()].map((a) => a.close()));
      await mock.close();
    },
  };
}
