import type { GradedItem } from '../_internal/facts.js';
import type { Observation } from '../observed.js';
import { gradeContract } from './grade-contract.js';
import { gradeExecutedRetry } from './grade-executed-retry.js';
import { gradeQuoteExpired } from './grade-quote-expired.js';
import { gradeBackoff, gradeRetryAfter } from './grade-rate-limit.js';
import { gradeSigning, type SigningKey } from './grade-signing.js';
import { gradeWebhooks } from './grade-webhooks.js';

/**
 * Grades an agency's client from what certification mode observed: a pure
 * function of the observation, one verdict per item of the client plan, in
 * the plan's order. Only the certified agency's requests are graded (plus
 * requests that failed to authenticate at all, for signing).
 */
export function gradeClient(observation: Observation, key: SigningKey): GradedItem[] {
  const requests = observation.requests.filter((r) => r.agencyId === observation.agencyId || r.agencyId === null);
  const mine = requests.filter((r) => r.agencyId === observation.agencyId);
  return [
    gradeSigning(requests, key),
    gradeRetryAfter(mine),
    gradeBackoff(mine),
    gradeExecutedRetry(mine, 'bad-gateway-after-booking'),
    gradeExecutedRetry(mine, 'cut-off-after-booking'),
    gradeQuoteExpired(mine),
    gradeContract(mine),
    ...gradeWebhooks({ ...observation, requests: mine }),
  ];
}
