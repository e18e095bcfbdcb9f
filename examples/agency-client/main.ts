/**
 * An agency's integration with the Travel B2B Distribution Service, small but
 * careful. Flow: start a webhook receiver and register it, read the account,
 * then for every open product search → book → read → cancel, and wait until
 * the service has told us about every booking and cancellation.
 *
 * Configuration comes from the environment (`svc-harness certify-client`
 * sets it): SVC_BASE_URL, SVC_KEY_ID, SVC_SECRET, SVC_WEBHOOK_SECRET.
 */
import { randomUUID } from 'node:crypto';
import { errorCode, ServiceClient, type ServiceResponse } from './service-client.js';
import { WebhookReceiver } from './webhook-receiver.js';

const log = (line: string): void => console.log(`[agency-client] ${line}`);

function env(name: string): string {
  const v = process.env[name];
  if (!v) {
    console.error(`[agency-client] ${name} is not set`);
    process.exit(2);
  }
  return v;
}

function inDays(n: number): string {
  return new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
}

/** Search criteria per product. */
const CRITERIA: Record<string, Record<string, string | number>> = {
  flights: { origin: 'LIS', destination: 'MAD', departure_date: inDays(30), adults: 1 },
  transfers: { pickup: 'Lisbon airport', dropoff: 'Alfama', date: inDays(30), passengers: 2 },
  activities: { destination: 'Lisbon', date: inDays(31), participants: 2 },
  cars: { pickup_location: 'Lisbon airport', dropoff_location: 'Lisbon airport', pickup_date: inDays(30), dropoff_date: inDays(33), driver_age: 35 },
};

function expectOk(res: ServiceResponse, what: string): any {
  if (res.status < 200 || res.status >= 300) throw new Error(`${what} answered ${res.status} ${errorCode(res) ?? ''}`.trim());
  return res.body;
}

/** Searches and books one product; an expired quote means a new search, never a retry of the dead token. */
async function searchAndBook(api: ServiceClient, product: string): Promise<any> {
  for (let round = 1; round <= 3; round++) {
    const found = expectOk(await api.post(`/${product}/search`, { criteria: CRITERIA[product] }), `${product} search`);
    const offer = found.results?.[0];
    if (!offer) throw new Error(`${product} search found nothing`);
    const booked = await api.post(
      `/${product}/bookings`,
      { quote_token: offer.quote_token, travellers: [{ first_name: 'Ada', last_name: 'Lovelace' }], client_reference: `ref-${randomUUID().slice(0, 8)}` },
      { idempotent: true },
    );
    if (booked.status === 410 && errorCode(booked) === 'QUOTE_EXPIRED') {
      log(`${product}: quote expired, searching again`);
      continue;
    }
    return expectOk(booked, `${product} booking`);
  }
  throw new Error(`${product}: quotes kept expiring`);
}

async function main(): Promise<void> {
  const api = new ServiceClient({ baseUrl: env('SVC_BASE_URL'), keyId: env('SVC_KEY_ID'), secret: env('SVC_SECRET'), log });
  const receiver = new WebhookReceiver(env('SVC_WEBHOOK_SECRET'), log);
  try {
    const url = await receiver.start();
    expectOk(await api.put('/webhook-endpoint', { url }), 'webhook registration');
    log(`webhooks go to ${url}`);

    const account = expectOk(await api.get('/account'), 'account');
    const open: string[] = account.products.filter((p: any) => p.enabled).map((p: any) => p.product);
    const closed: string[] = account.products.filter((p: any) => !p.enabled).map((p: any) => p.product);
    log(`open products: ${open.join(', ')}; closed (never called): ${closed.join(', ') || 'none'}`);

    const bookings: string[] = [];
    for (const product of open) {
      if (!CRITERIA[product]) continue;
      const booking = await searchAndBook(api, product);
      log(`${product}: booked ${booking.booking_id} for ${booking.price.amount} ${booking.price.currency}`);
      expectOk(await api.get(`/${product}/bookings/${booking.booking_id}`), `${product} booking read`);
      const cancel = expectOk(
        await api.post(`/${product}/bookings/${booking.booking_id}/cancellations`, { reason: 'certification run' }, { idempotent: true }),
        `${product} cancellation`,
      );
      log(`${product}: cancelled ${cancel.booking_id}, refund ${cancel.refund?.amount ?? '?'}`);
      bookings.push(booking.booking_id);
    }

    const has = (events: { type: string; data: any }[], type: string, id: string): boolean =>
      events.some((e) => e.type === type && (e.data?.booking?.booking_id === id || e.data?.cancellation?.booking_id === id));
    await receiver.waitFor((events) => bookings.every((id) => has(events, 'booking.confirmed', id) && has(events, 'booking.cancelled', id)), 15_000);
    log(`all ${bookings.length * 2} events received (${receiver.events.length} handled once each); done`);
  } finally {
    await api.close();
    await receiver.close();
  }
}

main().catch((err: unknown) => {
  console.error(`[agency-client] failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
