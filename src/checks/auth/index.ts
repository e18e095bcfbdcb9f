import type { Check } from '../types.js';
import { judgingOrderCheck } from './judging-order.js';
import { nonceReplayCheck } from './nonce-replay.js';
import { signatureInvalidCheck } from './signature-invalid.js';
import { timestampSkewCheck } from './timestamp-skew.js';
import { unauthenticatedCheck } from './unauthenticated.js';
import { validRequestCheck } from './valid-request.js';

/** The authentication checks (SPEC §5, REF §3). */
export const authChecks: Check[] = [validRequestCheck, unauthenticatedCheck, signatureInvalidCheck, timestampSkewCheck, nonceReplayCheck, judgingOrderCheck];
