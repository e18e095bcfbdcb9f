import { setTimeout as sleep } from 'node:timers/promises';

/** What a call answered, as far as waiting out a 429 needs it. */
export interface RateLimitedAnswer {
  status: number;
  rateLimit?: { retryAfterS?: number };
}

/** How long to wait: moves the target clock (the embedded mock); absent for a real service, where the harness sleeps. */
export type Advance = (ms: number) => Promise<void>;

/**
 * Calls `call` again while it answers 429 (at most five retries), waiting out
 * each Retry-After plus a quarter second; `after` sees every answer, retried
 * or not. The harness's own reads around a load must not count as failures
 * just because the load filled the agency's buckets.
 */
export async function patiently<T extends RateLimitedAnswer>(advance: Advance | undefined, call: () => Promise<T>, after?: (r: T) => void): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const r = await call();
    after?.(r);
    if (r.status !== 429 || attempt >= 5) return r;
    const waitMs = ((r.rateLimit?.retryAfterS ?? 1) + 0.25) * 1000;
    if (advance) await advance(waitMs);
    else await sleep(waitMs);
  }
}
