import { performance } from 'node:perf_hooks';
import type { Dispatcher } from 'undici';
import { fromTransportError, type HarnessError } from '../errors/harness-error.js';
import { bodyEvidence, DEFAULT_MAX_RESPONSE_BYTES, evidencePrefix, EVIDENCE_BODY_BYTES, responseTooLarge } from './body-capture.js';
import { flattenHeaders, headersToRecord } from './_internal/header-record.js';
import type { Exchange, ExchangeRecorder } from './exchange.js';

/** A whole response with its raw bytes and the exchange that recorded it. */
export interface RawResponse {
  status: number;
  /** Lower-case names; repeated headers joined by `, `. */
  headers: Record<string, string>;
  bytes: Buffer;
  text: string;
  exchange: Exchange;
}

/** What one request asks of the recording interceptor. */
export interface RequestEvidence {
  /** Why the request is sent; shown with the evidence. */
  label?: string | undefined;
  /** The header values to record instead of the sent ones (redaction). */
  recordedHeaders?: Record<string, string> | undefined;
  /** Told of each whole response, one per attempt. */
  onResponse?: ((res: RawResponse) => void) | undefined;
  /** Told of each attempt that failed without a response, after it was recorded. */
  onFailure?: ((exchange: Exchange) => void) | undefined;
}

/** Dispatch options the recording interceptor reads besides undici's own. */
export interface RecordingDispatchOptions {
  evidence?: RequestEvidence | undefined;
}

/** Options of {@link createRecordingInterceptor}. */
interface RecordingInterceptorOptions {
  /** Receives every exchange; without one, exchanges are still made but bodies are not base64-copied. */
  recorder?: ExchangeRecorder | undefined;
  /** Target clock, ms since epoch (stamps `startedAt`). @defaultValue `Date.now` */
  now?: (() => number) | undefined;
  /** Exchange ids. @defaultValue the recorder's, else `x-local-<n>` */
  nextId?: (() => string) | undefined;
  /** Largest response body read; past it the exchange is aborted, recorded cut, and fails with E_RESPONSE_TOO_LARGE. @defaultValue 16 MiB */
  maxResponseBytes?: number | undefined;
  /** How much of each body a recorded exchange keeps (with byte count and SHA-256 when cut). @defaultValue 64 KiB */
  evidenceBytes?: number | undefined;
}

/** The body limits of one recording handler. */
interface BodyLimits {
  maxBytes: number;
  evidenceBytes: number;
}

/** Builds the exchange of one attempt from what passes through, and hands it on. */
class RecordingHandler implements Dispatcher.DispatchHandler {
  private status = 0;
  private headers: Record<string, string> = {};
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private done = false;
  private readonly t0 = performance.now();

  constructor(
    /** What is known before the response: id, request, time sent, label. */
    private readonly sent: Pick<Exchange, 'id' | 'request' | 'startedAt'> & { label: string | undefined },
    private readonly recorder: ExchangeRecorder | undefined,
    private readonly origin: string,
    private readonly evidence: RequestEvidence | undefined,
    private readonly limits: BodyLimits,
    private readonly next: Dispatcher.DispatchHandler,
  ) {}

