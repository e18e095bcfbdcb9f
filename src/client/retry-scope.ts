import { AsyncLocalStorage } from 'node:async_hooks';
import type { RetryPolicy } from './retry-after-interceptor.js';

const scope = new AsyncLocalStorage<RetryPolicy>();

/**
 * Runs `fn` with every request it sends retried after a refusal by `policy`.
 * A scope rather than a call option, so that a step such as "book, waiting
 * out a 429" wraps the call as written (`withRetryPolicy(p, () => api.book(…))`),
 * every page of a paged read included.
 */
export function withRetryPolicy<T>(policy: RetryPolicy, fn: () => Promise<T>): Promise<T> {
  return scope.run(policy, fn);
}

/** The retry policy of the running scope, if any. */
export function currentRetryPolicy(): RetryPolicy | undefined {
  return scope.getStore();
}
