import type { CertificationPlan } from './plan-types.js';
import { agenciesApartCheck } from './checks/agencies-apart.js';
import { accountScopeCheck } from './checks/account-scope.js';
import { bookCancelCheck } from './checks/book-cancel.js';
import { closedProductCheck } from './checks/closed-product.js';
import { idempotentRetryCheck } from './checks/idempotent-retry.js';
import { quoteExpiryCheck } from './checks/quote-expiry.js';
import { rateLimitRetryAfterCheck } from './checks/rate-limit-retry-after.js';
import { signingCheck } from './checks/signing.js';
import { webhookDeliveryCheck } from './checks/webhook-delivery.js';

/**
 * The agency certification plan, version 1.1.0 (1.0.0 without CERT-09).
 * Fixed: a change of a check, its order or whether it is required is a new
 * version. The rate-limit check comes last on purpose: its Retry-After runs
 * from the plan's first write, so the waits of the tests before it overlap
 * with it; CERT-09 runs only with a second agency of the same organisation.
 */
export const PLAN_V1: CertificationPlan = Object.freeze({
  id: 'svc-agency-cert',
  version: '1.1.0',
  title: 'Agency integration certification',
  checks: Object.freeze([
    signingCheck,
    accountScopeCheck,
    closedProductCheck,
    bookCancelCheck,
    idempotentRetryCheck,
    webhookDeliveryCheck,
    quoteExpiryCheck,
    agenciesApartCheck,
    rateLimitRetryAfterCheck,
  ]),
});
