import type { Duplex } from 'node:stream';
import type { Dispatcher } from 'undici';
import { parseRetryAfter } from './rate-limit.js';

/**
 * When and how long to wait before sending a refused request again. A request
 * without one is never retried: checks that measure refusals must see them.
 */
export interface RetryPolicy {
  /** Attempts in all, the first included (1 never retries). */
  maxAttempts: number;
  /** Longest single wait, ms, whatever Retry-After says. */
  maxWaitMs: number;
  /**
   * Most ms waited over all the attempts of one request: a wait that would
   * pass it is not made, and the refusal is the answer (a Retry-After beyond
   * what the caller can wait is the target's to answer for, not a wait).
   * @defaultValue no bound but `maxWaitMs` per wait
   */
  budgetMs?: number;
  /** Waits on the target's clock: a driven mock's clock moves, a real service is waited for. */
  wait: (ms: number) => Promise<void>;
  /** Wait when the response has no readable Retry-After, ms. */
  fallbackWaitMs: number;
  /** Statuses that mean "refused, nothing done", so that sending again is safe. @defaultValue `[429]` */
  statuses?: readonly number[];
  /** Lower-case name of the Retry-After header (`profile.headers.retry_after`). @defaultValue `retry-after` */
  retryAfterHeader?: string;
  /** Added to every wait, ms, so that the window has surely moved on. @defaultValue 0 */
  marginMs?: number;
  /** Target clock, ms since epoch, for a Retry-After given as an HTTP-date. @defaultValue `Date.now` */
  now?: () => number;
  /** Told before each wait. */
  onRetry?: (retry: { attempt: number; status: number; waitMs: number }) => void;
}

/** Dispatch options the retry interceptor reads besides undici's own. */
export interface RetryDispatchOptions {
  /** Retries this request when refused; absent, the refusal is the answer. */
  retry?: RetryPolicy | undefined;
}

/** Response headers as undici hands them to a handler. */
type ResponseHeaders = Record<string, string | string[] | undefined>;

/** How long to wait before the next attempt, or `undefined` when the response is the answer; `waitedMs` is what the earlier attempts waited. */
function waitBeforeRetry(policy: RetryPolicy, attempt: number, status: number, headers: ResponseHeaders, waitedMs: number): number | undefined {
  if (attempt >= policy.maxAttempts || !(policy.statuses ?? [429]).includes(status)) return undefined;
  const raw = headers[policy.retryAfterHeader ?? 'retry-after'];
  const seconds = parseRetryAfter(Array.isArray(raw) ? raw[0] : raw, (policy.now ?? Date.now)());
  const ms = Math.max(0, (seconds === undefined ? policy.fallbackWaitMs : seconds * 1000) + (policy.marginMs ?? 0));
  if (policy.budgetMs !== undefined && waitedMs + ms > policy.budgetMs) return undefined;
  return Math.min(ms, policy.maxWaitMs);
}

/**
 * One request across its attempts: a refused response is read to its end
 * (so that the interceptors inside, recording among them, see a whole
 * exchange) and kept from the caller, then the request is dispatched again
 * after the wait; any other response, or the last refusal, goes through.
 */
class RetryAfterHandler implements Dispatcher.DispatchHandler {
  private attempt = 1;
  private waitedMs = 0;
  private refused: { status: number; waitMs: number } | undefined;

  constructor(
    private readonly dispatch: Dispatcher.Dispatch,
    private readonly opts: Dispatcher.DispatchOptions,
    private readonly policy: RetryPolicy,
    private readonly next: Dispatcher.DispatchHandler,
  ) {}

  onRequestStart(controller: Dispatcher.DispatchController, context: unknown): void {
    // Each attempt has its own controller; handing the new one on keeps abort and back-pressure working.
    this.next.onRequestStart?.(controller, context);
  }

  onRequestUpgrade(controller: Dispatcher.DispatchController, statusCode: number, headers: ResponseHeaders, socket: Duplex): void {
    this.next.onRequestUpgrade?.(controller, statusCode, headers, socket);
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: ResponseHeaders, statusMessage?: string): void {
    const waitMs = waitBeforeRetry(this.policy, this.attempt, statusCode, headers, this.waitedMs);
    this.refused = waitMs === undefined ? undefined : { status: statusCode, waitMs };
    if (!this.refused) this.next.onResponseStart?.(controller, statusCode, headers, statusMessage);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (!this.refused) this.next.onResponseData?.(controller, chunk);
  }

  onResponseEnd(controller: Dispatcher.DispatchController, trailers: ResponseHeaders): void {
    const refused = this.refused;
    if (!refused) {
      this.next.onResponseEnd?.(controller, trailers);
      return;
    }
    this.refused = undefined;
    this.policy.onRetry?.({ attempt: this.attempt, status: refused.status, waitMs: refused.waitMs });
    this.attempt += 1;
    this.waitedMs += refused.waitMs;
    this.policy
      .wait(refused.waitMs)
      .then(() => {
        this.dispatch(this.opts, this);
      })
      .catch((err: unknown) => this.next.onResponseError?.(controller, err instanceof Error ? err : new Error(String(err))));
  }

  onResponseError(controller: Dispatcher.DispatchController, err: Error): void {
    this.next.onResponseError?.(controller, err);
  }
}

/**
 * An undici interceptor that waits out rate-limit refusals, shaped like
 * undici's `interceptor/retry.js`: per request, by its `retry` policy
 * ({@link RetryDispatchOptions}); without one it is a pass-through. It honours
 * Retry-After, bounded by the policy's attempts and longest wait. Composed
 * last (outermost), every interceptor inside runs again on each attempt, so
 * a retried request is signed afresh and each attempt is recorded:
 * `pool.compose(recording, signing, createRetryAfterInterceptor())`.
 */
export function createRetryAfterInterceptor(): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts: Dispatcher.DispatchOptions & RetryDispatchOptions, handler) =>
    opts.retry && opts.retry.maxAttempts > 1 ? dispatch(opts, new RetryAfterHandler(dispatch, opts, opts.retry, handler)) : dispatch(opts, handler);
}
