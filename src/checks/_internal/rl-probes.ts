import { fillPath, getNumber } from '../../api/fields.js';
import { parseNonNegativeInt } from '../../client/rate-limit.js';
import type { Profile } from '../../profile/index.js';
import type { CheckContext, CheckOutcome } from '../types.js';
import { errored } from '../findings.js';
import { isRefused, toShot, type RlBucket, type RlShot } from './rl-shot.js';

/** Sends one cheap, side-effect-free request counted in a chosen bucket of one agency. */
export interface RlProbes {
  /** A read: the account operation (the cheapest read every target has). */
  read(step: string): Promise<RlShot>;
  /**
   * A write without side effects: the booking-lookup path sent with a method it
   * does not take (POST, or PUT when the lookup itself is a POST), for a booking
   * id that cannot exist. REFERENCE-API.md section 5 counts every request other
   * than a GET or a search in the write bucket, including those answered 403,
   * 404 or 405, and section 4 judges the rate limit before the route: the probe
   * is counted and refused like any write, and nothing is ever created.
   */
  write(step: string): Promise<RlShot>;
  /** The bucket's probe. */
  send(bucket: RlBucket, step: string): Promise<RlShot>;
}

/** The method and path of the side-effect-free write probe (see {@link RlProbes.write}). */
export function writeProbeRequest(profile: Profile, bookingId: string): { method: string; path: string } {
  const lookup = profile.operations.get_booking;
  const method = lookup.method.toUpperCase() === 'POST' ? 'PUT' : 'POST';
  const product = profile.products[0] ?? 'flights';
  return { method, path: fillPath(lookup.path, { product, booking_id: bookingId }) };
}

/** Probes of agency `index`, labelled with the check's id and their step. */
export function rlProbes(ctx: CheckContext, index: number): RlProbes {
  const api = ctx.api(index);
  const probes: RlProbes = {
    async read(step) {
      const res = await api.account({ label: ctx.label(`read probe (${step})`) });
      return toShot(res, ctx.profile, index, 'read', step);
    },
    async write(step) {
      const { method, path } = writeProbeRequest(ctx.profile, ctx.unique('rl-probe'));
      const res = await api.raw(method, path, undefined, { label: ctx.label(`write probe (${step})`) });
      return toShot(res, ctx.profile, index, 'write', step);
    },
    send: (bucket, step) => (bucket === 'read' ? probes.read(step) : probes.write(step)),
  };
  return probes;
}

/** Why the limits of one agency cannot be used (unknown: ERROR; over the fill ceiling: WARN), and the shots spent learning them. */
export interface RlLimitsUnusable {
  error: string;
  shots: RlShot[];
  /** @defaultValue 'ERROR' */
  verdict?: 'WARN';
}

/** The limits of one agency and the shots spent learning them. */
interface RlLimits {
  read: number;
  write: number;
  /** Where they came from. */
  source: 'profile' | 'account';
  /** The account read made to learn them (it counts in the read bucket), when one was made. */
  shots: RlShot[];
}

/**
 * The limits of agency `index`: the profile's `agencies[i].limits` when given,
 * otherwise read from the account response by the profile's field paths.
 * Returns a message instead when neither says.
 */
export async function rlLimits(ctx: CheckContext, index: number): Promise<RlLimits | RlLimitsUnusable> {
  const given = ctx.agencies[index]?.limits ?? ctx.profile.agencies[index]?.limits;
  if (given) return overCeiling(ctx, index, { read: given.read, write: given.write, source: 'profile', shots: [] });
  const res = await ctx.api(index).account({ label: ctx.label('read the rate limits') });
  const shot = toShot(res, ctx.profile, index, 'read', 'limits');
  const f = ctx.profile.fields;
  const read = getNumber(res.json, f.account_read_limit);
  const write = getNumber(res.json, f.account_write_limit);
  if (res.status < 200 || res.status >= 300 || read === undefined || write === undefined || read < 1 || write < 1) {
    return {
      error: `the rate limits of agency ${ctx.agencies[index]?.id ?? index} are unknown: the profile gives no agencies[${index}].limits and the account response (status ${res.status}) has no positive numbers at ${f.account_read_limit} and ${f.account_write_limit}`,
      shots: [shot],
    };
  }
  return overCeiling(ctx, index, { read, write, source: 'account', shots: [shot] });
}

/**
 * The limits, or a WARN when a bucket's limit is above the profile's
 * `max_fill_requests`: filling it would send that many requests and more (an
 * account announcing `write: 1000000000` kept a fill sending for ever), so it
 * is not filled, and nothing past the account read is sent.
 */
function overCeiling(ctx: CheckContext, index: number, limits: RlLimits): RlLimits | RlLimitsUnusable {
  const ceiling = ctx.profile.max_fill_requests;
  const over = (['read', 'write'] as const).filter((b) => limits[b] > ceiling);
  if (over.length === 0) return limits;
  const said = limits.source === 'profile' ? `the profile gives agencies[${index}].limits` : 'its account announces';
  return {
    error: `agency ${ctx.agencies[index]?.id ?? index}: ${said} ${over.map((b) => `${b} ${limits[b]}`).join(' and ')} per window, over the fill ceiling of ${ceiling} requests (max_fill_requests); the bucket is not filled, so its limit is not judged`,
    shots: limits.shots,
    verdict: 'WARN',
  };
}

