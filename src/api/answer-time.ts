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
