import { performance } from 'node:perf_hooks';
import { Pool, type Dispatcher } from 'undici';
import { HarnessError, fromTransportError } from '../errors/harness-error.js';
import type { Exchange, ExchangeRecorder } from './exchange.js';

/** How an exchange client reaches its target and where it files evidence. */
export interface ExchangeClientOptions {
  /** Base address; its path (e.g. `/v1`) prefixes every relative path. */
  baseUrl: string;
  /** Receives every exchange; without one, exchanges are still returned but bodies are not base64-copied. */
  recorder?: ExchangeRecorder;
  /** Target clock, ms since epoch (stamps `startedAt`). @defaultValue `Date.now` */
  now?: () => number;
  /** Headers and body timeout per request, ms. @defaultValue 15000 */
  timeoutMs?: number;
  /** A dispatcher to share (never closed by this client); otherwise a keep-alive pool of its own. */
  dispatcher?: Dispatcher;
  /** Connections of the own pool; `null` is unlimited. @defaultValue null */
  connections?: number | null;
}

/** One request, path already absolute (as sent on the wire). */
export interface WireRequest {
  method: string;
  /** Absolute path as sent, without the query. */
  path: string;
  /** Raw query without `?`, empty when none. */
  query: string;
  body?: string | Uint8Array;
  headers: Record<string, string>;
  label?: string;
  /** The header values to record instead of the sent ones (redaction). */
  recordedHeaders?: Record<string, string>;
}

/** A response with its raw bytes and the exchange that recorded it. */
export interface RawResponse {
  status: number;
  /** Lower-case names; repeated headers joined by `, `. */
  headers: Record<string, string>;
  bytes: Buffer;
  text: string;
  exchange: Exchange;
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) {
    const v = headers[name];
    if (v === undefined) continue;
    out[name] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

/**
 * The transport under both service and hotel clients: sends over an undici
 * keep-alive pool, reads the whole body, and records the exchange.
 */
export class ExchangeClient {
  /** Scheme, host and port of the base address. */
  readonly origin: string;
  /** Path prefix of the base address, without trailing slash (`/v1`, or empty). */
  readonly basePath: string;
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
      this.dispatcher = options.dispatcher;
      this.ownsDispatcher = false;
    } else {
      this.dispatcher = new Pool(this.origin, {
        connections: options.connections ?? null,
        keepAliveTimeout: 10_000,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      this.ownsDispatcher = true;
    }
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

  /** Sends one request and records it; transport failures are recorded, then thrown as HarnessError. */
  async send(req: WireRequest): Promise<RawResponse> {
    const method = req.method.toUpperCase();
    const pathAndQuery = req.query ? `${req.path}?${req.query}` : req.path;
    const id = this.recorder ? this.recorder.nextId() : `x-local-${++this.localIds}`;
    const startedAt = this.clock();
    const t0 = performance.now();
    const requestRecord: Exchange['request'] = {
      method,
      url: this.origin + pathAndQuery,
      headers: req.recordedHeaders ?? req.headers,
    };
    if (req.body !== undefined) requestRecord.body = typeof req.body === 'string' ? req.body : Buffer.from(req.body).toString('utf8');
    try {
      const res = await this.dispatcher.request({
        origin: this.origin,
        path: pathAndQuery,
        method: method as Dispatcher.HttpMethod,
        headers: req.headers,
        body: req.body ?? null,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      const bytes = Buffer.from(await res.body.arrayBuffer());
      const durationMs = performance.now() - t0;
      const headers = flattenHeaders(res.headers);
      const text = bytes.toString('utf8');
      const exchange: Exchange = {
        id,
        request: requestRecord,
        response: { status: res.statusCode, headers, body: text },
        startedAt,
        durationMs,
      };
      if (req.label !== undefined) exchange.label = req.label;
      if (this.recorder) {
        exchange.response!.bodyBase64 = bytes.toString('base64');
        this.recorder.record(exchange);
      }
      return { status: res.statusCode, headers, bytes, text, exchange };
    } catch (err) {
      const mapped = fromTransportError(err, this.origin);
      const exchange: Exchange = { id, request: requestRecord, error: `${mapped.code}: ${mapped.message}`, startedAt, durationMs: performance.now() - t0 };
      if (req.label !== undefined) exchange.label = req.label;
      this.recorder?.record(exchange);
      throw mapped;
    }
  }

  /** Closes the own pool (a shared dispatcher is left open). */
  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close();
  }
}
