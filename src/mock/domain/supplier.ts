import { setTimeout as delay } from 'node:timers/promises';

/** Prefix of `client_reference` that makes the supplier refuse (REFERENCE-API.md section 5). */
const SUPPLIER_FAIL_PREFIX = 'FAIL-SUPPLIER';

/**
 * The simulated supplier behind bookings and cancellations. Its answer comes
 * after a real (short) delay, so that a booking is genuinely in flight and
 * concurrent requests with one idempotency key really overlap.
 */
export class Supplier {
  constructor(private readonly latencyMs: number) {}

  /** Confirms a booking; false when the supplier refuses it. */
  async confirm(clientReference: string | null): Promise<boolean> {
    await delay(this.latencyMs);
    return !(clientReference ?? '').startsWith(SUPPLIER_FAIL_PREFIX);
  }

  /** Cancels a booking with the supplier. */
  async cancel(): Promise<void> {
    await delay(this.latencyMs);
  }
}
