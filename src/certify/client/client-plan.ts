import type { PlanRef } from '../certificate/types.js';
import type { ClientCheck } from './client-check.js';
import { contractCheck } from './checks/contract.js';
import { badGatewayCheck, cutOffCheck } from './checks/executed-retry.js';
import { quoteExpiredCheck } from './checks/quote-expired.js';
import { backoffCheck, retryAfterCheck } from './checks/rate-limit.js';
import { signingCheck } from './checks/signing.js';
import { webhookDuplicateCheck, webhookForgedCheck, webhookStaleCheck } from './checks/webhooks.js';

/** The client certification plan: what `certify-client` grades, fixed per version. */
export const CLIENT_PLAN: Readonly<PlanRef> = Object.freeze({
  id: 'svc-client-cert',
  version: '1.0.0',
  title: 'Agency client certification',
});

/** The graded items of the client plan, in report order; every one is required for the certificate. */
export const CLIENT_CHECKS: readonly ClientCheck[] = Object.freeze([
  signingCheck,
  retryAfterCheck,
  backoffCheck,
  badGatewayCheck,
  cutOffCheck,
  quoteExpiredCheck,
  contractCheck,
  webhookDuplicateCheck,
  webhookForgedCheck,
  webhookStaleCheck,
]);
