import type { CertificationPlan } from './plan-types.js';
import { accountScopeTest } from './tests/account-scope.js';
import { bookCancelTest } from './tests/book-cancel.js';
import { closedProductTest } from './tests/closed-product.js';
import { idempotentRetryTest } from './tests/idempotent-retry.js';
import { quoteExpiryTest } from './tests/quote-expiry.js';
import { rateLimitRetryAfterTest } from './tests/rate-limit-retry-after.js';
import { signingTest } from './tests/signing.js';
import { webhookDeliveryTest } from './tests/webhook-delivery.js';

/**
 * The agency certification plan, version 1.0.0. Fixed: a change of a test,
 * its order or whether it is required is a new version. The rate-limit test
 * comes last on purpose: its Retry-After runs from the plan's first write, so
 * the waits of the tests before it overlap with it.
 */
export const PLAN_V1: CertificationPlan = Object.freeze({
  id: 'svc-agency-cert',
  version: '1.0.0',
  title: 'Agency integration certification',
  tests: Object.freeze([
    signingTest,
    accountScopeTest,
    closedProductTest,
    bookCancelTest,
    idempotentRetryTest,
    webhookDeliveryTest,
    quoteExpiryTest,
    rateLimitRetryAfterTest,
  ]),
});
