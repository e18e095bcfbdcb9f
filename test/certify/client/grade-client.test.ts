import { describe, expect, it } from 'vitest';
import { buildStringToSign, computeSignature, freshNonce } from '../../../src/protocol/request-signature.js';
import type { ClientCheck } from '../../../src/certify/client/client-check.js';
import { clientObservation, gradeClient } from '../../../src/certify/client/grade-client.js';
import { backoffCheck, retryAfterCheck } from '../../../src/certify/client/checks/rate-limit.js';
import { badGatewayCheck, cutOffCheck } from '../../../src/certify/client/checks/executed-retry.js';
import { quoteExpiredCheck } from '../../../src/certify/client/checks/quote-expired.js';
import { contractCheck } from '../../../src/certify/client/checks/contract.js';
import { signingCheck } from '../../../src/certify/client/checks/signing.js';
import type { InjectedSituation, ObservedRequest } from '../../../src/certify/client/observed.js';

const KEY = { keyId: 'ak_test', secret: 'svc_test_secret_value' };
const T0 = 1_800_000_000_000;

/** One client check's outcome on the requests of agency-test, without webhook probes. */
const grade = (check: ClientCheck, requests: ObservedRequest[]) =>
  check.run(clientObservation({ agencyId: 'agency-test', requests, probes: [], webhookUrl: undefined, retryAfterS: 1 }, KEY));

/** Builds observed requests of one client, each correctly signed unless told otherwise. */
function client() {
  const out: ObservedRequest[] = [];
  let n = 0;
  const add = (
    method: string,
    url: string,
    at: number,
    o: {
      body?: unknown;
      key?: string;
      status?: number;
      injected?: InjectedSituation;
      created?: boolean;
      response?: unknown;
      retryAfter?: number;
      nonce?: string;
      ts?: number;
      secret?: string;
    } = {},
  ): ObservedRequest => {
    const body = o.body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(o.body));
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const nonce = o.nonce ?? freshNonce();
    const ts = o.ts ?? Math.floor((T0 + at) / 1000);
    const sig = computeSignature(
      o.secret ?? KEY.secret,
      buildStringToSign({ method, path, query: q === -1 ? '' : url.slice(q + 1), body, timestamp: ts, nonce }),
    );
    const r: ObservedRequest = {
      id: `c-${++n}`,
      requestId: `req_${n}`,
      atMs: T0 + at,
      method,
      url,
      path,
      headers: {
        authorization: `SVC-HMAC-SHA256 Credential=${KEY.keyId}, SignedHeaders=x-svc-nonce;x-svc-timestamp, Signature=${sig}`,
        'x-svc-timestamp': String(ts),
        'x-svc-nonce': nonce,
        ...(o.key ? { 'idempotency-key': o.key } : {}),
      },
      body,
      agencyId: 'agency-test',
      status: o.status ?? 200,
      responseHeaders: o.retryAfter ? { 'retry-after': String(o.retryAfter) } : {},
      responseBody: JSON.stringify(o.response ?? {}),
      ...(o.injected ? { injected: o.injected } : {}),
      ...(o.created ? { createdBooking: true } : {}),
    };
    out.push(r);
    return r;
  };
  return { out, add };
}

const booking = (token: string) => ({ quote_token: token, travellers: [{ first_name: 'A', last_name: 'B' }] });

