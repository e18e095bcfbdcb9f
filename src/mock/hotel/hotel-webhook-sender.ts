import { createHmac, randomBytes } from 'node:crypto';
import type { MockClock } from '../../clock/mock-clock.js';
import type { DefectSet } from '../defects/defect-set.js';
import { HOTEL_WEBHOOK_SIGNATURE_HEADER, signHotelWebhook } from '../../protocol/index.js';
import type { OutgoingEvent } from '../webhooks/delivery.js';
import { isDelivered } from '../webhooks/delivery-attempts.js';
import { WebhookSender } from '../webhooks/webhook-sender.js';
import { DEFAULT_WEBHOOK_TIMEOUT_MS, postWebhook, rfc3339 } from '../webhooks/post-webhook.js';

/** Delay before the one retry the `hotel-webhook-retried` defect adds, in clock ms. */
export const HOTEL_DEFECT_RETRY_DELAY_MS = 5_000;

/**
 * Sends the hotel API's events (REFERENCE-API.md section 10): Stripe-style
 * signature, exactly one attempt whatever the receiver answers.
 */
export class HotelWebhookSender extends WebhookSender {
  constructor(
    private readonly clock: MockClock,
    private readonly defects: DefectSet,
    private readonly timeoutMs: number = DEFAULT_WEBHOOK_TIMEOUT_MS,
  ) {
    super(clock);
  }

  /** Sends one event (not awaited); returns its id, or undefined when `url` is null. */
  send(input: { url: string | null | undefined; secret: string; type: string; data: Record<string, unknown> }): string | undefined {
    if (!input.url) return undefined;
    const now = this.clock.now();
    const id = `hevt_${randomBytes(12).toString('base64url')}`;
    const body = Buffer.from(JSON.stringify({ id, type: input.type, created_at: rfc3339(now), data: input.data }), 'utf8');
    const event: OutgoingEvent = { id, type: input.type, url: input.url, secret: input.secret, body };
    return this.start(event, now);
  }

  private signature(timestampS: number, body: Buffer, secret: string): string {
    if (this.defects.has('hotel-bad-signature')) {
      // The defect: the timestamp is left out of what is signed.
      return `t=${timestampS},v1=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex')}`;
    }
    return signHotelWebhook({ timestamp: timestampS, body, secret });
  }

  protected async attempt(event: OutgoingEvent, n: number, stampMs: number, generation: number): Promise<void> {
    const headers = {
      'content-type': 'application/json',
      [HOTEL_WEBHOOK_SIGNATURE_HEADER]: this.signature(Math.floor(stampMs / 1000), event.body, event.secret),
    };
    const status = await postWebhook(event.url, headers, event.body, this.timeoutMs);
    if (!this.attempts.record(generation, { event_id: event.id, type: event.type, attempt: n, url: event.url, status, at_ms: stampMs })) return;
    if (isDelivered(status) || n > 1 || !this.defects.has('hotel-webhook-retried')) return;
    this.attempts.retryAt(stampMs + HOTEL_DEFECT_RETRY_DELAY_MS, generation, (dueAt) => this.attempt(event, n + 1, dueAt, generation));
  }
}
