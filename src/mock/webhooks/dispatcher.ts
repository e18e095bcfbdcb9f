import { randomBytes } from 'node:crypto';
import type { MockClock } from '../../clock/mock-clock.js';
import type { DefectSet } from '../defects/defect-set.js';
import { serviceWebhookHeaders, WEBHOOK_SECRET_PREFIX } from '../../protocol/index.js';
import type { OutgoingEvent } from './delivery.js';
import { isDelivered } from './delivery-attempts.js';
import { WebhookSender } from './webhook-sender.js';
import { DEFAULT_WEBHOOK_TIMEOUT_MS, postWebhook, rfc3339 } from './post-webhook.js';

/** Options of the service's webhook dispatcher. */
interface WebhookDispatcherOptions {
  clock: MockClock;
  defects: DefectSet;
  /** Delay before attempt 2, in clock ms. */
  baseMs: number;
  /** Attempt 3 comes `baseMs × factor` after attempt 2. */
  factor: number;
  /**
   * Real time a receiver has to answer with a 2xx.
   * @defaultValue 10000
   */
  timeoutMs?: number;
}

/** One event to send to an agency's endpoint. */
interface EmitInput {
  agencyId: string;
  /** The agency's endpoint; null or absent means nothing is sent. */
  url: string | null | undefined;
  /** `whsec_` secret of the agency. */
  webhookSecret: string;
  /** e.g. `booking.confirmed`. */
  type: string;
  /** e.g. `{booking: {...}}` or `{cancellation: {...}}`. */
  data: Record<string, unknown>;
}

/** Most attempts a service event gets (REFERENCE-API.md section 9). */
const MAX_ATTEMPTS = 3;

/** A fresh event id. */
function newEventId(): string {
  return `evt_${randomBytes(12).toString('base64url')}`;
}

/**
 * Sends the service's outbound webhooks (REFERENCE-API.md section 9): signed
 * Standard-Webhooks style, at most three attempts, retries scheduled on the
 * mock clock so that moving the clock makes due attempts, each stamped with
 * the instant it was due.
 */
export class WebhookDispatcher extends WebhookSender {
  private readonly clock: MockClock;
  private readonly defects: DefectSet;
  private readonly baseMs: number;
  private readonly factor: number;
  private readonly timeoutMs: number;

  constructor(options: WebhookDispatcherOptions) {
    super(options.clock);
    this.clock = options.clock;
    this.defects = options.defects;
    this.baseMs = options.baseMs;
    this.factor = options.factor;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  }

  /**
   * Builds an event and starts its first attempt at once (not awaited).
   * Returns the event id, or undefined (and sends nothing) when `url` is null.
   */
  emit(input: EmitInput): string | undefined {
    if (input.url === null || input.url === undefined || input.url === '') return undefined;
    const now = this.clock.now();
    const id = newEventId();
    const event = { id, type: input.type, created_at: rfc3339(now), agency_id: input.agencyId, data: input.data };
    const pending: OutgoingEvent = {
      id,
      type: input.type,
      url: input.url,
      secret: input.webhookSecret,
      body: Buffer.from(JSON.stringify(event), 'utf8'),
    };
    return this.start(pending, now);
  }

  private maxAttempts(): number {
    if (this.defects.has('webhook-no-retry')) return 1;
    if (this.defects.has('webhook-extra-retry')) return MAX_ATTEMPTS + 1;
    return MAX_ATTEMPTS;
  }

  /** Delay between the failure of attempt `n` and attempt `n + 1`. */
  private gapAfter(n: number): number {
    if (this.defects.has('webhook-constant-backoff')) return this.baseMs;
    return this.baseMs * this.factor ** (n - 1);
  }

  protected async attempt(event: OutgoingEvent, n: number, stampMs: number, generation: number): Promise<void> {
    const id = this.defects.has('webhook-new-id') && n > 1 ? newEventId() : event.id;
    const secret = this.defects.has('webhook-bad-signature')
      ? // The wrong key: the secret's text bytes instead of its base64-decoded bytes.
        WEBHOOK_SECRET_PREFIX + Buffer.from(event.secret, 'utf8').toString('base64')
      : event.secret;
    let status: number | null;
    try {
      const headers = serviceWebhookHeaders({ id, timestamp: Math.floor(stampMs / 1000), attempt: n, body: event.body, secret });
      status = await postWebhook(event.url, headers, event.body, this.timeoutMs);
    } catch {
      // An unusable secret cannot sign; the attempt counts as failed.
      status = null;
    }
    if (!this.attempts.record(generation, { event_id: id, type: event.type, attempt: n, url: event.url, status, at_ms: stampMs })) return;
    const delivered = isDelivered(status);
    const resend = delivered && (n === 1 ? this.defects.has('webhook-resent-after-success') : this.defects.has('webhook-retries-continue'));
    if ((delivered && !resend) || n >= this.maxAttempts()) return;
    // The next attempt is due a fixed gap after this one's stamp, so schedules do not depend on real latency.
    this.attempts.retryAt(stampMs + this.gapAfter(n), generation, (dueAt) => this.attempt(event, n + 1, dueAt, generation));
  }
}
