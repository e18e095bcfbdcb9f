import type { MockClock, TimerHandle } from '../../clock/mock-clock.js';
import type { WebhookDelivery } from './delivery.js';
import { InFlight } from './post-webhook.js';

/** True when a receiver's answer counts as delivered (any 2xx). */
export function isDelivered(status: number | null): boolean {
  return status !== null && status >= 200 && status < 300;
}

/**
 * The bookkeeping both webhook senders of the mock share: attempts in flight,
 * retries on the mock clock, the delivery log, and a generation that `reset()`
 * bumps so attempts still in flight from before it leave no trace.
 */
export class DeliveryAttempts {
  private readonly inFlight = new InFlight();
  private readonly retries = new Map<number, TimerHandle>();
  private nextRetryId = 1;
  private log: WebhookDelivery[] = [];
  private generation = 0;

  constructor(private readonly clock: MockClock) {}

  /** Starts an event's first attempt now (not awaited); `attempt` gets the generation to pass on to `record` and `retryAt`. */
  start(attempt: (generation: number) => Promise<void>): void {
    this.inFlight.track(attempt(this.generation));
  }

  /** Logs a finished attempt; false (and nothing logged) when a reset came since its event started, so no retry may follow. */
  record(generation: number, delivery: WebhookDelivery): boolean {
    if (generation !== this.generation) return false;
    this.log.push(delivery);
    return true;
  }

  /** Makes `attempt` at clock instant `dueAt`, stamped with the instant it was due, unless a reset comes first. */
  retryAt(dueAt: number, generation: number, attempt: (dueAt: number) => Promise<void>): void {
    const retryId = this.nextRetryId++;
    const handle = this.clock.at(dueAt, (firedAt) => {
      this.retries.delete(retryId);
      if (generation !== this.generation) return;
      const run = attempt(firedAt);
      this.inFlight.track(run);
      return run;
    });
    this.retries.set(retryId, handle);
  }

  /** Every attempt logged since the last reset, in the order they finished. */
  deliveries(): WebhookDelivery[] {
    return this.log.map((d) => ({ ...d }));
  }

  /** Resolves when no attempt is in flight. */
  idle(): Promise<void> {
    return this.inFlight.idle();
  }

  /** Drops pending retries and the log; the clock's other timers are left alone. */
  reset(): void {
    this.generation += 1;
    for (const handle of this.retries.values()) handle.cancel();
    this.retries.clear();
    this.log = [];
  }
}
