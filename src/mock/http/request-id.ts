import { idSource } from '../domain/fast-id.js';

/**
 * A fresh request id for `X-Request-Id` and `error.request_id`: `req_` and a
 * unique suffix. Ids need only be unique, so a counter behind a random
 * per-process prefix: no call into the CSPRNG on the hot path.
 */
export const newRequestId: () => string = idSource('req_');
