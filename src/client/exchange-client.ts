import { performance } from 'node:perf_hooks';
import { Pool, type Dispatcher } from 'undici';
import { HarnessError, fromTransportError } from '../errors/harness-error.js';
import type { Exchange, ExchangeRecorder } from './exchange.js';
import { beginRoundTrip } from './round-trip-scope.js';
import { createRecordingInterceptor, type RawResponse, type RecordingDispatchOptions } from './recording-interceptor.js';
import { createRetryAfterInterceptor, type RetryDispatchOptions } from './retry-after-interceptor.js';
import { currentRetryPolicy } from './retry-scope.js';
import { currentAbortSignal } from './abort-scope.js';
import { createDeadlineInterceptor, type DeadlineDispatchOptions } from './deadline-interceptor.js';
import type { SigningDispatchOptions, SigningOverrides } from './signing-interceptor.js';

/** How an exchange client reaches its target and where it files evidence. */
export interface ExchangeClientOptions {
  /** Base address; its path (e.g. `/v1`) prefixes every relative path. */
  baseUrl: string;
  /** Receives every exchange; without one, exchanges are still returned but bodies are not base64-copied. */
  recorder?: ExchangeRecorder | undefined;
  /** Target clock, ms since epoch (stamps `startedAt`). @defaultValue `Date.now` */
  now?: (() => number) | undefined;
  /** Longest whole exchange (headers and body together) per attempt, ms. @defaultValue 15000 */
  timeoutMs?: number | undefined;
  /** A dispatcher to share (never closed by this client); otherwise a keep-alive pool of its own. */
  dispatcher?: Dispatcher | undefined;
  /** Connections of the own pool; `null` is unlimited. @defaultValue null */
  connections?: number | null | undefined;
  /**
   * Interceptors that shape each attempt before it is recorded (signing):
   * composed between the recording and the 429-retry interceptors.
   */
  interceptors?: Dispatcher.DispatcherComposeInterceptor[] | undefined;
  /** Largest response body read; a larger one is recorded cut and thrown as E_RESPONSE_TOO_LARGE. @defaultValue 16 MiB */
  maxResponseBytes?: number | undefined;
  /** How much of each body a recorded exchange keeps (with byte count and SHA-256 when cut). @defaultValue 64 KiB */
  evidenceBytes?: number | undefined;
}

/** How long closing a pool waits for running requests before destroying their sockets, ms. */
const CLOSE_GRACE_MS = 2_000;

/** One request, path already absolute (as sent on the wire). */
interface WireRequest {
  method: string;
  /** Absolute path as sent, without the query. */
  path: string;
  /** Raw query without `?`, empty when none. */
  query: string;
  body?: string | Uint8Array | undefined;
  headers: Record<string, string>;
  label?: string | undefined;
  /** The header values to record instead of the sent ones (redaction). */
  recordedHeaders?: Record<string, string> | undefined;
  /** Signature breakage, read by a composed signing interceptor. */
  signing?: SigningOverrides | undefined;
  /** Told of every whole response, one per attempt: refusals that were retried come before the answer. */
  onResponse?: ((res: RawResponse) => void) | undefined;
}

/**
 * The transport under both service and hotel clients: sends over an undici
 * keep-alive pool through one interceptor chain (the 429 retry of the
 * running {@link withRetryPolicy} scope, then the given interceptors such as
 * signing, then recording), and reads the whole body.
 */
export class ExchangeClient {
  /** Scheme, host and port of the base address. */
  readonly origin: string;
  /** Path prefix of the base address, without trailing slash (`/v1`, or empty). */
  readonly basePath: string;
  /** The pool or shared dispatcher under the interceptor chain. */
  private readonly base: Dispatcher;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly recorder: ExchangeRecorder | undefined;
  private readonly clock: () => number;
  private readonly timeoutMs: number;
  private localIds = 0;

