import { randomBytes } from 'node:crypto';
import { request } from 'undici';
import { serviceWebhookHeaders } from '../../protocol/index.js';
import type { WebhookProbe } from './observed.js';

/** How far in the past the stale delivery is stamped, s: well beyond the 300 s tolerance. */
const STALE_BY_S = 600;

/** Real time the client's endpoint has to answer one probe, ms. */
const PROBE_TIMEOUT_MS = 5_000;

/** What the probes need to know. */
interface ProbeInput {
  url: string;
  agencyId: string;
  /** The agency's `whsec_` secret. */
  webhookSecret: string;
  /** A booking the client really made (the body of its 201), carried by the probe events. */
  booking: Record<string, unknown>;
  /** Next evidence id. */
  nextId: () => string;
  /** Real time now, ms. @defaultValue Date.now */
  now?: () => number;
}

function eventId(): string {
  return `evt_${randomBytes(12).toString('base64url')}`;
}

/** A secret the agency does not hold: what a forger would sign with. */
function forgedSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

async function post(input: ProbeInput, kind: WebhookProbe['kind'], headers: Record<string, string>, body: string): Promise<WebhookProbe> {
  const now = input.now ?? Date.now;
  const atMs = now();
  const t0 = performance.now();
  const probe: WebhookProbe = { id: input.nextId(), kind, url: input.url, atMs, headers, body, status: null, durationMs: 0 };
  try {
    const res = await request(input.url, {
      method: 'POST',
      headers,
      body,
      headersTimeout: PROBE_TIMEOUT_MS,
      bodyTimeout: PROBE_TIMEOUT_MS,
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    await res.body.dump().catch(() => undefined);
    probe.status = res.statusCode;
  } catch (err) {
    probe.error = err instanceof Error ? err.message : String(err);
  }
  probe.durationMs = Math.round(performance.now() - t0);
  return probe;
}

/**
 * Sends the client's webhook endpoint the deliveries a good receiver must
 * judge: one correctly signed event twice with the same id (both must be
 * acknowledged), one signed with a key the agency does not hold (must be
 * refused) and one correctly signed but stamped {@link STALE_BY_S} s in the
 * past (must be refused). One after the other, in that order.
 */
export async function sendWebhookProbes(input: ProbeInput): Promise<WebhookProbe[]> {
  const now = input.now ?? Date.now;
  const nowS = (): number => Math.floor(now() / 1000);
  const event = (id: string): string =>
    JSON.stringify({ id, type: 'booking.confirmed', created_at: new Date(now()).toISOString(), agency_id: input.agencyId, data: { booking: input.booking } });
  const probes: WebhookProbe[] = [];

  const dupId = eventId();
  const dupBody = event(dupId);
  probes.push(
    await post(
      input,
      'duplicate-first',
      serviceWebhookHeaders({ id: dupId, timestamp: nowS(), attempt: 1, body: dupBody, secret: input.webhookSecret }),
      dupBody,
    ),
  );
  probes.push(
    await post(
      input,
      'duplicate-second',
      serviceWebhookHeaders({ id: dupId, timestamp: nowS(), attempt: 2, body: dupBody, secret: input.webhookSecret }),
      dupBody,
    ),
  );

  const forgedId = eventId();
  const forgedBody = event(forgedId);
  probes.push(
    await post(
      input,
      'forged-signature',
      serviceWebhookHeaders({ id: forgedId, timestamp: nowS(), attempt: 1, body: forgedBody, secret: forgedSecret() }),
      forgedBody,
    ),
  );

  const staleId = eventId();
  const staleBody = event(staleId);
  probes.push(
    await post(
      input,
      'stale-timestamp',
      serviceWebhookHeaders({ id: staleId, timestamp: nowS() - STALE_BY_S, attempt: 1, body: staleBody, secret: input.webhookSecret }),
      staleBody,
    ),
  );
  return probes;
}
