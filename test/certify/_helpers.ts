import { MockClockDriver } from '../../src/clock/mock-clock-driver.js';
import { startReceiver, type Receiver } from '../../src/receiver/index.js';
import { resolveAgencies } from '../../src/profile/resolve-secrets.js';
import { startEmbeddedTarget } from '../../src/certify/embedded-target.js';
import { runCertification } from '../../src/certify/run-certification.js';
import type { CertificateDraft } from '../../src/certify/certificate/types.js';
import type { Profile, ResolvedAgency } from '../../src/profile/types.js';
import type { RunningMock } from '../../src/mock/index.js';

/** A certification against an embedded mock whose clock the test moves (waits are instant), with a real receiver. */
export async function certifyMock(
  options: {
    defects?: string[];
    agency?: string;
    /** A second agency of the same organisation, for CERT-09 (null: none). @defaultValue agency-delta */
    partner?: string | null;
    maxWaitS?: number;
    /** What the profile says of the quote lifetime, s, when it is to disagree with the mock (whose quotes live 3 s). */
    profileLifetimeS?: number;
    before?: (agency: ResolvedAgency, profile: Readonly<Profile>) => Promise<void>;
  } = {},
): Promise<{
  draft: CertificateDraft;
  mock: RunningMock;
  profile: Readonly<Profile>;
  secrets: string[];
  close(): Promise<void>;
}> {
  const started = await startEmbeddedTarget({ defects: options.defects ?? [] });
  const { mock } = started;
  const profile: Readonly<Profile> =
    options.profileLifetimeS === undefined
      ? started.profile
      : { ...started.profile, quotes: { ...started.profile.quotes, lifetime_s: options.profileLifetimeS } };
  const clock = new MockClockDriver(mock.clock, { advance: (ms) => mock.advance(ms) });
  let receiver: Receiver | undefined;
  try {
    receiver = await startReceiver({ now: () => clock.now() });
    const def = profile.agencies.find((a) => a.id === (options.agency ?? 'agency-alpha'))!;
    const [agency] = resolveAgencies({ agencies: [def] }, {}, { webhookSecret: true });
    await options.before?.(agency!, profile);
    const partnerDef = options.partner === null ? undefined : profile.agencies.find((a) => a.id === (options.partner ?? 'agency-delta'));
    const partner = partnerDef ? resolveAgencies({ agencies: [partnerDef] }, {}, {})[0] : undefined;
    const draft = await runCertification({
      profile,
      agency: agency!,
      clock,
      receiver,
      ...(options.maxWaitS !== undefined ? { maxWaitS: options.maxWaitS } : {}),
      ...(partner ? { partner } : {}),
    });
    const creds = mock.agencies.find((a) => a.agency_id === def.id)!;
    const secrets = [creds.secret, creds.webhook_secret, creds.hotel_api_key, creds.hotel_webhook_secret];
    const r = receiver;
    return {
      draft,
      mock,
      profile,
      secrets,
      close: async () => {
        await r.close();
        await mock.close();
      },
    };
  } catch (err) {
    await receiver?.close();
    await mock.close();
    throw err;
  }
}
