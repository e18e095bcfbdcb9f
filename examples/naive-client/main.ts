/**
 * A deliberately naive integration, kept to show what `svc-harness
 * certify-client` catches. It signs correctly and respects the contract, but:
 *
 * - ignores `Retry-After`: on 429 it retries every 100 ms;
 * - makes a new Idempotency-Key for every attempt, so a retry after a lost
 *   answer is a new booking attempt, not a replay;
 * - retries an expired quote instead of searching again;
 * - trusts every webhook delivery: no signature or timestamp check.
 *
 * Do not copy it; see examples/agency-client for the careful version.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { signHeaders } from '../agency-client/signer.js';

const log = (line: string): void => console.log(`[naive-client] ${line}`);
const base = new URL(process.env.SVC_BASE_URL ?? 'http://127.0.0.1:8480/v1');
const keyId = process.env.SVC_KEY_ID ?? '';
const secret = process.env.SVC_SECRET ?? '';

async function call(method: string, path: string, body?: unknown, idempotencyKey?: string): Promise<{ status: number; body: any }> {
  const pathAndQuery = `${base.pathname.replace(/\/$/, '')}${path}`;
  const bytes = body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(body));
  const headers: Record<string, string> = {
    ...signHeaders({ keyId, secret, method, pathAndQuery, body: bytes }),
    ...(bytes.length > 0 ? { 'content-type': 'application/json' } : {}),
    ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
  };
  try {
    const res = await request(`${base.origin}${pathAndQuery}`, { method: method as 'GET', headers, body: bytes.length > 0 ? bytes : null });
    const text = await res.body.text();
    return { status: res.statusCode, body: text ? JSON.parse(text) : undefined };
  } catch (err) {
    return { status: 0, body: { error: { code: 'NETWORK', message: String(err) } } };
  }
}

/** Naive: a new key on every attempt, a fixed short pause whatever the service says. */
async function book(product: string, quoteToken: string): Promise<any> {
  const body = { quote_token: quoteToken, travellers: [{ first_name: 'Ada', last_name: 'Lovelace' }] };
  for (let attempt = 1; attempt <= 20; attempt++) {
    const res = await call('POST', `/${product}/bookings`, body, randomUUID());
    if (res.status === 201) return res.body;
    log(`${product} booking attempt ${attempt}: ${res.status} ${res.body?.error?.code ?? ''}`);
    if (res.status === 429 || res.status >= 500 || res.status === 0) {
      await sleep(100);
      continue;
    }
    if (res.status === 410 && attempt < 3) continue; // "maybe it works the second time"
    return undefined;
  }
  return undefined;
}

const CRITERIA: Record<string, Record<string, string | number>> = {
  flights: { origin: 'LIS', destination: 'MAD', departure_date: '2030-05-01', adults: 1 },
  transfers: { pickup: 'Lisbon airport', dropoff: 'Alfama', date: '2030-05-01', passengers: 2 },
  activities: { destination: 'Lisbon', date: '2030-05-02', participants: 2 },
  cars: { pickup_location: 'Lisbon airport', dropoff_location: 'Lisbon airport', pickup_date: '2030-05-01', dropoff_date: '2030-05-03', driver_age: 35 },
};

async function main(): Promise<void> {
  // Trusts whatever arrives: no signature check, no timestamp check.
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200).end('ok'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;
  await call('PUT', '/webhook-endpoint', { url });

  const account = await call('GET', '/account');
  const open: string[] = (account.body?.products ?? []).filter((p: any) => p.enabled).map((p: any) => p.product);
  for (const product of open) {
    const found = await call('POST', `/${product}/search`, { criteria: CRITERIA[product] });
    const offer = found.body?.results?.[0];
    if (!offer) continue;
    const booking = await book(product, offer.quote_token);
    if (!booking) {
      log(`${product}: booking failed, moving on`);
      continue;
    }
    log(`${product}: booked ${booking.booking_id}`);
    await call('GET', `/${product}/bookings/${booking.booking_id}`);
    await call('POST', `/${product}/bookings/${booking.booking_id}/cancellations`, {}, randomUUID());
  }
  await sleep(500);
  server.close();
}

void main();
