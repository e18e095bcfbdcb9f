import { createHotelApi, type ClosableHotelApi } from '../../src/api/hotel-api.js';
import { createTargetApi, type ClosableTargetApi } from '../../src/api/target-api.js';
import { MemoryRecorder } from '../../src/client/exchange.js';
import type { CheckContext } from '../../src/checks/types.js';
import { createMock, type RunningMock } from '../../src/mock/index.js';
import { DEFAULT_PROFILE } from '../../src/profile/defaults.js';
import type { Profile, ResolvedAgency } from '../../src/profile/types.js';
import { startReceiver, type Receiver } from '../../src/receiver/index.js';
import type { RateLimitPoint, WebhookPoint } from '../../src/report/model.js';
import type { ClockDriver } from '../../src/runner/clock-driver.js';

/** A mock, a receiver on its clock, and a way to build fresh check contexts against them. */
export interface RlWhRig {
  mock: RunningMock;
  receiver: Receiver;
  profile: Profile;
  /** A fresh context (new recorder, new timelines): nothing is shared with an earlier one. */
  context(opts?: { limitsInProfile?: boolean }): RlWhContext;
  close(): Promise<void>;
}

/** A check context plus what it collected. */
export interface RlWhContext extends CheckContext {
  recorder: MemoryRecorder;
  rateLimitPoints: RateLimitPoint[];
  webhookPoints: WebhookPoint[];
}

let uniqueCounter = 0;

/** Starts a mock and a receiver whose arrival times read the mock's clock. */
export async function startRig(): Promise<RlWhRig> {
  const mock = await createMock();
  const receiver = await startReceiver({ now: () => mock.clock.now() });
  const profile: Profile = {
    ...DEFAULT_PROFILE,
    base_url: mock.baseUrl,
    hotel_base_url: mock.hotelBaseUrl,
    clock: { control: 'none' },
    agencies: mock.agencies.slice(0, 2).map((a) => ({
      id: a.agency_id,
      key_id: a.key_id,
      secret: a.secret,
      webhook_secret: a.webhook_secret,
      hotel_api_key: a.hotel_api_key,
      hotel_webhook_secret: a.hotel_webhook_secret,
    })),
  };
  // Waits move the mock's clock and return once the webhook attempts that fell due are made.
  const clock: ClockDriver = { kind: 'mock', now: () => mock.clock.now(), wait: (ms) => mock.advance(ms) };
  const closers: (() => Promise<void>)[] = [];

  const context = (opts: { limitsInProfile?: boolean } = {}): RlWhContext => {
    const recorder = new MemoryRecorder();
    const rateLimitPoints: RateLimitPoint[] = [];
    const webhookPoints: WebhookPoint[] = [];
    const agencies: ResolvedAgency[] = mock.agencies.slice(0, 2).map((a) => ({
      id: a.agency_id,
      keyId: a.key_id,
      secret: a.secret,
      webhookSecret: a.webhook_secret,
      hotelApiKey: a.hotel_api_key,
      hotelWebhookSecret: a.hotel_webhook_secret,
      ...(opts.limitsInProfile ? { limits: { ...a.limits } } : {}),
    }));
    const apis = new Map<number, ClosableTargetApi>();
    const hotels = new Map<number, ClosableHotelApi>();
    closers.push(async () => {
      await Promise.all([...apis.values(), ...hotels.values()].map((a) => a.close()));
    });
    return {
      profile,
      agencies,
      api(index = 0) {
        let api = apis.get(index);
        if (!api) {
          const agency = agencies[index];
          if (!agency) throw new Error(`no agency ${index}`);
          api = createTargetApi({ profile, agency, recorder, now: clock.now, onRateLimit: (p) => rateLimitPoints.push(p) });
          apis.set(index, api);
        }
        return api;
      },
      hotel(index = 0) {
        let hotel = hotels.get(index);
        if (!hotel) {
          const agency = agencies[index];
          if (!agency) return undefined;
          hotel = createHotelApi({ profile, agency, recorder, now: clock.now });
          hotels.set(index, hotel);
        }
        return hotel;
      },
      clock,
      receiver,
      recorder,
      exchanges: () => recorder.exchanges,
      timeline: { rateLimit: (p) => rateLimitPoints.push(p), webhook: (p) => webhookPoints.push(p) },
      log: () => undefined,
      seed: 1,
      unique: (prefix) => `${prefix}-${process.pid}-${++uniqueCounter}-${Date.now().toString(36)}`,
      rateLimitPoints,
      webhookPoints,
    };
  };

  return {
    mock,
    receiver,
    profile,
    context,
    async close() {
      for (const c of closers) await c();
      await receiver.close();
      await mock.close();
    },
  };
}
