import type { RawResponse } from '../../client/recording-interceptor.js';
import { parseRateLimit, type RateLimitHeaderNames } from '../../client/rate-limit.js';
import type { ApiResponse } from '../types.js';

/** JSON of a body, or `undefined` when empty or not JSON. */
function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A raw response as an ApiResponse: parsed JSON and rate-limit facts. */
export function toApiResponse(raw: RawResponse, names: RateLimitHeaderNames, nowMs: number): ApiResponse {
  return {
    status: raw.status,
    headers: raw.headers,
    text: raw.text,
    bytes: raw.bytes,
    json: parseJson(raw.text),
    rateLimit: parseRateLimit(raw.headers, names, nowMs),
    exchange: raw.exchange,
  };
}

/** The wire form of a call's body: bytes and strings as given, anything else as JSON; `undefined` sends none. */
export function encodeBody(body: unknown): string | Uint8Array | undefined {
  if (body === undefined) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  return JSON.stringify(body);
}
