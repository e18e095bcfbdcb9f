import type { Check } from '../types.js';
import { bookingByOtherCheck } from './booking-by-other.js';
import { hotelBookingByOtherCheck } from './hotel-booking-by-other.js';
import { hotelRateByOtherCheck } from './hotel-rate-by-other.js';
import { idempotencyKeyByOtherCheck } from './idempotency-key-by-other.js';
import { quoteByOtherCheck } from './quote-by-other.js';
import { statementOfOtherCheck } from './statement-of-other.js';
import { webhookToOtherCheck } from './webhook-to-other.js';

/** The isolation checks: what one agency addresses by id, token or key, tried by another (SPEC §5; REF §4, §5, §7, §9, §10). */
export const isolationChecks: Check[] = [
  bookingByOtherCheck,
  quoteByOtherCheck,
  hotelBookingByOtherCheck,
  hotelRateByOtherCheck,
  idempotencyKeyByOtherCheck,
  webhookToOtherCheck,
  statementOfOtherCheck,
];
