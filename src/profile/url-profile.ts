import { HarnessError } from '../errors/harness-error.js';

/** True when `--target` names the service by its URL rather than a profile file. */
export function isTargetUrl(target: string): boolean {
  return /^https?:\/\//i.test(target.trim());
}

/**
 * The environment variables a `--target URL` reads: the same names
 * `certify-client` gives an agency's client, so one set serves both.
 */
const URL_TARGET_ENV = {
  /** The agency's key id (not a secret). Required. */
  keyId: 'SVC_KEY_ID',
  /** The agency's signing secret. Required by every check that signs. */
  secret: 'SVC_SECRET',
  /** The agency's webhook secret, for the webhook checks. */
  webhookSecret: 'SVC_WEBHOOK_SECRET',
  /** The agency's id, as reports name it. @defaultValue `agency` */
  agencyId: 'SVC_AGENCY_ID',
  /** The partner hotel API's base URL; without it the hotel checks are skipped. */
  hotelBaseUrl: 'SVC_HOTEL_BASE_URL',
  /** The agency's hotel API key and hotel webhook secret, with `SVC_HOTEL_BASE_URL`. */
  hotelApiKey: 'SVC_HOTEL_API_KEY',
  hotelWebhookSecret: 'SVC_HOTEL_WEBHOOK_SECRET',
} as const;

/** The parsed URL of a `--target`; one that does not parse (a port beyond 65535, a bad host) is a usage error naming why. */
function urlOf(base: string): URL {
  const port = /^https?:\/\/[^/?#]*:(\d+)(?:[/?#]|$)/i.exec(base)?.[1];
  if (port !== undefined && Number(port) > 65535) throw new HarnessError('E_USAGE', `--target ${base}: port ${port} is beyond 65535`);
  try {
    return new URL(base);
  } catch (err) {
    throw new HarnessError('E_USAGE', `--target ${base} is not a valid URL`, { cause: err });
  }
}

/**
 * The profile a service URL stands for, Schemathesis style: the reference
 * defaults at that address, no clock control (a real service: waits are
 * real), and one agency whose key id comes from `SVC_KEY_ID` and whose
 * secrets are read from `SVC_SECRET` and the others when a check needs
 * them. Everything else a deployment changes needs a profile file.
 */
export function profileFromUrl(url: string, env: NodeJS.ProcessEnv = process.env): Record<string, unknown> {
  const base = url.trim().replace(/\/+$/, '');
  const parsed = urlOf(base);
  const keyId = env[URL_TARGET_ENV.keyId]?.trim();
  if (!keyId) {
    throw new HarnessError(
      'E_USAGE',
      `--target ${base}: a URL target signs as one agency: set ${URL_TARGET_ENV.keyId} (its key id) and ${URL_TARGET_ENV.secret} (its signing secret) in the environment, or pass a profile file (YAML or JSON, e.g. a copy of profiles/staging.yaml) for anything more`,
    );
  }
  const hotel = env[URL_TARGET_ENV.hotelBaseUrl]?.trim();
  return {
    name: parsed.host,
    base_url: base,
    hotel_base_url: hotel ? hotel.replace(/\/+$/, '') : null,
    clock: { control: 'none' },
    agencies: [
      {
        id: env[URL_TARGET_ENV.agencyId]?.trim() || 'agency',
        key_id: keyId,
        secret_env: URL_TARGET_ENV.secret,
        webhook_secret_env: URL_TARGET_ENV.webhookSecret,
        ...(hotel ? { hotel_api_key_env: URL_TARGET_ENV.hotelApiKey, hotel_webhook_secret_env: URL_TARGET_ENV.hotelWebhookSecret } : {}),
      },
    ],
    // Nothing says how to make this service's supplier refuse a booking: those checks are skipped.
    failure_trigger: null,
  };
}