  constructor(options: ExchangeClientOptions) {
    let url: URL;
    try {
      url = new URL(options.baseUrl);
    } catch (cause) {
      throw new HarnessError('E_PROFILE_INVALID', `base url must be an absolute http(s) URL, got ${JSON.stringify(options.baseUrl)}`, { cause });
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new HarnessError('E_PROFILE_INVALID', `base url must use http or https, got ${JSON.stringify(options.baseUrl)}`);
    }
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.recorder = options.recorder;
    this.clock = options.now ?? Date.now;
    this.timeoutMs = options.timeoutMs ?? 15_000;
    if (options.dispatcher) {
      this.base = options.dispatcher;
      this.ownsDispatcher = false;
    } else {
      this.base = new Pool(this.origin, {
        connections: options.connections ?? null,
        keepAliveTimeout: 10_000,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      this.ownsDispatcher = true;
    }
    // Innermost first: the retry, outermost, sends each attempt through signing and recording again;
    // the deadline, innermost, aborts an attempt the recording then files as failed.
    this.dispatcher = this.base.compose(
      createDeadlineInterceptor(),
      createRecordingInterceptor({
        recorder: this.recorder,
        now: this.clock,
        nextId: () => this.nextId(),
        maxResponseBytes: options.maxResponseBytes,
        evidenceBytes: options.evidenceBytes,
      }),
      ...(options.interceptors ?? []),
      createRetryAfterInterceptor(),
    );
  }

  private nextId(): string {
    return this.recorder ? this.recorder.nextId() : `x-local-${++this.localIds}`;
  }

  /** The target clock, ms since epoch. */
  now(): number {
    return this.clock();
  }

  /** The absolute path sent for a path relative to the base address (`/account` → `/v1/account`); `/` when empty. */
  absolutePath(relative: string): string {
    const rel = relative === '' || relative.startsWith('/') ? relative : `/${relative}`;
    const full = this.basePath + rel;
    return full === '' ? '/' : full;
  }

  /**
   * Sends one request and records each attempt; transport failures are
   * recorded, then thrown as HarnessError. Inside a {@link withRetryPolicy}
   * scope, refusals are waited out and sent again.
   */
  async send(req: WireRequest): Promise<RawResponse> {
    const method = req.method.toUpperCase();
    const pathAndQuery = req.query ? `${req.path}?${req.query}` : req.path;
    let answer: RawResponse | undefined;
    let recorded = false;
    const signal = currentAbortSignal();
    const options: Dispatcher.RequestOptions & RecordingDispatchOptions & SigningDispatchOptions & RetryDispatchOptions & DeadlineDispatchOptions = {
      origin: this.origin,
      path: pathAndQuery,
      method: method as Dispatcher.HttpMethod,
      headers: req.headers,
      body: req.body ?? null,
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
      signing: req.signing,
      retry: currentRetryPolicy(),
      deadline: { ms: this.timeoutMs, signal },
      evidence: {
        label: req.label,
        recordedHeaders: req.recordedHeaders,
        onResponse: (res) => {
          recorded = true;
          answer = res;
          req.onResponse?.(res);
        },
        onFailure: () => {
          recorded = true;
        },
      },
    };
    const t0 = performance.now();
    const startedAt = this.clock();
    let stopWaiting: (() => void) | undefined;
    const endTrip = beginRoundTrip();
    try {
      const exchange = (async () => {
        const res = await this.dispatcher.request(options);
        // The recording interceptor has kept the bytes (up to the cap); reading to the end, without keeping a copy, lets it finish.
        for await (const chunk of res.body) void chunk;
        if (!answer) throw new HarnessError('E_INTERNAL', 'the response ended without being recorded');
        return answer;
      })();
      if (!signal) return await exchange;
      // Between attempts (a 429 wait) no socket is open to abort: the caller is let go at once all the same.
      exchange.catch(() => undefined);
      const aborted = new Promise<never>((_, reject) => {
        const onAbort = () =>
          reject(
            new HarnessError('E_TRANSPORT', `request aborted: ${signal.reason instanceof Error ? signal.reason.message : String(signal.reason)}`, {
              cause: signal.reason,
            }),
          );
        if (signal.aborted) onAbort();
        else {
          signal.addEventListener('abort', onAbort, { once: true });
          stopWaiting = () => signal.removeEventListener('abort', onAbort);
        }
      });
      return await Promise.race([exchange, aborted]);
    } catch (err) {
      const mapped = fromTransportError(err, this.origin);
      if (!recorded) {
        // Refused before it reached the wire (bad header, closed pool): still evidence.
        const request: Exchange['request'] = { method, url: this.origin + pathAndQuery, headers: req.recordedHeaders ?? req.headers };
        if (req.body !== undefined) request.body = typeof req.body === 'string' ? req.body : Buffer.from(req.body).toString('utf8');
        const exchange: Exchange = { id: this.nextId(), request, error: `${mapped.code}: ${mapped.message}`, startedAt, durationMs: performance.now() - t0 };
        if (req.label !== undefined) exchange.label = req.label;
        this.recorder?.record(exchange);
      }
      throw mapped;
    } finally {
      stopWaiting?.();
      endTrip();
    }
  }

  /**
   * Closes the own pool (a shared dispatcher is left open): requests still
   * running get `graceMs` to end, then their sockets are destroyed, so that
   * a target that never finishes an answer cannot keep the process alive.
   */
  async close(graceMs = CLOSE_GRACE_MS): Promise<void> {
    if (!this.ownsDispatcher) return;
    let timer: NodeJS.Timeout | undefined;
    const closed = this.base.close().then(
      () => true,
      () => true,
    );
    const late = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), graceMs);
    });
    try {
      if (!(await Promise.race([closed, late]))) await this.base.destroy();
    } finally {
      clearTimeout(timer);
    }
  }
}
