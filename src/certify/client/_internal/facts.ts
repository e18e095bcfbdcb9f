import type { Verdict } from '../../../results/model.js';
import type { ClientItem } from '../client-plan.js';
import type { ObservedRequest } from '../observed.js';

/** The verdict of one graded item, with the ids of the exchanges that show it. */
export interface GradedItem {
  item: ClientItem;
  verdict: Verdict;
  message: string;
  evidence: string[];
  details?: Record<string, unknown>;
}

/** A header of a recorded request, first value, any case. */
export function header(r: ObservedRequest, name: string): string | undefined {
  const v = r.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

/** True for `POST /v1/{product}/bookings`. */
export function isBooking(r: ObservedRequest): boolean {
  return r.method === 'POST' && /^\/v1\/[^/]+\/bookings$/.test(r.path);
}

/** The product word of a `/v1/{product}/…` path. */
export function productOf(path: string): string | undefined {
  const m = /^\/v1\/([^/]+)\/./.exec(path);
  return m?.[1];
}

/** The quote token a booking request redeems. */
export function quoteToken(r: ObservedRequest): string | undefined {
  try {
    const v = JSON.parse(r.body.toString('utf8')) as { quote_token?: unknown };
    return typeof v.quote_token === 'string' ? v.quote_token : undefined;
  } catch {
    return undefined;
  }
}

/** True for a 2xx status. */
export function ok(status: number | null | undefined): boolean {
  return typeof status === 'number' && status >= 200 && status < 300;
}

/** Seconds, two decimals. */
export function secs(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

/** `n thing` / `n things`. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** A SKIP for a situation the client's flows never reached. */
export function notExercised(item: ClientItem, why: string): GradedItem {
  return { item, verdict: 'SKIP', message: `not exercised: ${why}`, evidence: [] };
}
