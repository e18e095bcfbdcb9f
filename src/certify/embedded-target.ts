import { agencyFromMock } from '../profile/agency-from-mock.js';
import { type Profile, resolveProfile } from '../profile/index.js';
import { createMock, type MockOptions, type RunningMock } from '../mock/index.js';

/**
 * Mock options that keep a certification against the embedded mock short in
 * real time: quotes live 3 s, so the expiry test waits a few seconds. The
 * admin API stays off: a certification uses only what an agency can do.
 */
const EMBEDDED_CERTIFY_MOCK: Readonly<MockOptions> = Object.freeze({
  port: 0,
  hotelPort: 0,
  admin: false,
  quoteLifetimeS: 3,
  webhookBaseMs: 1_000,
});

/** The agency certified against the embedded mock unless `--agency` names another. */
export const EMBEDDED_DEFAULT_AGENCY = 'agency-alpha';

/** A profile of the reference API pointed at a running mock, with the mock's agencies (secrets included) and its quote lifetime. */
function profileForMock(mock: RunningMock, options: { quoteLifetimeS?: number; webhookBaseMs?: number; name?: string } = {}): Readonly<Profile> {
  return resolveProfile(
    {
      name: options.name ?? 'embedded mock',
      base_url: mock.baseUrl,
      hotel_base_url: mock.hotelBaseUrl,
      clock: { control: 'none' },
      agencies: mock.agencies.map((a) => agencyFromMock(a)),
      ...(options.quoteLifetimeS !== undefined ? { quotes: { lifetime_s: options.quoteLifetimeS } } : {}),
      ...(options.webhookBaseMs !== undefined ? { webhooks: { base_ms: options.webhookBaseMs } } : {}),
    },
    'embedded mock profile',
  );
}

/** Starts the embedded mock for a certification and returns it with its profile. */
export async function startEmbeddedTarget(overrides: MockOptions = {}): Promise<{ mock: RunningMock; profile: Readonly<Profile> }> {
  const options = { ...EMBEDDED_CERTIFY_MOCK, ...overrides, admin: false };
  const mock = await createMock(options);
  try {
    return { mock, profile: profileForMock(mock, { quoteLifetimeS: options.quoteLifetimeS!, webhookBaseMs: options.webhookBaseMs! }) };
  } catch (err) {
    await mock.close();
    throw err;
  }
}
