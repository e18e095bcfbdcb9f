import type { Area } from '../results/model.js';
import { authChecks } from './auth/index.js';
import { contractChecks } from './contract/index.js';
import { errorsChecks } from './errors/index.js';
import { hotelChecks } from './hotel/index.js';
import { idempotencyChecks } from './idempotency/index.js';
import { isolationChecks } from './isolation/index.js';
import { quotesChecks } from './quotes/index.js';
import { ratelimitChecks } from './ratelimit/index.js';
import { schemaChecks } from './schema/index.js';
import type { Check } from './types.js';
import { walletChecks } from './wallet/index.js';
import { webhooksChecks } from './webhooks/index.js';

/**
 * Every area with its checks, in the order of the specification (runs and
 * reports follow it): one line per area, `src/checks/<area>/index.ts`
 * exporting its `Check[]`, in the order of `AREAS` (`results/model.ts`, the
 * one order of runs and reports, which `test/checks/areas.test.ts` holds this
 * list to). The list of all checks is derived from it.
 */
export const AREA_CHECKS: ReadonlyArray<readonly [Area, readonly Check[]]> = [
  ['auth', authChecks],
  ['contract', contractChecks],
  ['errors', errorsChecks],
  ['ratelimit', ratelimitChecks],
  ['idempotency', idempotencyChecks],
  ['quotes', quotesChecks],
  ['wallet', walletChecks],
  ['webhooks', webhooksChecks],
  ['hotel', hotelChecks],
  ['isolation', isolationChecks],
  ['schema', schemaChecks],
];
