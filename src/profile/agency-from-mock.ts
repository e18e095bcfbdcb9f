import type { AgencyCredentials } from '../mock/index.js';
import type { AgencyDef } from './types.js';

/** A profile's entry for one agency of a running mock: its key id, every secret written in, and its limits. */
export function agencyFromMock(creds: AgencyCredentials): AgencyDef {
  return {
    id: creds.agency_id,
    key_id: creds.key_id,
    secret: creds.secret,
    webhook_secret: creds.webhook_secret,
    hotel_api_key: creds.hotel_api_key,
    hotel_webhook_secret: creds.hotel_webhook_secret,
    limits: { ...creds.limits },
  };
}
