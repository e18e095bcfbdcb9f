import { getField } from '../../../api/fields.js';
import type { ApiResponse, Offer } from '../../../api/types.js';
import type { ErrorDef, Profile } from '../../../profile/index.js';

/** The error code of a response, by the profile's field path. */
function codeOf(res: Pick<ApiResponse, 'json'>, profile: Profile): string | undefined {
  const v = getField(res.json, profile.fields.error_code);
  return typeof v === 'string' ? v : undefined;
}

/** `201`, or `410 QUOTE_EXPIRED` for an error. */
export function describe(res: Pick<ApiResponse, 'status' | 'json' | 'exchange'>, profile: Profile): string {
  const code = res.status >= 400 ? codeOf(res, profile) : undefined;
  return `${code ? `${res.status} ${code}` : String(res.status)} (${res.exchange.id})`;
}

/** True for a 2xx answer. */
export function isOk(res: Pick<ApiResponse, 'status'>): boolean {
  return res.status >= 200 && res.status < 300;
}

/** True when the answer is exactly the expected error. */
export function isError(res: Pick<ApiResponse, 'status' | 'json'>, expected: ErrorDef, profile: Profile): boolean {
  return res.status === expected.status && codeOf(res, profile) === expected.code;
}

/** The cheapest priced offer, else the first. */
export function cheapest(offers: readonly Offer[]): Offer | undefined {
  let best: Offer | undefined;
  for (const o of offers) if (o.priceAmount !== undefined && (best?.priceAmount === undefined || o.priceAmount < best.priceAmount)) best = o;
  return best ?? offers[0];
}
