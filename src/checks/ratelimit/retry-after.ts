import type { Profile } from '../../profile/types.js';
import { fillUntilRefused, limitsUnknown, rlLimits, rlProbes, waitUntil, windowMs } from '../_internal/rl-probes.js';
import { describeShot, isRefused, rlHeaders, type RlShot } from '../_internal/rl-shot.js';
import { Findings } from '../_internal/findings.js';
import type { Check, CheckOutcome } from '../types.js';

/** How long before `Retry-After` the early request is sent, ms (REFERENCE-API.md section 8: the quarter second covers the time a request takes). */
export const RETRY_AFTER_EARLY_MS = 1250;

/** What RL-03 saw. */
export interface RetryAfterObservations {
  /** Write probes until the first refusal; the last is the 429 whose Retry-After is judged. */
  fill: RlShot[];
  /** Target time the 429 arrived, ms. */
  refusedAt: number;
  /** Sent `Retry-After − 1.25 s` after the 429 arrived: must be refused. */
  early?: RlShot;
  /** Sent `Retry-After` after the 429 arrived: must be admitted. */
  onTime?: RlShot;
}

/** The Retry-After value of a 429 in whole seconds, or a reason it is not usable. */
export function retryAfterSeconds(shot: RlShot, profile: Profile): { seconds: number } | { problem: string } {
  const raw = rlHeaders(shot, profile).raw.retryAfter;
  if (raw === undefined) return { problem: `the ${shot.status} carries no ${profile.headers.retry_after} header` };
  if (!/^\d+$/.test(raw.trim())) return { problem: `${profile.headers.retry_after} is ${JSON.stringify(raw)}, not integer delay-seconds` };
  const seconds = Number(raw.trim());
  if (seconds < 1) return { problem: `${profile.headers.retry_after} is ${seconds}, it must be at least 1` };
  return { seconds };
}

/**
 * Judges RL-03: the 429 carries an integer `Retry-After` ≥ 1 (equal to
 * details.retry_after_s when the body gives one), a request sent 1.25 s
 * before it elapses is still refused (not too long) and one sent when it
 * elapses is admitted (not too short).
 */
export function judgeRetryAfter(obs: RetryAfterObservations, profile: Profile): CheckOutcome {
  const v = new Findings();
  const refusal = obs.fill[obs.fill.length - 1];
  if (!refusal || !isRefused(refusal, profile)) {
    v.fail(`the write bucket never refused a request (${obs.fill.length} sent), so no Retry-After could be judged`, refusal?.exchangeId);
    return v.outcome('');
  }
  v.see(refusal.exchangeId);
  const ra = retryAfterSeconds(refusal, profile);
  if ('problem' in ra) {
    v.fail(ra.problem, refusal.exchangeId);
    return v.outcome('');
  }
  const details = refusal.details as Record<string, unknown> | undefined;
  if (details && typeof details === 'object' && details.retry_after_s !== undefined && details.retry_after_s !== ra.seconds) {
    v.fail(`details.retry_after_s is ${JSON.stringify(details.retry_after_s)} but ${profile.headers.retry_after} is ${ra.seconds}`, refusal.exchangeId);
  }
  const early = obs.early;
  if (!early) v.fail('no request was sent before Retry-After elapsed');
  else if (!isRefused(early, profile)) {
    v.fail(
      `${profile.headers.retry_after} ${ra.seconds} is too long: a request ${((early.at - obs.refusedAt) / 1000).toFixed(2)} s after the 429 (1.25 s before it elapsed) was admitted, ${describeShot(early)}`,
      refusal.exchangeId,
      early.exchangeId,
    );
  } else v.see(early.exchangeId);
  const onTime = obs.onTime;
  if (!onTime) v.fail('no request was sent when Retry-After elapsed');
  else if (isRefused(onTime, profile)) {
    v.fail(
      `${profile.headers.retry_after} ${ra.seconds} is too short: a request ${((onTime.at - obs.refusedAt) / 1000).toFixed(2)} s after the 429 was still refused, ${describeShot(onTime)}`,
      refusal.exchangeId,
      onTime.exchangeId,
    );
  } else v.see(onTime.exchangeId);
  return v.outcome(`${profile.headers.retry_after} ${ra.seconds} was exact: refused 1.25 s before it elapsed, admitted when it did`, { retryAfterS: ra.seconds });
}

/** RL-03: Retry-After present, integer, and right. */
export const retryAfterCheck: Check = {
  id: 'RL-03',
  title: 'A 429 carries a Retry-After that is neither early nor late',
  area: 'ratelimit',
  clause: 'SPEC §8.5: a 429 response carries Retry-After (REFERENCE-API §8: the ceiling of the time until the next request is admitted)',
  needs: [],
  fills: ['0:write'],
  // The retry itself waits about one window after the burst; against a real service this is real time.
  waitsMs: (p) => windowMs(p) + 1000,
  async run(ctx) {
    const limits = await rlLimits(ctx, 0);
    if ('error' in limits) return limitsUnknown(limits);
    const probes = rlProbes(ctx, 0);
    const fill = await fillUntilRefused(probes, 'write', limits.write + 2, 'fill', ctx.profile);
    const refusedAt = ctx.clock.now();
    const refusal = fill[fill.length - 1];
    const obs: RetryAfterObservations = { fill, refusedAt };
    const ra = refusal && isRefused(refusal, ctx.profile) ? retryAfterSeconds(refusal, ctx.profile) : undefined;
    if (ra && 'seconds' in ra) {
      // Requests answered 429 are not counted, so the early probe does not move the instant the slot frees.
      await waitUntil(ctx, refusedAt + ra.seconds * 1000 - RETRY_AFTER_EARLY_MS);
      obs.early = await probes.write('early');
      await waitUntil(ctx, refusedAt + ra.seconds * 1000);
      obs.onTime = await probes.write('on time');
    }
    return judgeRetryAfter(obs, ctx.profile);
  },
};
