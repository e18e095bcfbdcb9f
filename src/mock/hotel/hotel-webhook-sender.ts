import { createHmac, randomBytes } from 'node:crypto';
import type { MockClock, TimerHandle } from '../../clock/mock-clock.js';
import type { DefectSet } from '../defects/defect-set.js';
import { HOTEL_WEBHOOK_SIGNATURE_HEADER } from '../../webhook/header-names.js';
import { signHotelWebhook } from '../../webhook/hotel-signature.js';
import type { WebhookDelivery } from '../webhooks/delivery.js';
import { DEFAULT_WEBHOOK_TIMEOUT_MS, InFlight, postWebhook, rfc3339 } from '../webhooks/post-webhook.js';

/** Delay before the one retry the `hotel-webhook-retried` defect adds, in clock ms. */
export const HOTEL_DEFECT_RETRY_DELAY_MS = 5_000;

interface HotelEvent {
  id: string;
  type: string;
  url: string;
  secret: string;
  body: Buffer;
}

/**
 * Sends the hotel API's events (REFERENCE-API.md section 10): Stripe-style
 * signature, exactly one attempt whatever the receiver answers.
 */
export class HotelWebhookSender {
  private readonly inFlight = new InFlight();
  private readonly retries = new Set<TimerHandle>();
  private log: WebhookDelivery[] = [];
  private generation = 0;

  constructor(
    private readonly clock: MockClock,
    private readonly defects: DefectSet,
    private readonly timeoutMs: number = DEFAULT_WEBHOOK_TIMEOUT_MS,
  ) {}

  /** Sends one event (not awaited); returns its id, or undefined when `url` is null. */
  send(input: { url: string | null | undefined; secret: string; type: string; data: Record<string, unknown> }): string | undefined {
    if (!input.url) return undefined;
    const now = this.clock.now();
    const id = `hevt_${randomBytes(12).toString('base64url')}`;
    const body = Buffer.from(JSON.stringify({ id, type: input.type, created_at: rfc3339(now), data: input.data }), 'utf8');
    this.inFlight.track(this.attempt({ id, type: input.type, url: input.url, secret: input.secret, body }, 1, now, this.generation));
    return id;
  }

  /** Every attempt made since the last reset. */
  deliveries(): WebhookDelivery[] {
    return this.log.map((d) => ({ ...d }));
  }

  /** Resolves when no attempt is in flight. */
  idle(): Promise<void> {
    return this.inFlight.idle();
  }

  /** Drops the log (and any retry the defect scheduled). */
  reset(): void {
    this.generation += 1;
    for (const h of this.retries) h.cancel();
    this.retries.clear();
    this.log = [];
  }

  private signature(timestampS: number, body: Buffer, secret: string): string {
    if (this.defects.has('hotel-bad-signature')) {
      // The defect: the timestamp is left out of what is signed.
      return `t=${timestampS},v1=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex')}`;
    }
    return signHotelWebhook({ timestamp: timestampS, body, secret });
  }

  private async attempt(event: HotelEvent, n: number, stampMs: number, generation: number): Promise<void> {
    const headers = {
      'content-type': 'application/json',
      [HOTEL_WEBHOOK_SIGNATURE_HEADER]: this.signature(Math.floor(stampMs / 1000), event.body, event.secret),
    };
    const status = await postWebhook(event.url, headers, event.body, this.timeoutMs);
    if (generation !== this.generation) return;
    this.log.push({ event_id: event.id, type: event.type, attempt: n, url: event.url, status, at_ms: stampMs });
    const delivered = status !== null && status >= 200 && status < 300;
    if (delivered || n > 1 || !this.defects.has('hotel-webhook-retried')) return;
    const handle = this.clock.at(stampMs + HOTEL_DEFECT_RETRY_DELAY_MS, (dueAt) => {
      this.retries.delete(handle);
      if (generation !== this.generation) return;
      const run = this.attempt(event, n + 1, dueAt, generation);
      this.inFlight.track(run);
      return run;
    });
    this.retries.add(handle);
  }
}
