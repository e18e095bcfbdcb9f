/**
 * Moves time at the target. Against the mock it advances the mock's clock;
 * against a real service it waits in real time. Checks only say `wait(ms)`.
 */
export interface ClockDriver {
  readonly kind: 'mock' | 'real';
  /** The target's current time, ms since epoch (real time plus the known offset). */
  now(): number;
  /** Lets `ms` of target time pass (instantly on the mock; due webhook attempts are made before it resolves). */
  wait(ms: number): Promise<void>;
}