  onRequestStart(controller: Dispatcher.DispatchController, context: unknown): void {
    this.next.onRequestStart?.(controller, context);
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
    statusMessage?: string,
  ): void {
    this.status = statusCode;
    this.headers = flattenHeaders(headers);
    this.next.onResponseStart?.(controller, statusCode, headers, statusMessage);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.done) return;
    this.size += chunk.length;
    this.chunks.push(chunk);
    if (this.size > this.limits.maxBytes) {
      // A body past the cap is never held whole: record what came, then abort the exchange.
      const tooLarge = responseTooLarge(this.limits.maxBytes, this.origin);
      this.recordTooLarge(tooLarge);
      controller.abort(tooLarge);
      return;
    }
    this.next.onResponseData?.(controller, chunk);
  }

  private recordTooLarge(err: HarnessError): void {
    this.done = true;
    const all = Buffer.concat(this.chunks);
    this.chunks.length = 0;
    const head = evidencePrefix(all, this.limits.evidenceBytes);
    const { id, request, startedAt, label } = this.sent;
    const x: Exchange = {
      id,
      request,
      response: {
        status: this.status,
        headers: this.headers,
        body: head.toString('utf8'),
        bodyBase64: head.toString('base64'),
        bytes: this.size,
        truncated: true,
      },
      error: `${err.code}: ${err.message}`,
      startedAt,
      durationMs: performance.now() - this.t0,
    };
    if (label !== undefined) x.label = label;
    this.recorder?.record(x);
    this.evidence?.onFailure?.(x);
  }

  onResponseEnd(controller: Dispatcher.DispatchController, trailers: Record<string, string | string[] | undefined>): void {
    this.done = true;
    const bytes = Buffer.concat(this.chunks);
    const text = bytes.toString('utf8');
    const { id, request, startedAt, label } = this.sent;
    // Verdicts judge the whole body (handed on below); the recorded evidence keeps a bounded prefix.
    const ev = bodyEvidence(bytes, this.limits.evidenceBytes);
    const response: NonNullable<Exchange['response']> = { status: this.status, headers: this.headers, body: ev.truncated ? ev.body : text };
    if (ev.truncated) Object.assign(response, { bytes: ev.bytes, sha256: ev.sha256, truncated: true });
    // The key order of the evidence files: id, request, response (or error), times, label.
    const x: Exchange = { id, request, response, startedAt, durationMs: performance.now() - this.t0 };
    if (label !== undefined) x.label = label;
    if (this.recorder) {
      response.bodyBase64 = ev.kept.toString('base64');
      this.recorder.record(x);
    }
    this.evidence?.onResponse?.({ status: this.status, headers: this.headers, bytes, text, exchange: x });
    this.next.onResponseEnd?.(controller, trailers);
  }

  onResponseError(controller: Dispatcher.DispatchController, err: Error): void {
    if (!this.done) {
      this.done = true;
      const mapped = fromTransportError(err, this.origin);
      const { id, request, startedAt, label } = this.sent;
      const x: Exchange = { id, request, error: `${mapped.code}: ${mapped.message}`, startedAt, durationMs: performance.now() - this.t0 };
      if (label !== undefined) x.label = label;
      this.recorder?.record(x);
      this.evidence?.onFailure?.(x);
    }
    this.next.onResponseError?.(controller, err);
  }
}

/**
 * An undici interceptor that records every exchange it carries as evidence:
 * the request as sent (after any interceptor composed outside it, such as
 * signing), the whole response or the transport failure, the target-clock
 * time it was sent and how long it took. Composed inside a retrying
 * interceptor, each attempt is an exchange of its own.
 */
export function createRecordingInterceptor(options: RecordingInterceptorOptions = {}): Dispatcher.DispatcherComposeInterceptor {
  const now = options.now ?? Date.now;
  const recorder = options.recorder;
  let localIds = 0;
  const nextId = options.nextId ?? (() => (recorder ? recorder.nextId() : `x-local-${++localIds}`));
  const limits: BodyLimits = { maxBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES, evidenceBytes: options.evidenceBytes ?? EVIDENCE_BODY_BYTES };
  return (dispatch) => (opts: Dispatcher.DispatchOptions & RecordingDispatchOptions, handler) => {
    const origin = String(opts.origin ?? '');
    const request: Exchange['request'] = {
      method: opts.method,
      url: origin + opts.path,
      headers: opts.evidence?.recordedHeaders ?? headersToRecord(opts.headers),
    };
    const body = opts.body;
    if (typeof body === 'string') request.body = body;
    else if (body instanceof Uint8Array) request.body = Buffer.from(body).toString('utf8');
    const sent = { id: nextId(), request, startedAt: now(), label: opts.evidence?.label };
    return dispatch(opts, new RecordingHandler(sent, recorder, origin, opts.evidence, limits, handler));
  };
}
