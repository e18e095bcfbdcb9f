import type { Area } from '../../results/model.js';
import type { PlanRef } from '../certificate/types.js';

/** The client certification plan: what `certify-client` grades, fixed per version. */
export const CLIENT_PLAN: Readonly<PlanRef> = Object.freeze({
  id: 'svc-client-cert',
  version: '1.0.0',
  title: 'Agency client certification',
});

/** One graded item of the client plan. */
export interface ClientItem {
  id: string;
  /** Short name, used in evidence file names. */
  slug: string;
  title: string;
  area: Area;
  clause: string;
}

/** The graded items, in report order; every one is required for the certificate. */
export const CLIENT_ITEMS = Object.freeze({
  signing: {
    slug: 'signing',
    id: 'CC-01',
    title: 'every request correctly signed, a fresh nonce each time, timestamp within tolerance',
    area: 'auth',
    clause: 'SPEC §5 SVC-HMAC-SHA256',
  },
  retryAfter: {
    slug: 'retry-after',
    id: 'CC-02',
    title: 'a booking answered 429: waits Retry-After, retries with the same Idempotency-Key and body',
    area: 'ratelimit',
    clause: 'SPEC §8.5 Retry-After; SPEC §4 idempotency',
  },
  backoff: {
    slug: 'backoff',
    id: 'CC-03',
    title: 'backs off when limited: no request while a Retry-After is running',
    area: 'ratelimit',
    clause: 'SPEC §8 limits',
  },
  badGateway: {
    slug: 'retry-after-502',
    id: 'CC-04',
    title: 'a booking answered 502 after it executed: retried with the same key, never booked twice',
    area: 'idempotency',
    clause: 'SPEC §4 idempotency rules 1-3',
  },
  cutOff: {
    slug: 'retry-after-cut-off',
    id: 'CC-05',
    title: 'a booking cut off mid-response after it executed: retried with the same key, never booked twice',
    area: 'idempotency',
    clause: 'SPEC §4 idempotency rules 1-3',
  },
  quoteExpired: {
    slug: 'quote-expired',
    id: 'CC-06',
    title: 'an expired quote: searches again instead of retrying the dead token',
    area: 'quotes',
    clause: 'SPEC §1 quote flow',
  },
  contract: {
    slug: 'contract-scope',
    id: 'CC-07',
    title: 'no request to a product that GET /v1/account says is closed',
    area: 'contract',
    clause: 'SPEC §1 contract scope, GET /v1/account',
  },
  webhookDuplicate: {
    slug: 'webhook-duplicate',
    id: 'CC-08',
    title: 'a duplicate webhook delivery (same X-SVC-Webhook-Id) is acknowledged 2xx',
    area: 'webhooks',
    clause: 'SPEC §6 deduplication',
  },
  webhookForged: {
    slug: 'webhook-forged',
    id: 'CC-09',
    title: 'a webhook delivery with a forged signature is refused',
    area: 'webhooks',
    clause: 'SPEC §6 signed events',
  },
  webhookStale: {
    slug: 'webhook-stale',
    id: 'CC-10',
    title: 'a webhook delivery with a stale timestamp (beyond 300 s) is refused',
    area: 'webhooks',
    clause: 'SPEC §6 signed events',
  },
} satisfies Record<string, ClientItem>);
