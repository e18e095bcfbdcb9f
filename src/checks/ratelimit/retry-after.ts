import type { Profile } from '../../profile/index.js';
import { retryAfterBeyondWindow, retryAfterSeconds, WRITE_EPISODE_MEMBER, writeEpisode } from '../_internal/rl-episode.js';
import { limitsUnknown } from '../_internal/rl-probes.js';
import { describeShot, isRefused, judgeUnrefusedFill, type RlShot } from '../_internal/rl-shot.js';
import { Findings } from '../findings.js';
import type { Check, CheckOutcome } from '../types.js';

/** What RL-03 saw. */
interface RetryAfterObservations {
  /** Write probes until the first refusal; the last is the 429 whose Retry-After is judged. */
  fill: RlShot[];
  /** Target time the 429 arrived, ms. */
  refusedAt: number;
  /** Sent `Retry-After − 1.25 s` after the 429 arrived: must be refused. */
  early?: RlShot | undefined;
  /** Sent `Retry-After` after the 429 arrived: must be admitted. */
  onTime?: RlShot | undefined;
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
    judgeUnrefusedFill(v, obs.fill, profile, `the write bucket never refused a request (${obs.fill.length} sent)`, 'so no Retry-After could be judged');
    return v.outcome('');
  }
  v.see(refusal.exchangeId);
  const ra = retryAfterSeconds(refusal, profile);
  if ('problem' in ra) {
    v.fail(ra.problem, refusal.exchangeId);
    return v.outcome('');
  }
  const beyond = retryAfterBeyondWindow(ra.seconds, profile);
  if (beyond) {
    // Never waited for: a slot frees within one window whatever came before.
    v.fail(`too long: ${beyond}`, refusal.exchangeId);
    return v.outcome('');
  }
  const details = refusal.details as Record<string, unknown> | undefined;
  if (details && typeof details === 'object' && details.retry_after_s !== undefined && details.retry_after_s !== ra.seconds) {
    v.fail(`details.retry_after_s is ${JSON.stringify(details.retry_after_s)} but ${profile.headers.retry_after} is ${ra.seconds}`, refusal.exchangeId);
  }
  const early = obs.early;
  if (!early) v.fail('no request was sent before Retry-After elapsed');
  else if (!isRefused(early, profile) && early.at + (early.durationMs ?? 0) >= refusal.at + (ra.seconds - 1) * 1000) {
    // Retry-After is a ceiling: the slot frees after refusal.at + (N − 1) s at the earliest. An early request
    // whose answer came later than that may have been admitted after the slot freed, and proves nothing.
    v.warn(
      `the request meant for 1.25 s before ${profile.headers.retry_after} elapsed was admitted, but it went out ${((early.at - obs.refusedAt) / 1000).toFixed(2)} s after the 429 and took ${Math.round(early.durationMs ?? 0)} ms: too late to show it too long`,
      early.exchangeId,
    );
  } else if (!isRefused(early, profile)) {
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
  return v.outcome(`${profile.headers.retry_after} ${ra.seconds} was exact: refused 1.25 s before it elapsed, admitted when it did`, {
    retryAfterS: ra.seconds,
  });
}

/** RL-03: Retry-After present, integer, and right. */
export const retryAfterCheck: Check = {
  id: 'RL-03',
  title: 'A 429 carries a Retry-After that is neither early nor late',
  area: 'ratelimit',
  clause: 'SPEC §8.5: a 429 response carries Retry-After (REFERENCE-API §8: the ceiling of the time until the next request is admitted)',
  needs: [],
  ...WRITE_EPISODE_MEMBER,
  async run(ctx) {
    const ep = await writeEpisode(ctx);
    if ('error' in ep) return limitsUnknown(ep);
    return judgeRetryAfter({ fill: ep.fill, refusedAt: ep.filledAt, early: ep.early, onTime: ep.onTime }, ctx.profile);
  },
};
