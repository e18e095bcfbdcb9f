import { agencyApis } from '../../src/api/agency-apis.js';
import { MemoryRecorder } from '../../src/client/exchange.js';
import { checkContext, type RunScope } from '../../src/checks/check-context.js';
import { createRunCache } from '../../src/checks/run-cache.js';
import type { CheckContext } from '../../src/checks/types.js';
import { createMock, type RunningMock } from '../../src/mock/index.js';
import type { MockOptions } from '../../src/mock/options.js';
import { DEFAULT_PROFILE } from '../../src/profile/defaults.js';
import type { Profile } from '../../src/profile/types.js';
import { startReceiver, type Receiver } from '../../src/receiver/index.js';
import type { RateLimitPoint, WebhookPoint } from '../../src/results/model.js';
import type { ClockDriver } from '../../src/clock/clock-driver.js';
import { resolvedAgency } from '../helpers/mock-agencies.js';
import { MockClockDriver } from '../../src/clock/mock-clock-driver.js';
import { agencyFromMock } from '../../src/profile/agency-from-mock.js';

/** A mock, a receiver on its clock, and a way to build fresh check contexts against them. */
export interface RlWhRig {
  mock: RunningMock;
  receiver: Receiver;
  profile: Profile;
  /** A fresh run (new recorder, timelines and run cache): nothing is shared with an earlier one. */
  run(opts?: { limitsInProfile?: boolean }): RlWhRun;
  close(): Promise<void>;
}

/** One run: the context of each check in it, plus what the run collected. */
export interface RlWhRun {
  /** The context of check `checkId` in this run (checks of one run share webhook scenario runs). */
  context(checkId: string): CheckContext;
  recorder: MemoryRecorder;
  rateLimitPoints: RateLimitPoint[];
  webhookPoints: WebhookPoint[];
}

let uniqueCounter = 0;

/** Starts a mock (with `options`) and a receiver whose arrival times read the mock's clock. */
export async function startRig(options: MockOptions = {}): Promise<RlWhRig> {
  const mock = await createMock(options);
  const receiver = await startReceiver({ now: () => mock.clock.now() });
  const profile: Profile = {
    ...DEFAULT_PROFILE,
    base_url: mock.baseUrl,
    hotel_base_url: mock.hotelBaseUrl,
    clock: { control: 'none' },
    agencies: mock.agencies.slice(0, 2).map((a) => agencyFromMock(a, { limits: false })),
  };
  // Waits move the mock's clock and return once the webhook attempts that fell due are made.
  const clock: ClockDriver = new MockClockDriver(mock.clock, { advance: (ms) => mock.advance(ms) });
  const closers: (() => Promise<void>)[] = [];

  const run = (opts: { limitsInProfile?: boolean } = {}): RlWhRun => {
    const recorder = new MemoryRecorder();
    const rateLimitPoints: RateLimitPoint[] = [];
    const webhookPoints: WebhookPoint[] = [];
    const agencies = mock.agencies.slice(0, 2).map((a) => resolvedAgency(a, { limits: opts.limitsInProfile ?? false }));
    const apis = agencyApis({ profile, agencies, recorder, now: () => clock.now(), onRateLimit: (p) => rateLimitPoints.push(p) });
    closers.push(apis.close);
    const scope: RunScope = {
      runCache: createRunCache(),
      profile,
      agencies,
      api: apis.api,
      hotel: apis.hotel,
      clock,
      receiver,
      recorder,
      exchanges: () => recorder.exchanges,
      timeline: { rateLimit: (p) => rateLimitPoints.push(p), webhook: (p) => webhookPoints.push(p) },
      log: () => undefined,
      seed: 1,
      unique: (prefix) => `${prefix}-${process.pid}-${++uniqueCounter}-${Date.now().toString(36)}`,
    };
    return { context: (checkId) => checkContext(scope, checkId), recorder, rateLimitPoints, webhookPoints };
  };

  return {
    mock,
    receiver,
    profile,
    run,
    async close() {
      for (const c of closers) await c();
      await receiver.close();
      await mock.close();
    },
  };
}