describe('client grader', () => {
  it('CC-01 recomputes every signature and names the first wrong one', () => {
    const c = client();
    c.add('GET', '/v1/account', 0);
    c.add('GET', '/v1/wallet/statement?limit=5&cursor=a%20b', 10);
    expect(grade(signingCheck, c.out).verdict).toBe('PASS');
    c.add('GET', '/v1/account', 20, { secret: 'another secret' });
    c.add('GET', '/v1/account', 30, { nonce: c.out[0]!.headers['x-svc-nonce'] as string });
    c.add('GET', '/v1/account', 40, { ts: Math.floor(T0 / 1000) - 400 });
    const g = grade(signingCheck, c.out);
    expect(g.verdict).toBe('FAIL');
    expect(g.message).toContain('3 requests of 5 wrongly signed; first: GET /v1/account: signature does not match');
    expect((g.details!.problems as Array<{ problem: string }>).map((p) => p.problem)).toEqual([
      'signature does not match the request',
      expect.stringMatching(/^nonce .* used before$/),
      'timestamp 400 s away from the service clock (tolerance 300 s)',
    ]);
  });

  it('CC-02 passes a retry after Retry-After with the same key and body, and names each fault', () => {
    const good = client();
    good.add('POST', '/v1/flights/bookings', 0, { body: booking('qt_1'), key: 'k1', status: 429, injected: 'rate-limited', retryAfter: 1 });
    good.add('POST', '/v1/flights/bookings', 1000, { body: booking('qt_1'), key: 'k1', status: 201, created: true });
    expect(grade(retryAfterCheck, good.out).verdict).toBe('PASS');
    expect(grade(backoffCheck, good.out).verdict).toBe('PASS');

    const bad = client();
    bad.add('POST', '/v1/flights/bookings', 0, { body: booking('qt_1'), key: 'k1', status: 429, injected: 'rate-limited', retryAfter: 1 });
    bad.add('POST', '/v1/flights/bookings', 400, {
      body: { ...booking('qt_1'), client_reference: 'x' },
      key: 'k2',
      status: 429,
      injected: 'rate-limited-window',
      retryAfter: 1,
    });
    const g = grade(retryAfterCheck, bad.out);
    expect(g.verdict).toBe('FAIL');
    expect(g.message).toBe(
      'retried after 0.40 s, before Retry-After (1 s) had passed; retried with another Idempotency-Key (k1 then k2); retried with another body',
    );
    const b = grade(backoffCheck, bad.out);
    expect(b.verdict).toBe('FAIL');
    expect(b.details).toMatchObject({ sent_while_limited: 1 });
  });

  it('CC-02/CC-03 are not exercised without a booking, which refuses', () => {
    const c = client();
    c.add('GET', '/v1/account', 0);
    expect(grade(retryAfterCheck, c.out).verdict).toBe('SKIP');
    expect(grade(backoffCheck, c.out).verdict).toBe('SKIP');
  });

  it('CC-04 counts bookings created after a 502: a new key that books again fails', () => {
    const good = client();
    good.add('POST', '/v1/transfers/bookings', 0, { body: booking('qt_3'), key: 'k3', status: 502, injected: 'bad-gateway-after-booking', created: true });
    good.add('POST', '/v1/transfers/bookings', 300, { body: booking('qt_3'), key: 'k3', status: 201 });
    expect(grade(badGatewayCheck, good.out).verdict).toBe('PASS');

    const twice = client();
    twice.add('POST', '/v1/transfers/bookings', 0, {
      body: booking('qt_3'),
      key: 'k3',
      status: 502,
      injected: 'bad-gateway-after-booking',
      created: true,
      response: {},
    });
    twice.add('POST', '/v1/transfers/search', 100, {});
    twice.add('POST', '/v1/transfers/bookings', 200, { body: booking('qt_4'), key: 'k4', status: 201, created: true, response: { booking_id: 'bk_2' } });
    const g = grade(badGatewayCheck, twice.out);
    expect(g.verdict).toBe('FAIL');
    expect(g.message).toBe('after a booking answered 502: 1 retry with a new Idempotency-Key; 1 retry with another body; ended up with 2 bookings (c-1, bk_2)');

    const never = client();
    never.add('POST', '/v1/transfers/bookings', 0, { body: booking('qt_3'), key: 'k3', status: 502, injected: 'cut-off-after-booking', created: true });
    expect(grade(cutOffCheck, never.out).message).toContain('was never retried');
  });

  it('CC-06 wants a new search and no resend of the dead token', () => {
    const good = client();
    good.add('POST', '/v1/transfers/bookings', 0, { body: booking('qt_2'), key: 'k', status: 410, injected: 'quote-expired' });
    good.add('POST', '/v1/transfers/search', 10);
    expect(grade(quoteExpiredCheck, good.out).verdict).toBe('PASS');
    const bad = client();
    bad.add('POST', '/v1/transfers/bookings', 0, { body: booking('qt_2'), key: 'k', status: 410, injected: 'quote-expired' });
    bad.add('POST', '/v1/transfers/bookings', 10, { body: booking('qt_2'), key: 'k2', status: 410, injected: 'quote-expired' });
    expect(grade(quoteExpiredCheck, bad.out).message).toBe('after 410 QUOTE_EXPIRED: retried the expired quote 1 time; never searched transfers again');
  });

  it('CC-07 fails a call to a closed product after the account, and a client that never read it', () => {
    const account = {
      products: [
        { product: 'flights', enabled: true },
        { product: 'cars', enabled: false },
      ],
    };
    const c = client();
    c.add('POST', '/v1/cars/search', 0, { status: 403 });
    c.add('GET', '/v1/account', 10, { response: account });
    expect(grade(contractCheck, c.out).verdict).toBe('PASS');
    c.add('POST', '/v1/cars/search', 20, { status: 403 });
    expect(grade(contractCheck, c.out).message).toBe('1 request to a closed product after GET /v1/account; first: POST /v1/cars/search (403)');
    const none = client();
    none.add('POST', '/v1/flights/search', 0);
    expect(grade(contractCheck, none.out).message).toContain('never read GET /v1/account');
  });

  it('grades every item, in plan order, and skips the webhook items when no endpoint was registered', () => {
    const c = client();
    c.add('GET', '/v1/account', 0, { response: { products: [] } });
    const items = gradeClient({ agencyId: 'agency-test', requests: c.out, probes: [], webhookUrl: undefined, retryAfterS: 1 }, KEY);
    expect(items.map((g) => g.item.id)).toEqual(['CC-01', 'CC-02', 'CC-03', 'CC-04', 'CC-05', 'CC-06', 'CC-07', 'CC-08', 'CC-09', 'CC-10']);
    expect(items.map((g) => g.verdict)).toEqual(['PASS', 'SKIP', 'SKIP', 'SKIP', 'SKIP', 'SKIP', 'PASS', 'SKIP', 'SKIP', 'SKIP']);
    expect(items[7]!.message).toContain('never registered its webhook endpoint');
  });
});
