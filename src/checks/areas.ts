/**
 * Every area's checks: one line per area (`src/checks/<area>/index.ts`
 * exports a `Check[]`). `index.ts` gathers whatever is exported here.
 */
export { authChecks } from './auth/index.js';
export { contractChecks } from './contract/index.js';
export { errorsChecks } from './errors/index.js';
export { ratelimitChecks } from './ratelimit/index.js';
export { idempotencyChecks } from './idempotency/index.js';
export { quotesChecks } from './quotes/index.js';
export { walletChecks } from './wallet/index.js';
export { webhooksChecks } from './webhooks/index.js';
export { hotelChecks } from './hotel/index.js';
export { schemaChecks } from './schema/index.js';