/**
 * Sends probes one after the other until one is refused or `max` were sent.
 * Sequential on purpose: each response's counters follow the one before.
 */
async function fillUntilRefused(probes: RlProbes, bucket: RlBucket, max: number, step: string, profile: Profile): Promise<RlShot[]> {
  const shots: RlShot[] = [];
  for (let i = 0; i < max; i++) {
    const shot = await probes.send(bucket, step);
    shots.push(shot);
    if (isRefused(shot, profile)) break;
  }
  return shots;
}

/** Sends exactly `count` probes, one after the other. */
export async function sendMany(probes: RlProbes, bucket: RlBucket, count: number, step: string): Promise<RlShot[]> {
  const shots: RlShot[] = [];
  for (let i = 0; i < count; i++) shots.push(await probes.send(bucket, step));
  return shots;
}

/**
 * Sends exactly `count` probes at once, at most `width` in flight (a burst
 * whose verdict needs only how many were admitted: round trips do not add up).
 * Shots come back in the order they were sent.
 */
export async function sendConcurrently(probes: RlProbes, bucket: RlBucket, count: number, step: string, width = 16): Promise<RlShot[]> {
  const shots: RlShot[] = new Array<RlShot>(count);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < count) {
      const i = next++;
      shots[i] = await probes.send(bucket, step);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, count) }, lane));
  return shots;
}

/** Requests in flight at once in a burst: against a distant target a burst costs about `count / BURST_WIDTH` round trips. */
export const BURST_WIDTH = 64;

/**
 * Sends `count` probes at once (see {@link sendConcurrently}) and returns them
 * in the order the target counted them: the admitted ones first, by the
 * Remaining each reported (highest first; in the order sent when any lacks
 * one), then the refused ones. A judge that reads "requests until the first
 * refusal" reads the same count from it as from probes sent one by one, in a
 * round trip or two instead of `count`.
 */
export async function sendCounted(probes: RlProbes, bucket: RlBucket, count: number, step: string, profile: Profile): Promise<RlShot[]> {
  const shots = await sendConcurrently(probes, bucket, count, step, BURST_WIDTH);
  const admitted = shots.filter((s) => !isRefused(s, profile));
  const refused = shots.filter((s) => isRefused(s, profile));
  const remaining = admitted.map((s) => parseNonNegativeInt(s.headers[profile.headers.ratelimit_remaining.toLowerCase()]));
  if (remaining.every((r) => r !== undefined)) {
    const order = admitted.map((s, i) => ({ s, r: remaining[i]! }));
    order.sort((a, b) => b.r - a.r);
    return [...order.map((o) => o.s), ...refused];
  }
  return [...admitted, ...refused];
}

/**
 * Fills a bucket from an empty window with `max` probes at most: all but the
 * last `tail` at once ({@link sendCounted}), then one after the other until
 * the first refusal, so that the counters at the limit's edge follow one
 * another as sent. A refusal in the burst ends the fill there.
 */
export async function fillFast(probes: RlProbes, bucket: RlBucket, max: number, step: string, profile: Profile, tail = 4): Promise<RlShot[]> {
  const burst = await sendCounted(probes, bucket, Math.max(0, max - tail), step, profile);
  if (burst.some((s) => isRefused(s, profile))) return burst;
  return [...burst, ...(await fillUntilRefused(probes, bucket, max - burst.length, step, profile))];
}

/** The longest wait a rate-limit check ever asks for, ms: one window and a few seconds of margin. */
function maxRlWaitMs(profile: Profile): number {
  return windowMs(profile) + 5000;
}

/**
 * Lets target time pass until `instant` (target ms); nothing when it has passed already.
 * A wait beyond one window is never asked of the clock: whatever a target
 * answered (a huge Retry-After), that would be a harness bug, so it throws.
 */
export async function waitUntil(ctx: CheckContext, instant: number): Promise<void> {
  const left = instant - ctx.clock.now();
  if (!(left <= maxRlWaitMs(ctx.profile)))
    throw new RangeError(`a rate-limit check asked to wait ${left} ms, more than one window (${windowMs(ctx.profile)} ms)`);
  if (left > 0) await ctx.clock.wait(left, 'the rate-limit window to roll on');
}

/** Margin added past a window edge, covering the time a request takes (REFERENCE-API.md section 8 uses a quarter second). */
export const RL_EDGE_MARGIN_MS = 250;

/** The window length of the profile, ms. */
export function windowMs(profile: Profile): number {
  return profile.limits.window_s * 1000;
}

/** An outcome for a check that could not learn its limits (ERROR), or whose limits are over the fill ceiling (WARN). */
export function limitsUnknown(result: RlLimitsUnusable): CheckOutcome {
  const out = errored(result.error, ...result.shots);
  return result.verdict === 'WARN' ? { ...out, verdict: 'WARN' } : out;
}
