import type { RunCache } from '../checks/run-cache.js';
import type { LearnedTarget } from '../checks/types.js';
import { learnedWebhookSchedule } from '../checks/webhooks/learned-schedule.js';
import type { Exchange } from '../client/exchange.js';
import type { Profile } from '../profile/index.js';

/** Requests the scenarios send, roughly (for the estimate). */
export const SCENARIO_REQUESTS = 150;
/** Requests the properties send, roughly (for the estimate). */
export const PROPERTY_REQUESTS = 300;
/** Local work of the scenarios or the properties beyond their round trips, ms (for the estimate). */
export const PART_OVERHEAD_MS = 1000;

/** A learned quote lifetime this far from the profile's is worth a note, s. */
const LIFETIME_SLACK_S = 5;
/** A learned webhook schedule this far (relative) from the profile's is worth a note. */
const SCHEDULE_SLACK = 0.25;

/**
 * The round trip of one request, ms (at least 1; 20 when no exchange was made):
 * the fastest of `exchanges`, as the first exchanges of a run also pay for
 * opening connections, which later requests reuse.
 */
export function roundTripMs(exchanges: readonly Exchange[]): number {
  const times = exchanges.map((x) => x.durationMs).filter((d) => Number.isFinite(d) && d >= 0);
  if (times.length === 0) return 20;
  return Math.max(1, Math.min(...times));
}

/** A note when the quotes the service gives live longer or shorter than the profile says. */
export function quoteLifetimeNote(profile: Readonly<Profile>, learned: LearnedTarget): string | undefined {
  const s = learned.quoteLifetimeS;
  if (s === undefined || Math.abs(s - profile.quotes.lifetime_s) <= LIFETIME_SLACK_S) return undefined;
  return `The service's quotes live ${s} s (quote_expires_at minus the time of the answer), not the profile's quotes.lifetime_s of ${profile.quotes.lifetime_s} s: the checks that wait for a quote to expire or a price to move planned with ${s} s.`;
}

/** A note when the retry schedule the service followed differs from the profile's (the webhook checks still judge against the profile). */
export function webhookScheduleNote(profile: Readonly<Profile>, runCache: RunCache): string | undefined {
  const seen = learnedWebhookSchedule(runCache);
  if (!seen) return undefined;
  const { base_ms: base, factor } = profile.webhooks;
  const off = (a: number, b: number): boolean => Math.abs(a - b) > SCHEDULE_SLACK * Math.max(Math.abs(b), 1e-9);
  if (!off(seen.baseMs, base) && !off(seen.factor, factor)) return undefined;
  return `The service retried webhooks after ${Math.round(seen.baseMs)} ms, then ${seen.factor.toFixed(2)} times longer each time; the profile says webhooks.base_ms ${base} and factor ${factor} (the webhook checks judge against the profile).`;
}
