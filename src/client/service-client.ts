import type { CallOptions } from '../api/types.js';
import { ExchangeClient, type ExchangeClientOptions, type RawResponse } from './exchange-client.js';
import { splitPathQuery } from './split-path-query.js';
import { DEFAULT_SIGNING_HEADERS, freshNonce, signRequest, type SigningHeaderNames } from './signer.js';

/** Deliberate breakage of a signature (auth checks), as in `CallOptions.signing`. */
export type SigningOverrides = NonNullable<CallOptions['signing']>;

/** Options of a signed service client. */
export interface ServiceClientOptions extends ExchangeClientOptions {
  keyId: string;
  /** The agency secret; used to sign, never recorded. */
  secret: string;
  /** Signing header names; `profile.headers` fits. @defaultValue the reference API's */
  headerNames?: SigningHeaderNames;
}

/** One request to the service. */
export interface ServiceRequest {
  method: string;
  /** Relative to the base address (`/account`); may carry `?query`. */
  path: string;
  /** Raw query (without `?`), appended to any inline query. */
  query?: string;
  /** Exact body bytes (a string is sent as UTF-8). */
  body?: string | Uint8Array;
  /** Extra headers, lower-case names; they override the signing headers and the default content type. */
  headers?: Record<string, string>;
  label?: string;
  signing?: SigningOverrides;
}

/** Inputs of {@link signingHeaders}. */
export interface SigningHeadersInput {
  method: string;
  /** Absolute path as sent. */
  path: string;
  query: string;
  body: string | Uint8Array | undefined;
  keyId: string;
  secret: string;
  /** Target clock, ms since epoch. */
  nowMs: number;
  names: SigningHeaderNames;
  overrides?: SigningOverrides | undefined;
}

/** The signing headers of one request (empty when `overrides.omit`), with a fresh nonce unless one is forced. */
export function signingHeaders(input: SigningHeadersInput): Record<string, string> {
  const o = input.overrides;
  if (o?.omit) return {};
  return signRequest(
    {
      method: input.method,
      path: input.path,
      query: input.query,
      body: input.body,
      keyId: o?.keyId ?? input.keyId,
      secret: o?.secret ?? input.secret,
      timestamp: Math.floor(input.nowMs / 1000) + (o?.skewS ?? 0),
      nonce: o?.nonce ?? freshNonce(),
    },
    input.names,
  ).headers;
}

/**
 * A client of the service that signs every request (SVC-HMAC-SHA256) over
 * the path, query and body bytes exactly as sent, and records each exchange.
 */
export class ServiceClient {
  private readonly transport: ExchangeClient;
  private readonly keyId: string;
  private readonly secret: string;
  private readonly names: SigningHeaderNames;

  constructor(options: ServiceClientOptions) {
    this.transport = new ExchangeClient(options);
    this.keyId = options.keyId;
    this.secret = options.secret;
    const n = options.headerNames ?? DEFAULT_SIGNING_HEADERS;
    this.names = { authorization: n.authorization.toLowerCase(), timestamp: n.timestamp.toLowerCase(), nonce: n.nonce.toLowerCase() };
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
    const signed = signingHeaders({
      method: req.method,
      path,
      query: split.query,
      body: req.body,
      keyId: this.keyId,
      secret: this.secret,
      nowMs: this.transport.now(),
      names: this.names,
      overrides: req.signing,
    });
    const headers: Record<string, string> = signed;
    if (req.body !== undefined && req.body.length > 0) headers['content-type'] = 'application/json';
    if (req.headers) Object.assign(headers, req.headers);
    const wire = { method: req.method, path, query: split.query, headers, body: req.body, label: req.label };
    return this.transport.send(wire);
  }

  /** Closes the connection pool it owns. */
  close(): Promise<void> {
    return this.transport.close();
  }
}

/** A signed service client. */
export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  return new ServiceClient(options);
}
