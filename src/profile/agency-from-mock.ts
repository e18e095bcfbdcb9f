import type { AgencyDef } from './types.js';

/**
 * What the mock hands out for one agency (its `--json` line, as `AgencyCredentials` of `src/mock/`): the credentials,
 * and the limits when they are known. Written out here so the profile knows the line, not the mock.
 */
interface MockAgencyCredentials {
  agency_id: string;
  key_id: string;
  secret: string;
  webhook_secret: string;
  hotel_api_key: string;
  hotel_webhook_secret: string;
  limits?: { read: number; write: number } | undefined;
}

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
