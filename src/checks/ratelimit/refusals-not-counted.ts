import type { Profile } from '../../profile/index.js';
import { WRITE_EPISODE_MEMBER, writeEpisode } from '../_internal/rl-episode.js';
import { limitsUnknown, RL_EDGE_MARGIN_MS } from '../_internal/rl-probes.js';
import { admittedBeforeRefusal, isRefused, judgeUnrefusedFill, type RlShot } from '../_internal/rl-shot.js';
import { Findings } from '../findings.js';
import type { Check, CheckOutcome } from '../types.js';

/** What RL-08 saw (write bucket of the primary agency). */
interface RefusalsNotCountedObservations {
  limit: number;
  /** Writes from an empty window until the first refusal. */
  fill: RlShot[];
  /** More writes half a window later, while the bucket is still full: all refused. */
  refused: RlShot[];
  /** One window after the fill: sent until refused; the whole limit must be admitted, but for `stillCounted`. */
  after: RlShot[];
  /** Requests admitted since the fill (a retry when Retry-After said so): each counts until one window after it was sent. */
  stillCounted?: RlShot[] | undefined;
}

/**
 * Judges RL-08: requests answered 429 are not counted, so one window after
 * the last admitted request the whole limit is available again although
 * refused requests were sent inside that window.
 */
export function judgeRefusalsNotCounted(obs: RefusalsNotCountedObservations, profile: Profile): CheckOutcome {
  const v = new Findings();
  const last = obs.fill[obs.fill.length - 1];
  if (!last || !isRefused(last, profile)) {
    judgeUnrefusedFill(v, obs.fill, profile, `the write bucket never refused a request (${obs.fill.length} sent, limit ${obs.limit})`);
    return v.outcome('');
  }
  v.see(last.exchangeId);
  const slipped = obs.refused.find((s) => !isRefused(s, profile));
  if (slipped) v.fail(slippedSentence(slipped, obs, profile), slipped.exchangeId);
  else v.see(obs.refused[0]?.exchangeId);
  const admitted = admittedBeforeRefusal(obs.after, profile);
  const edge = obs.after[admitted] ?? obs.after[obs.after.length - 1];
  // An admission since the fill counts until one window after it; where the refusal came within a request's
  // duration of that instant (the admission instant is known only to that), either count is right.
  const W = profile.limits.window_s * 1000;
  const judgedAt = edge?.at ?? Number.POSITIVE_INFINITY;
  const since = obs.stillCounted ?? [];
  const surely = since.filter((s) => s.at + W > judgedAt);
  const maybe = since.filter((s) => s.at + W + RL_EDGE_MARGIN_MS > judgedAt);
  const counted = admitted < obs.limit - surely.length ? maybe : surely;
  const free = obs.limit - counted.length;
  const besides = counted.length > 0 ? ` (the limit ${obs.limit} less the ${counted.length} admitted since)` : '';
  if (admitted < free) {
    v.fail(
      `one window after the bucket filled only ${admitted} of ${free} requests were admitted${besides}: the ${obs.refused.length} requests refused half a window earlier were counted`,
      edge?.exchangeId,
      ...obs.refused.map((s) => s.exchangeId),
    );
  } else if (admitted > free) {
    v.fail(
      `one window after the bucket filled ${admitted} requests were admitted, only ${free} could be${besides}`,
      edge?.exchangeId,
      ...counted.map((s) => s.exchangeId),
    );
  } else v.see(edge?.exchangeId);
  return v.outcome(`refused requests were not counted: the whole limit of ${obs.limit} was available one window after the bucket filled`, {
    limit: obs.limit,
    admittedAfterWindow: admitted,
  });
}

/**
 * Why a request sent while the bucket was full is a failure, in words: a
 * write probe is answered 405 (or 404) once the rate limit let it through,
 * which reads as a refusal unless said so.
 */
function slippedSentence(slipped: RlShot, obs: RefusalsNotCountedObservations, profile: Profile): string {
  const answer = `${slipped.status}${slipped.code ? ` ${slipped.code}` : ''}`;
  const through =
    slipped.bucket === 'write' && slipped.status >= 400 && slipped.status < 500
      ? `got past the rate limit: it was answered ${answer}, the answer a write probe gets once admitted (its method does not apply to a booking that does not exist), not ${profile.errors.rate_limited.status} ${profile.errors.rate_limited.code}`
      : `was admitted (${answer}) instead of refused with ${profile.errors.rate_limited.status} ${profile.errors.rate_limited.code}`;
  return `half a window after the ${slipped.bucket} bucket filled (${obs.limit} admitted in its window), request ${slipped.exchangeId} ${through}; the bucket was still full, so the service should have refused it: its limit was not enforced`;
}

/** RL-08: 429s are not counted. */
export const refusalsNotCountedCheck: Check = {
  id: 'RL-08',
  title: 'Refused requests are not counted: after the window the whole limit is available',
  area: 'ratelimit',
  clause: 'SPEC §8.3: the counting window is a rolling one minute (REFERENCE-API §8: requests answered 429 are not counted)',
  needs: [],
  ...WRITE_EPISODE_MEMBER,
  async run(ctx) {
    const ep = await writeEpisode(ctx);
    if ('error' in ep) return limitsUnknown(ep);
    return judgeRefusalsNotCounted(
      { limit: ep.limits.write, fill: ep.fill, refused: ep.midWindow, after: ep.after, stillCounted: ep.stillCounted },
      ctx.profile,
    );
  },
};
