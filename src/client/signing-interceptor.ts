import type { Dispatcher } from 'undici';
import { signingHeaders } from './service-client.js';
import { splitPathQuery } from './split-path-query.js';
import { DEFAULT_SIGNING_HEADERS, type SigningHeaderNames } from './signer.js';

/** Options of {@link createSigningInterceptor}. */
export interface SigningInterceptorOptions {
  keyId: string;
  secret: string;
  headerNames?: SigningHeaderNames;
  /** Target clock, ms since epoch. @defaultValue `Date.now` */
  now?: () => number;
}

function headersToRecord(headers: Dispatcher.DispatchOptions['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2) out[String(headers[i]).toLowerCase()] = String(headers[i + 1]);
    return out;
  }
  const entries: Iterable<[string, unknown]> =
    Symbol.iterator in (headers as object) ? (headers as Iterable<[string, unknown]>) : Object.entries(headers as Record<string, unknown>);
  for (const [k, v] of entries) {
    if (v === undefined) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
  }
  return out;
}

/**
 * An undici interceptor that signs every dispatched request over its path,
 * query and body as sent, so signing composes with any dispatcher
 * (`new Pool(origin).compose(createSigningInterceptor({...}))`). Bodies must
 * be a string or bytes: a stream cannot be hashed before it is sent.
 */
export function createSigningInterceptor(options: SigningInterceptorOptions): Dispatcher.DispatcherComposeInterceptor {
  const names = options.headerNames ?? DEFAULT_SIGNING_HEADERS;
  const now = options.now ?? Date.now;
  return (dispatch) => (opts, handler) => {
    const body = opts.body ?? undefined;
    if (body !== undefined && typeof body !== 'string' && !(body instanceof Uint8Array)) {
      throw new TypeError('the signing interceptor needs a string or byte body, not a stream');
    }
    if (opts.query) throw new TypeError('the signing interceptor signs the path as given: put the query in `path`, not `query`');
    const { path, query } = splitPathQuery(opts.path);
    const signed = signingHeaders({ method: opts.method, path, query, body, keyId: options.keyId, secret: options.secret, nowMs: now(), names });
    return dispatch({ ...opts, headers: { ...headersToRecord(opts.headers), ...signed } }, handler);
  };
}
