import { FAILING_ARRIVALS } from '../_internal/wh-scenario.js';
import type { RunCache } from '../run-cache.js';

/** A webhook retry schedule: attempt 2 comes `baseMs` after attempt 1, each gap after that `factor` times the one before. */
interface WebhookSchedule {
  baseMs: number;
  factor: number;
}

/**
 * The retry schedule the service followed in this run, from the arrival times
 * of the attempts of an always-failing delivery; undefined when no such
 * delivery ran or it had fewer than three attempts.
 */
export function learnedWebhookSchedule(runCache: RunCache): WebhookSchedule | undefined {
  const at = runCache.getOrCreate(FAILING_ARRIVALS, (): { at?: number[] } => ({})).at;
  if (!at || at.length < 3) return undefined;
  const base = at[1]! - at[0]!;
  const next = at[2]! - at[1]!;
  if (base <= 0) return undefined;
  return { baseMs: base, factor: next / base };
}
