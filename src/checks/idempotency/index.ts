import type { Check } from '../types.js';
import { cancelReplayCheck } from './cancel-replay.js';
import { concurrentSameKeyCheck } from './concurrent-same-key.js';
import { keyRequiredCheck } from './key-required.js';
import { keyReusedCheck } from './key-reused.js';
import { sameKeyReplayCheck } from './same-key-replay.js';

/** The idempotency checks (SPEC §4, REF §7). */
export const idempotencyChecks: Check[] = [keyRequiredCheck, sameKeyReplayCheck, keyReusedCheck, concurrentSameKeyCheck, cancelReplayCheck];
