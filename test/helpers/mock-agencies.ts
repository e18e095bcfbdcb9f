import type { AgencyCredentials } from '../../src/mock/index.js';
import type { ResolvedAgency } from '../../src/profile/types.js';

/** A mock agency as a profile resolves it: every secret, and its limits unless `limits` is false. */
export function resolvedAgency(creds: AgencyCredentials, opts: { limits?: boolean } = {}): ResolvedAgency {
  return {
    id: creds.agency_id,
    keyId: creds.key_id,
    secret: creds.secret,
    webhookSecret: creds.webhook_secret,
    hotelApiKey: creds.hotel_api_key,
    hotelWebhookSecret: creds.hotel_webhook_secret,
    ...(opts.limits === false ? {} : { limits: { ...creds.limits } }),
  };
}
