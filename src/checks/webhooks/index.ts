import type { Check } from '../types.js';
import { backoffCheck } from './backoff.js';
import { cancellationEventCheck } from './cancellation-event.js';
import { deliveredOnceCheck } from './delivered-once.js';
import { hotelSignatureCheck, hotelSingleAttemptCheck } from './hotel-events.js';
import { maxAttemptsCheck } from './max-attempts.js';
import { replayNoEventCheck } from './replay-no-event.js';
import { retryStopsCheck } from './retry-stops.js';
import { serviceSignaturesCheck } from './signatures.js';
import { stableIdCheck } from './stable-id.js';

/** The webhook checks (SPEC §6), service then hotel, in id order. */
export const webhooksChecks: Check[] = [
  deliveredOnceCheck,
  serviceSignaturesCheck,
  maxAttemptsCheck,
  stableIdCheck,
  backoffCheck,
  retryStopsCheck,
  replayNoEventCheck,
  cancellationEventCheck,
  hotelSignatureCheck,
  hotelSingleAttemptCheck,
];

export { judgeDeliveredOnce } from './delivered-once.js';
export { judgeServiceSignatures } from './signatures.js';
export { judgeMaxAttempts } from './max-attempts.js';
export { judgeStableId } from './stable-id.js';
export { judgeBackoff } from './backoff.js';
export { judgeRetryStops } from './retry-stops.js';
export { judgeReplayNoEvent } from './replay-no-event.js';
export { judgeCancellationEvent } from './cancellation-event.js';
export { judgeHotelSignatures, judgeHotelAttempts } from './hotel-events.js';
