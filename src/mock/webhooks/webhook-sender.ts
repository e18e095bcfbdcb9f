import type { MockClock } from '../../clock/mock-clock.js';
import type { OutgoingEvent, WebhookDelivery } from './delivery.js';
import { DeliveryAttempts } from './delivery-attempts.js';

/**
 * What the mock's two webhook senders (the service's and the hotel API's)
 * have in common: the attempt bookkeeping, starting an event's first attempt,
 * and the log, idle and reset operations the mock and its admin API call.
 * Each sender decides how an attempt is signed and whether it is retried.
 */
export abstract class WebhookSender {
  protected readonly attempts: DeliveryAttempts;

  constructor(clock: MockClock) {
    this.attempts = new DeliveryAttempts(clock);
  }

  /** Every attempt made since the last reset, in the order they finished. */
  deliveries(): WebhookDelivery[] {
    return this.attempts.deliveries();
  }

  /** Resolves when no attempt is in flight. */
  idle(): Promise<void> {
    return this.attempts.idle();
  }

  /** Drops pending retries and the delivery log; the clock's other timers are left alone. */
  reset(): void {
    this.attempts.reset();
  }

  /** Starts `event`'s first attempt now, stamped `nowMs` (not awaited); returns the event id. */
  protected start(event: OutgoingEvent, nowMs: number): string {
    this.attempts.start((generation) => this.attempt(event, 1, nowMs, generation));
    return event.id;
  }

  /** Makes attempt `n` of `event`, stamped `stampMs`, and schedules the next one when the sender retries. */
  protected abstract attempt(event: OutgoingEvent, n: number, stampMs: number, generation: number): Promise<void>;
}
