import type { Check } from '../types.js';
import { hotelKeyCheck } from './api-key.js';
import { hotelLifecycleCheck } from './booking-lifecycle.js';
import { hotelEnvelopeCheck, hotelNotFoundCheck } from './not-found.js';

/** The hotel API checks (SPEC §5, REF §10); hotel webhooks belong to the webhook checks. */
export const hotelChecks: Check[] = [hotelKeyCheck, hotelLifecycleCheck, hotelNotFoundCheck, hotelEnvelopeCheck];
