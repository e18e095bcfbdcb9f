import type { AgencyCredentials } from '../mock/index.js';
import type { AgencyDef } from './types.js';

/** What the mock hands out for one agency: the credentials of its `--json` line, and the limits when they are known. */
type MockAgencyCredentials = Pick<AgencyCredentials, 'agency_id' | 'key_id' | 'secret' | 'webhook_secret' | 'hotel_api_key' | 'hotel_webhook_secret'> &
  Partial<Pick<AgencyCredentials, 'limits'>>;

/**
 * A profile's entry for one agency of a running mock: its key id, every
 * secret written in, and its limits when given and not turned off with
 * `limits: false` (the harness then reads them from the account answer,
 * as it would from a real service).
 */
export function agencyFromMock(creds: MockAgencyCredentials, opts: { limits?: boolean } = {}): AgencyDef {
  return {
    id: creds.agency_id,
    key_id: creds.key_id,
    secret: creds.secret,
    webhook_secret: creds.webhook_secret,
    hotel_api_key: creds.hotel_api_key,
    hotel_webhook_secret: creds.hotel_webhook_secret,
    ...(creds.limits === undefined || opts.limits === false ? {} : { limits: { ...creds.limits } }),
  };
}
