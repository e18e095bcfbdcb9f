import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHotelApi } from '../../src/api/hotel-api.js';
import { createTargetApi, type ClosableTargetApi } from '../../src/api/target-api.js';
import { MemoryRecorder } from '../../src/client/exchange.js';
import { createMock, type AgencyCredentials, type RunningMock } from '../../src/mock/index.js';
import { DEFAULT_PROFILE } from '../../src/profile/defaults.js';
import type { Profile } from '../../src/profile/types.js';
import type { RateLimitPoint } from '../../src/results/model.js';
import { resolvedAgency } from '../helpers/mock-agencies.js';

const resolved = (a: AgencyCredentials) => resolvedAgency(a, { limits: false });

describe('TargetApi and HotelApi against the mock', () => {
  let mock: RunningMock;
  let profile: Profile;
  let recorder: MemoryRecorder;
  let points: RateLimitPoint[];
  const apis: ClosableTargetApi[] = [];

  beforeAll(async () => {
    mock = await createMock({ supplierLatencyMs: 0 });
    profile = { ...structuredClone(DEFAULT_PROFILE), base_url: mock.baseUrl, hotel_base_url: mock.hotelBaseUrl };
  });
  afterAll(async () => {
    await Promise.all(apis.map((a) => a.close()));
    await mock.close();
  });
  beforeEach(async () => {
    await mock.reset();
    recorder = new MemoryRecorder();
    points = [];
  });

  function api(index: number, p: Profile = profile): ClosableTargetApi {
    const a = createTargetApi({
      profile: p,
      agency: resolved(mock.agencies[index]!),
      recorder,
      now: () => mock.clock.now(),
      onRateLimit: (pt) => points.push(pt),
    });
    apis.push(a);
    return a;
  }

  it('account → search → book → replay → cancel → statement', async () => {
    const alpha = api(0);
    expect(alpha.agencyId).toBe('agency-alpha');

    const products = await alpha.openProducts({ label: 'open products' });
    expect(products.response.status).toBe(200);
    expect(products.open.sort()).toEqual(['activities', 'flights', 'transfers']);
    expect(products.closed).toEqual(['cars']);

    const opening = await alpha.balance();
    expect(opening.status).toBe(200);
    expect(opening.amount).toBe(1_000_000);

    const search = await alpha.search('flights');
    expect(search.status).toBe(200);
    expect(search.offers.length).toBeGreaterThan(0);
    const offer = search.offers[0]!;
    expect(offer.quoteToken).toMatch(/^qt_/);
    expect(offer.currency).toBe('EUR');
    expect(typeof offer.priceAmount).toBe('number');

    const key = `idem-${Date.now()}`;
    const booked = await alpha.book('flights', offer.quoteToken, key, { clientReference: 'ref-e2e-1' });
    expect(booked.status).toBe(201);
    expect(booked.bookingId).toBeDefined();
    expect(booked.chargedAmount).toBe(offer.priceAmount);
    expect(JSON.parse(booked.exchange.request.body!)).toEqual({
      quote_token: offer.quoteToken,
      travellers: [{ first_name: 'Ada', last_name: 'Lovelace' }],
      client_reference: 'ref-e2e-1',
    });
    expect(booked.exchange.request.headers['idempotency-key']).toBe(key);

    const replay = await alpha.book('flights', offer.quoteToken, key, { clientReference: 'ref-e2e-1' });
    expect(replay.status).toBe(201);
    expect(replay.headers[profile.headers.idempotent_replayed]).toBe('true');
    expect(replay.bytes.equals(booked.bytes)).toBe(true);
    expect(Buffer.from(replay.exchange.response!.bodyBase64!, 'base64').equals(booked.bytes)).toBe(true);

    const otherBody = JSON.stringify({ quote_token: offer.quoteToken, travellers: [{ first_name: 'Grace', last_name: 'Hopper' }] });
    const reused = await alpha.book('flights', offer.quoteToken, key, { body: otherBody });
    expect(alpha.errorCode(reused)).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(reused.exchange.request.body).toBe(otherBody);

    const noKey = await alpha.book('flights', offer.quoteToken, undefined);
    expect(noKey.status).toBe(400);
    expect(alpha.errorCode(noKey)).toBe('IDEMPOTENCY_KEY_REQUIRED');
    expect(noKey.exchange.request.headers['idempotency-key']).toBeUndefined();

    const got = await alpha.getBooking('flights', booked.bookingId!);
    expect(got.status).toBe(200);

    const cancelled = await alpha.cancel('flights', booked.bookingId!, `${key}-c`);
    expect(cancelled.status).toBe(201);
    expect(cancelled.refundAmount).toBe(offer.priceAmount);

    const closing = await alpha.balance();
    expect(closing.amount).toBe(opening.amount);

    const statement = await alpha.statement();
    expect(statement.responses.every((r) => r.status === 200)).toBe(true);
    expect(statement.responses[0]!.exchange.request.url).toContain(`/v1/wallet/statement?limit=${profile.limits.statement_page_size}`);
    expect(statement.entries.map((e) => e.type)).toEqual(['refund', 'debit']);
    expect(statement.entries.every((e) => e.bookingId === booked.bookingId && e.amount === offer.priceAmount)).toBe(true);
    expect(statement.entries[0]!.balanceAfter).toBe(opening.amount);

    // Every service response carries rate-limit headers: the timeline got a point per request, in its bucket.
    const serviceExchanges = recorder.exchanges.filter((x) => x.request.url.startsWith(mock.baseUrl));
    expect(points).toHaveLength(serviceExchanges.length);
    expect(points[0]).toMatchObject({ agency: 'agency-alpha', bucket: 'read', status: 200, limit: 600 });
    expect(points.find((p) => p.status === 201)).toMatchObject({ bucket: 'write', limit: 60 });
  });

  it('follows statement cursors page by page', async () => {
    const small: Profile = { ...profile, limits: { ...profile.limits, statement_page_size: 1 } };
    const alpha = api(0, small);
    const offers = (await alpha.search('flights')).offers;
    expect(offers.length).toBeGreaterThan(0);
    const booked = await alpha.book('flights', offers[0]!.quoteToken, `k-${Date.now()}`);
    expect(booked.status).toBe(201);
    await alpha.cancel('flights', booked.bookingId!, `kc-${Date.now()}`);
    const st = await alpha.statement();
    expect(st.entries.map((e) => e.type)).toEqual(['refund', 'debit']);
    expect(st.responses.length).toBeGreaterThanOrEqual(2);
    expect(st.responses[1]!.exchange.request.url).toMatch(/limit=1&cursor=/);
  });

  it('reports a 429 with Retry-After to the rate-limit timeline', async () => {
    const beta = api(1);
    const limit = mock.agencies[1]!.limits.write;
    let last;
    // Bookings without a key are refused (400) but still count in the write bucket.
    for (let i = 0; i <= limit; i += 1) last = await beta.book('flights', 'qt_none', undefined);
    expect(last!.status).toBe(429);
    expect(beta.errorCode(last!)).toBe('RATE_LIMITED');
    expect(last!.rateLimit.retryAfterS).toBeGreaterThanOrEqual(1);
    expect(last!.rateLimit.retryAfterRaw).toBe(String(last!.rateLimit.retryAfterS));
    const p = points.at(-1)!;
    expect(p).toMatchObject({ agency: 'agency-beta', bucket: 'write', status: 429, retryAfterS: last!.rateLimit.retryAfterS });
    expect(p.at).toBe(last!.exchange.startedAt);
    expect(points.filter((x) => x.status === 400 && x.bucket === 'write')).toHaveLength(limit);
    expect(points.map((x) => x.remaining).slice(0, 3)).toEqual([limit - 1, limit - 2, limit - 3]);
  });

  it('breaks signatures on purpose and reads the error codes', async () => {
    const alpha = api(0);
    const skew = await alpha.account({ signing: { skewS: -(profile.limits.timestamp_tolerance_s + 60) } });
    expect(skew.status).toBe(401);
    expect(alpha.errorCode(skew)).toBe('TIMESTAMP_SKEW');
    const bad = await alpha.account({ signing: { secret: 'wrong' } });
    expect(alpha.errorCode(bad)).toBe('SIGNATURE_INVALID');
    const none = await alpha.account({ signing: { omit: true } });
    expect(alpha.errorCode(none)).toBe('UNAUTHENTICATED');
    const nonce = 'nonce-reused-0000000001';
    expect((await alpha.account({ signing: { nonce } })).status).toBe(200);
    expect(alpha.errorCode(await alpha.account({ signing: { nonce } }))).toBe('NONCE_REPLAYED');
    const raw = await alpha.raw('GET', '/wallet/statement', undefined, { query: 'limit=1' });
    expect(raw.status).toBe(200);
    const webhook = await alpha.setWebhookEndpoint('http://127.0.0.1:9/hook');
    expect(webhook.status).toBe(200);
    expect((await alpha.getWebhookEndpoint()).json).toMatchObject({ url: 'http://127.0.0.1:9/hook' });
    expect((await alpha.rates()).status).toBe(200);
  });

  it('drives the hotel API: availability → book → cancel, key enforced', async () => {
    const hotel = createHotelApi({ profile, agency: resolved(mock.agencies[0]!), recorder, now: () => mock.clock.now() });
    try {
      const avail = await hotel.availability();
      expect(avail.status).toBe(200);
      expect(avail.rateKeys.length).toBeGreaterThan(0);
      const booked = await hotel.book(avail.rateKeys[0]!, { clientReference: 'hotel-ref-1' });
      expect(booked.status).toBe(201);
      expect(booked.reference).toBeDefined();
      const cancelled = await hotel.cancel(booked.reference!);
      expect(cancelled.status).toBe(200);
      const again = await hotel.cancel(booked.reference!);
      expect(again.status).toBe(409);
      const noKey = await hotel.raw('POST', profile.operations.hotel_availability.path, profile.hotel_availability_body, { apiKey: null });
      expect(noKey.status).toBe(401);
      expect(noKey.exchange.request.headers[profile.headers.hotel_api_key]).toBeUndefined();
      expect(JSON.stringify(recorder.exchanges.map((x) => x.request))).not.toContain(mock.agencies[0]!.hotel_api_key);
    } finally {
      await hotel.close();
    }
  });

  it('maps a stopped target to E_TARGET_UNREACHABLE', async () => {
    const dead = await createMock();
    const url = dead.baseUrl;
    await dead.close();
    const alpha = api(0, { ...profile, base_url: url });
    await expect(alpha.account()).rejects.toMatchObject({ code: 'E_TARGET_UNREACHABLE' });
  });
});
