import type { Duplex } from 'node:stream';
import type { Dispatcher } from 'undici';
import { HarnessError } from '../errors/harness-error.js';

/** The bound of one attempt: its whole time, and a signal that ends it sooner. */
export interface Deadline {
  /** Longest time from sending to the last body byte, ms. */
  ms: number;
  /** Aborts the attempt when it aborts (the running check's time is up). */
  signal?: AbortSignal | undefined;
}

/** Dispatch options the deadline interceptor reads besides undici's own. */
export interface DeadlineDispatchOptions {
  deadline?: Deadline | undefined;
}

/** Response headers as undici hands them to a handler. */
type ResponseHeaders = Record<string, string | string[] | undefined>;

/** The error an attempt fails with when its signal aborted. */
function abortedBy(signal: AbortSignal): HarnessError {
  const reason: unknown = signal.reason;
  const why = reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : 'aborted';
  return new HarnessError('E_TRANSPORT', `request aborted: ${why}`, { cause: reason });
}

/**
 * Aborts one attempt when its whole exchange outlives the deadline or the
 * signal aborts. undici's own `headersTimeout`/`bodyTimeout` restart at each
 * chunk, so a body that trickles a byte at a time would otherwise never end.
 */
class DeadlineHandler implements Dispatcher.DispatchHandler {
  private timer: NodeJS.Timeout | undefined;
  private onAbort: (() => void) | undefined;
  private settled = false;

  constructor(
    private readonly deadline: Deadline,
    private readonly origin: string,
    private readonly next: Dispatcher.DispatchHandler,
  ) {}

  onRequestStart(controller: Dispatcher.DispatchController, context: unknown): void {
    this.next.onRequestStart?.(controller, context);
    const { ms, signal } = this.deadline;
    if (signal?.aborted) {
      controller.abort(abortedBy(signal));
      return;
    }
    this.timer = setTimeout(() => {
      controller.abort(new HarnessError('E_TRANSPORT', `request to ${this.origin} got no whole answer within ${ms} ms (request_timeout_ms)`));
    }, ms);
    if (signal) {
      this.onAbort = () => controller.abort(abortedBy(signal));
      signal.addEventListener('abort', this.onAbort, { once: true });
    }
  }

  private settle(): void {
    if (this.settled) return;
    this.settled = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.onAbort) this.deadline.signal?.removeEventListener('abort', this.onAbort);
  }

  onRequestUpgrade(controller: Dispatcher.DispatchController, statusCode: number, headers: ResponseHeaders, socket: Duplex): void {
    this.settle();
    this.next.onRequestUpgrade?.(controller, statusCode, headers, socket);
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: ResponseHeaders, statusMessage?: string): void {
    this.next.onResponseStart?.(controller, statusCode, headers, statusMessage);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.next.onResponseData?.(controller, chunk);
  }

  onResponseEnd(controller: Dispatcher.DispatchController, trailers: ResponseHeaders): void {
    this.settle();
    this.next.onResponseEnd?.(controller, trailers);
  }

  onResponseError(controller: Dispatcher.DispatchController, err: Error): void {
    this.settle();
    this.next.onResponseError?.(controller, err);
  }
}

/**
 * An undici interceptor that bounds each attempt of a request by its
 * `deadline` ({@link DeadlineDispatchOptions}): headers and body together,
 * and the caller's abort signal. Composed innermost, the abort reaches the
 * recording interceptor as the attempt's failure and tears the socket down,
 * so closing the pool never waits for it.
 */
export function createDeadlineInterceptor(): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts: Dispatcher.DispatchOptions & DeadlineDispatchOptions, handler) =>
    opts.deadline ? dispatch(opts, new DeadlineHandler(opts.deadline, String(opts.origin ?? ''), handler)) : dispatch(opts, handler);
}
