import type { Dispatcher } from 'undici';
import { headersToRecord } from './_internal/header-record.js';
import { DEFAULT_SIGNING_HEADERS, freshNonce, type SigningHeaderNames, signRequest, splitPathQuery } from '../protocol/index.js';

/** Deliberate breakage of a signature (auth checks), as in `CallOptions.signing`. */
export interface SigningOverrides {
  /** Seconds added to the timestamp. */
  skewS?: number | undefined;
  nonce?: string | undefined;
  /** Sign with this secret instead of the agency's. */
  secret?: string | undefined;
  keyId?: string | undefined;
  /** Send no signing headers at all. */
  omit?: boolean | undefined;
}

/** Inputs of {@link signingHeaders}. */
interface SigningHeadersInput {
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
function signingHeaders(input: SigningHeadersInput): Record<string, string> {
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

/** Dispatch options the signing interceptor reads besides undici's own. */
export interface SigningDispatchOptions {
  /** Breaks this request's signature on purpose (auth checks). */
  signing?: SigningOverrides | undefined;
}

/** Options of {@link createSigningInterceptor}. */
interface SigningInterceptorOptions {
  keyId: string;
  secret: string;
  /** Signing header names; `profile.headers` fits. @defaultValue the reference API's */
  headerNames?: SigningHeaderNames;
  /** Target clock, ms since epoch. @defaultValue `Date.now` */
  now?: () => number;
}

/**
 * An undici interceptor that signs every dispatched request (SVC-HMAC-SHA256)
 * over its path, query and body as sent, so signing composes with any
 * dispatcher (`new Pool(origin).compose(createSigningInterceptor({...}))`).
 * Each dispatch is signed afresh: composed inside a retrying interceptor,
 * every attempt gets its own timestamp and nonce. Headers given with the
 * request win over the signing headers, so a check can send a broken one on
 * purpose. Bodies must be a string or bytes: a stream cannot be hashed before
 * it is sent.
 */
export function createSigningInterceptor(options: SigningInterceptorOptions): Dispatcher.DispatcherComposeInterceptor {
  const n = options.headerNames ?? DEFAULT_SIGNING_HEADERS;
  const names: SigningHeaderNames = { authorization: n.authorization.toLowerCase(), timestamp: n.timestamp.toLowerCase(), nonce: n.nonce.toLowerCase() };
  const now = options.now ?? Date.now;
  return (dispatch) => (opts: Dispatcher.DispatchOptions & SigningDispatchOptions, handler) => {
    const body = opts.body ?? undefined;
    if (body !== undefined && typeof body !== 'string' && !(body instanceof Uint8Array)) {
      throw new TypeError('the signing interceptor needs a string or byte body, not a stream');
    }
    if (opts.query) throw new TypeError('the signing interceptor signs the path as given: put the query in `path`, not `query`');
    const { path, query } = splitPathQuery(opts.path);
    const signed = signingHeaders({
      method: opts.method,
      path,
      query,
      body,
      keyId: options.keyId,
      secret: options.secret,
      nowMs: now(),
      names,
      overrides: opts.signing,
    });
    return dispatch({ ...opts, headers: { ...signed, ...headersToRecord(opts.headers) } }, handler);
  };
}
