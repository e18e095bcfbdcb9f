import type { AgencyCredentials } from '../../mock/index.js';

/** The environment variables a `--run` command is given, and what each holds. */
export const CLIENT_ENV_VARS = Object.freeze({
  SVC_BASE_URL: 'service base URL, ending in /v1',
  SVC_HOTEL_BASE_URL: 'partner hotel API base URL',
  SVC_AGENCY_ID: 'the agency being certified',
  SVC_KEY_ID: 'key id for the Authorization header (Credential=…)',
  SVC_SECRET: 'SVC-HMAC-SHA256 signing secret',
  SVC_WEBHOOK_SECRET: 'whsec_ secret that signs the service webhooks the client receives',
  SVC_HOTEL_API_KEY: 'X-API-Key of the hotel API',
  SVC_HOTEL_WEBHOOK_SECRET: 'secret that signs hotel API webhooks',
  SVC_CERTIFY_RUN_ID: 'id of this certification run (handy in client references)',
});

/** The values of {@link CLIENT_ENV_VARS} for one run. */
export function clientEnv(input: {
  baseUrl: string;
  hotelBaseUrl: string;
  agency: AgencyCredentials;
  runId: string;
}): Record<keyof typeof CLIENT_ENV_VARS, string> {
  return {
    SVC_BASE_URL: input.baseUrl,
    SVC_HOTEL_BASE_URL: input.hotelBaseUrl,
    SVC_AGENCY_ID: input.agency.agency_id,
    SVC_KEY_ID: input.agency.key_id,
    SVC_SECRET: input.agency.secret,
    SVC_WEBHOOK_SECRET: input.agency.webhook_secret,
    SVC_HOTEL_API_KEY: input.agency.hotel_api_key,
    SVC_HOTEL_WEBHOOK_SECRET: input.agency.hotel_webhook_secret,
    SVC_CERTIFY_RUN_ID: input.runId,
  };
}
