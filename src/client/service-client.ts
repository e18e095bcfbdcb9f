import { ExchangeClient, type ExchangeClientOptions } from './exchange-client.js';
import type { RawResponse } from './recording-interceptor.js';
import { type SigningHeaderNames, splitPathQuery } from '../protocol/index.js';
import { createSigningInterceptor, type SigningOverrides } from './signing-interceptor.js';

/** Options of a signed service client. */
interface ServiceClientOptions extends ExchangeClientOptions {
  keyId: string;
  /** The agency secret; used to sign, never recorded. */
  secret: string;
  /** Signing header names; `profile.headers` fits. @defaultValue the reference API's */
  headerNames?: SigningHeaderNames | undefined;
}

/** What every request of the service and hotel clients says. */
export interface ClientRequest {
  method: string;
  /** Relative to the base address (`/account`); may carry `?query`. */
  path: string;
  /** Raw query (without `?`), appended to any inline query. */
  query?: string | undefined;
  /** Exact body bytes (a string is sent as UTF-8). */
  body?: string | Uint8Array | undefined;
  /** Extra headers, lower-case names; they override the client's own (signing, content type). */
  headers?: Record<string, string> | undefined;
  label?: string | undefined;
}

/** One request to the service. */
interface ServiceRequest extends ClientRequest {
  signing?: SigningOverrides | undefined;
  /** Told of every whole response, one per attempt (see {@link ExchangeClient.send}). */
  onResponse?: ((res: RawResponse) => void) | undefined;
}

/**
 * A client of the service that signs every request (SVC-HMAC-SHA256) over
 * the path, query and body bytes exactly as sent, and records each exchange:
 * the signing interceptor runs in the transport's chain, so each attempt of
 * a retried request is signed afresh.
 */
export class ServiceClient {
  private readonly transport: ExchangeClient;

  constructor(options: ServiceClientOptions) {
    const { keyId, secret, headerNames, ...transport } = options;
    const signing = createSigningInterceptor({ keyId, secret, ...(headerNames ? { headerNames } : {}), now: options.now ?? Date.now });
    this.transport = new ExchangeClient({ ...transport, interceptors: [...(transport.interceptors ?? []), signing] });
  }

  /** Scheme, host and port of the base address. */
  get origin(): string {
    return this.transport.origin;
  }

  /** The target clock, ms since epoch. */
  now(): number {
    return this.transport.now();
  }

  /** The absolute path sent for a relative one. */
  absolutePath(relative: string): string {
    return this.transport.absolutePath(relative);
  }

  /** Signs and sends one request; resolves with any HTTP status, rejects (HarnessError) only on transport failure. */
  request(req: ServiceRequest): Promise<RawResponse> {
    const split = splitPathQuery(req.path, req.query);
    const path = this.transport.absolutePath(split.path);
    const headers: Record<string, string> = {};
    if (req.body !== undefined && req.body.length > 0) headers['content-type'] = 'application/json';
    if (req.headers) Object.assign(headers, req.headers);
    return this.transport.send({
      method: req.method,
      path,
      query: split.query,
      headers,
      body: req.body,
      label: req.label,
      signing: req.signing,
      onResponse: req.onResponse,
    });
  }

  /** Closes the connection pool it owns. */
  close(): Promise<void> {
    return this.transport.close();
  }
}
