/*
 * When an answer was given, on the harness clock and on the target's: what
 * a check or the runner reads of the target's time from one answer.
 */
import type { ApiResponse } from './types.js';

/** Harness instant an answer was given: halfway through its round trip. */
export function answeredAt(res: Pick<ApiResponse, 'exchange'>): number {
  return res.exchange.startedAt + Math.max(0, res.exchange.durationMs) / 2;
}

/** The target's clock minus the harness clock, ms, from an answer's `Date` header (whole seconds: the middle of that second is taken); undefined without one. */
export function dateOffsetMs(res: Pick<ApiResponse, 'headers' | 'exchange'>): number | undefined {
  const value = res.headers['date'] ?? res.headers['Date'];
  const at = value === undefined ? NaN : Date.parse(value);
  return Number.isFinite(at) ? at + 500 - answeredAt(res) : undefined;
}

/**
 * The lifetime, s, a service gave a quote that expires at `expiresAt`
 * (`quote_expires_at`) in an answer `res` that came by `now` (the target's
 * clock): the expiry minus the middle of the round trip, the best guess of
 * when the service stamped it; undefined without a readable expiry. The run
 * and the certification learn a service's quote lifetime this way rather
 * than trust the profile.
 */
export function quoteLifetimeS(expiresAt: string | undefined, res: Pick<ApiResponse, 'exchange'>, now: number): number | undefined {
  const at = expiresAt === undefined ? NaN : Date.parse(expiresAt);
  if (!Number.isFinite(at)) return undefined;
  const answered = (res.exchange.startedAt + now) / 2;
  return Math.round((at - answered) / 1000);
}
