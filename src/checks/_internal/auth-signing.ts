import { signRequest } from '../../protocol/index.js';
import type { CheckContext } from '../types.js';

/** What to sign, and how to bend it. */
interface SignSpec {
  method: string;
  /** Relative to base_url, as the TargetApi takes it. */
  path: string;
  query?: string;
  body?: string;
  nonce: string;
  secret?: string;
  keyId?: string;
  skewS?: number;
}

/** The absolute path of a base_url-relative path, as signed and sent. */
function absoluteServicePath(baseUrl: string, relative: string): string {
  const base = new URL(baseUrl).pathname.replace(/\/+$/, '');
  const full = base + (relative.startsWith('/') ? relative : `/${relative}`);
  return full === '' ? '/' : full;
}

/**
 * Signing headers for a request of agency `index`, computed here so that a
 * check can send them over a different body, or leave one out.
 */
export function signedHeadersFor(ctx: CheckContext, spec: SignSpec, index = 0): Record<string, string> {
  const agency = ctx.agencies[index];
  if (!agency) throw new RangeError(`no agency ${index}`);
  const h = ctx.profile.headers;
  return signRequest(
    {
      method: spec.method.toUpperCase(),
      path: absoluteServicePath(ctx.profile.base_url, spec.path),
      query: spec.query ?? '',
      body: spec.body,
      keyId: spec.keyId ?? agency.keyId,
      secret: spec.secret ?? agency.secret,
      timestamp: Math.floor(ctx.clock.now() / 1000) + (spec.skewS ?? 0),
      nonce: spec.nonce,
    },
    { authorization: h.authorization.toLowerCase(), timestamp: h.timestamp.toLowerCase(), nonce: h.nonce.toLowerCase() },
  ).headers;
}
