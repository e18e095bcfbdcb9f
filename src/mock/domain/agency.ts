import type { FixtureAgency, Product, RateLimits } from '../fixture/fixture-types.js';
import { HmacKey } from './hmac-key.js';

/** An agency as the running mock holds it: fixture data plus its mutable webhook endpoint. */
export interface Agency {
  readonly id: string;
  readonly name: string;
  readonly keyId: string;
  readonly secret: string;
  /** The secret as an HMAC key, prepared once (its padded blocks), for the request signatures. */
  readonly signingKey: HmacKey;
  readonly webhookSecret: string;
  readonly products: ReadonlySet<Product>;
  readonly currency: string;
  readonly openingBalance: number;
  readonly limits: RateLimits;
  /** Webhook endpoint; set by `PUT /v1/webhook-endpoint`, reset to the fixture's. */
  webhookUrl: string | null;
}

/** Builds the running agency from its fixture entry. */
export function agencyFromFixture(f: FixtureAgency): Agency {
  return {
    id: f.agency_id,
    name: f.name,
    keyId: f.key_id,
    secret: f.secret,
    signingKey: new HmacKey(Buffer.from(f.secret, 'utf8')),
    webhookSecret: f.webhook_secret,
    products: new Set(f.products),
    currency: f.currency,
    openingBalance: f.wallet,
    limits: { ...f.limits },
    webhookUrl: f.webhook_url ?? null,
  };
}
