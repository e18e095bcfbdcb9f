import { getField } from '../../api/fields.js';
import type { ApiResponse } from '../../api/types.js';
import { parseNonNegativeInt } from '../../client/rate-limit.js';
import type { Profile } from '../../profile/index.js';
import type { Findings } from '../findings.js';

/** The bucket a rate-limit probe is meant to count in. */
export type RlBucket = 'read' | 'write';

/**
 * One request of a rate-limit sequence, reduced to what the judges need:
 * plain data, so a judge can be run on recorded exchanges.
 */
export interface RlShot {
  exchangeId: string;
  /** Agency index in the profile (0 = primary). */
  agency: number;
  bucket: RlBucket;
  /** Which phase of the check sent it, e.g. `fill`, `early`. */
  step: string;
  /** Target clock when sent, ms since epoch. */
  at: number;
  /** Time until its answer arrived, ms (the target counted it somewhere in between). */
  durationMs?: number;
  status: number;
  /** error.code by the profile's field path, when the body is an error. */
  code?: string;
  /** error.details by the profile's field path. */
  details?: unknown;
  /** Response headers, lower-case names. */
  headers: Record<string, string>;
}

/** Turns a response into a shot. */
export function toShot(res: ApiResponse, profile: Profile, agency: number, bucket: RlBucket, step: string): RlShot {
  const code = getField(res.json, profile.fields.error_code);
  const details = getField(res.json, profile.fields.error_details);
  return {
    exchangeId: res.exchange.id,
    agency,
    bucket,
    step,
    at: res.exchange.startedAt,
    durationMs: res.exchange.durationMs,
    status: res.status,
    ...(typeof code === 'string' ? { code } : {}),
    ...(details !== undefined ? { details } : {}),
    headers: res.headers,
  };
}

/** True when the target refused the shot for its rate limit (the profile's rate-limited status). */
export function isRefused(shot: RlShot, profile: Profile): boolean {
  return shot.status === profile.errors.rate_limited.status;
}

/** The X-RateLimit-* and Retry-After facts of a shot, by the profile's header names; raw texts kept for messages. */
interface RlHeaderFacts {
  limit?: number;
  remaining?: number;
  resetS?: number;
  resource?: string;
  raw: { limit: string | undefined; remaining: string | undefined; reset: string | undefined; resource: string | undefined; retryAfter: string | undefined };
}

/** Reads the rate-limit headers of a shot; a value that is not a plain non-negative integer is left out (and kept raw). */
export function rlHeaders(shot: RlShot, profile: Profile): RlHeaderFacts {
  const h = profile.headers;
  const get = (name: string): string | undefined => shot.headers[name.toLowerCase()];
  const raw = {
    limit: get(h.ratelimit_limit),
    remaining: get(h.ratelimit_remaining),
    reset: get(h.ratelimit_reset),
    resource: get(h.ratelimit_resource),
    retryAfter: get(h.retry_after),
  };
  const facts: RlHeaderFacts = { raw };
  const limit = parseNonNegativeInt(raw.limit);
  if (limit !== undefined) facts.limit = limit;
  const remaining = parseNonNegativeInt(raw.remaining);
  if (remaining !== undefined) facts.remaining = remaining;
  const reset = parseNonNegativeInt(raw.reset);
  if (reset !== undefined) facts.resetS = reset;
  if (raw.resource !== undefined && raw.resource.trim() !== '') facts.resource = raw.resource.trim();
  return facts;
}

/** Number of shots admitted before the first refusal (all of them when none was refused). */
export function admittedBeforeRefusal(shots: readonly RlShot[], profile: Profile): number {
  const i = shots.findIndex((s) => isRefused(s, profile));
  return i < 0 ? shots.length : i;
}

/** The profile's name of a bucket, as `X-RateLimit-Resource` should report it. */
export function bucketName(bucket: RlBucket, profile: Profile): string {
  return bucket === 'read' ? profile.values.bucket_read : profile.values.bucket_write;
}

/** Short description of a shot for messages: `x-000012 (429 RATE_LIMITED)`. */
export function describeShot(shot: RlShot): string {
  return `${shot.exchangeId} (${shot.status}${shot.code ? ` ${shot.code}` : ''})`;
}

/** When the target had answered `shot`, on its clock: it counted the request somewhere before. */
export function answeredAt(shot: RlShot): number {
  return shot.at + (shot.durationMs ?? 0);
}

/**
 * Why `shots`, sent from an empty window to fill a bucket, show nothing of
 * its limit up to `upTo` (the last by default): from the first of them sent
 * to `upTo` answered, a whole window passed, so the first admissions may have
 * left the window before `upTo` was counted (a machine or a network too slow
 * to fill it in one). Undefined when they fit in one window.
 */
export function outlastedWindow(shots: readonly RlShot[], profile: Profile, upTo: RlShot | undefined = shots[shots.length - 1]): string | undefined {
  if (shots.length === 0 || upTo === undefined) return undefined;
  const first = shots.reduce((min, s) => Math.min(min, s.at), Infinity);
  const spanMs = answeredAt(upTo) - first;
  const windowMs = profile.limits.window_s * 1000;
  if (spanMs < windowMs) return undefined;
  return `from its first request sent to the answer of ${upTo.exchangeId} ${(spanMs / 1000).toFixed(2)} s passed, not less than the ${profile.limits.window_s} s window: its first admissions may have left the window, too slow to show the limit`;
}

/**
 * A fill that never met a refusal, judged: a FAIL (`said`, then `because`),
 * or a WARN when the fill outlasted its window (see {@link outlastedWindow}),
 * each naming the fill's last request.
 */
export function judgeUnrefusedFill(v: Findings, fill: readonly RlShot[], profile: Profile, said: string, because?: string): void {
  const last = fill[fill.length - 1]?.exchangeId;
  const slow = outlastedWindow(fill, profile);
  if (slow) v.warn(`${said}, but ${slow}`, last);
  else v.fail(because === undefined ? said : `${said}, ${because}`, last);
}
