import type { Profile } from '../../profile/index.js';
import { WRITE_EPISODE_MEMBER, writeEpisode } from '../_internal/rl-episode.js';
import { limitsUnknown } from '../_internal/rl-probes.js';
import { bucketName, isRefused, outlastedWindow, rlHeaders, type RlBucket, type RlShot } from '../_internal/rl-shot.js';
import { Findings } from '../findings.js';
import type { Check, CheckOutcome } from '../types.js';

/** What RL-07 saw: a few reads, and writes from an empty window until the first refusal. */
interface RateLimitHeadersObservations {
  limits: { read: number; write: number };
  read: RlShot[];
  write: RlShot[];
}

/**
 * Judges RL-07 on each sequence of one bucket: every response carries the four
 * X-RateLimit-* headers; Limit is the agency's limit; Resource names the
 * bucket; Remaining (after counting the request) is below Limit and falls by
 * exactly one per admitted request; Reset is 0 while Remaining > 0 and between
 * 1 and the window when it is 0; the request after Remaining 0 is refused and
 * the one after Remaining > 0 is admitted; a 429 reports Remaining 0.
 */
export function judgeRateLimitHeaders(obs: RateLimitHeadersObservations, profile: Profile): CheckOutcome {
  const v = new Findings();
  const h = profile.headers;
  const windowS = profile.limits.window_s;
  let judged = 0;
  for (const bucket of ['read', 'write'] as RlBucket[]) {
    const limit = obs.limits[bucket];
    const name = bucketName(bucket, profile);
    let prev: { shot: RlShot; remaining: number } | undefined;
    // From an empty window, no slot frees until a window after the first request: one response to the next is judged only until then.
    let late: { shot: RlShot; why: string } | undefined;
    for (const shot of obs[bucket]) {
      const f = rlHeaders(shot, profile);
      const refused = isRefused(shot, profile);
      const missing = (
        [
          [h.ratelimit_limit, f.limit, f.raw.limit],
          [h.ratelimit_remaining, f.remaining, f.raw.remaining],
          [h.ratelimit_reset, f.resetS, f.raw.reset],
          [h.ratelimit_resource, f.resource, f.raw.resource],
        ] as const
      ).filter(([, parsed]) => parsed === undefined);
      if (missing.length > 0) {
        const list = missing.map(([n, , raw]) => (raw === undefined ? `${n} missing` : `${n} ${JSON.stringify(raw)} not a non-negative integer`)).join(', ');
        v.fail(`${bucket} response ${shot.exchangeId} (${shot.status}): ${list}`, shot.exchangeId);
        // One sequence's worth of the same complaint says it all.
        break;
      }
      judged += 1;
      const remaining = f.remaining!;
      if (f.limit !== limit)
        v.fail(`${bucket} response ${shot.exchangeId}: ${h.ratelimit_limit} is ${f.limit}, the agency's ${bucket} limit is ${limit}`, shot.exchangeId);
      if (f.resource !== name)
        v.fail(`${bucket} response ${shot.exchangeId}: ${h.ratelimit_resource} is ${JSON.stringify(f.resource)}, not ${JSON.stringify(name)}`, shot.exchangeId);
      if (!refused && remaining >= limit) {
        v.fail(
          `${bucket} response ${shot.exchangeId}: ${h.ratelimit_remaining} is ${remaining} after counting the request, but the limit is ${limit} (at most ${limit - 1} can remain)`,
          shot.exchangeId,
        );
      }
      if (refused && remaining !== 0) v.fail(`the ${shot.status} ${shot.exchangeId} reports ${h.ratelimit_remaining} ${remaining}, not 0`, shot.exchangeId);
      if (remaining > 0 && f.resetS !== 0)
        v.fail(
          `${bucket} response ${shot.exchangeId}: ${h.ratelimit_reset} is ${f.resetS} while ${h.ratelimit_remaining} is ${remaining} (must be 0)`,
          shot.exchangeId,
        );
      if (remaining === 0 && (f.resetS! < 1 || f.resetS! > windowS)) {
        v.fail(`${bucket} response ${shot.exchangeId}: ${h.ratelimit_reset} is ${f.resetS} with nothing remaining (must be 1 to ${windowS})`, shot.exchangeId);
      }
      const why = late ? undefined : outlastedWindow(obs[bucket], profile, shot);
      if (why) late = { shot, why };
      if (prev && !late) {
        if (refused && prev.remaining > 0) {
          v.fail(
            `${prev.shot.exchangeId} said ${prev.remaining} ${bucket} requests remained, but the next one was refused`,
            prev.shot.exchangeId,
            shot.exchangeId,
          );
        }
        if (!refused && prev.remaining === 0 && !isRefused(prev.shot, profile)) {
          v.fail(`${prev.shot.exchangeId} said no ${bucket} request remained, but the next one was admitted`, prev.shot.exchangeId, shot.exchangeId);
        }
        if (!refused && !isRefused(prev.shot, profile) && remaining !== prev.remaining - 1) {
          v.fail(
            `${h.ratelimit_remaining} went from ${prev.remaining} to ${remaining} over one admitted ${bucket} request (must fall by one)`,
            prev.shot.exchangeId,
            shot.exchangeId,
          );
        }
      }
      prev = { shot, remaining };
    }
    if (late)
      v.warn(
        `${bucket} responses from ${late.shot.exchangeId} on were not judged against the one before: ${late.why.replace('the limit', 'how the count falls')}`,
        late.shot.exchangeId,
      );
  }
  const all = [...obs.read, ...obs.write];
  v.see(all[0]?.exchangeId, obs.write[obs.write.length - 2]?.exchangeId, obs.write[obs.write.length - 1]?.exchangeId);
  return v.outcome(`X-RateLimit-* headers were present and consistent on ${judged} responses of both buckets`, { judged, limits: obs.limits });
}

/** RL-07: the X-RateLimit-* headers tell the truth. */
export const rateLimitHeadersCheck: Check = {
  id: 'RL-07',
  title: 'X-RateLimit-* headers are present and consistent from response to response',
  area: 'ratelimit',
  clause: 'SPEC §8.4: usage is reported in response headers with the prefix X-RateLimit-',
  needs: [],
  ...WRITE_EPISODE_MEMBER,
  async run(ctx) {
    const ep = await writeEpisode(ctx);
    if ('error' in ep) return limitsUnknown(ep);
    return judgeRateLimitHeaders({ limits: ep.limits, read: ep.headerReads, write: ep.fill }, ctx.profile);
  },
};
