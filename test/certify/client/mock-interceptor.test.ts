import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import type { PipelineInterceptor, WireResponse } from '../../../src/mock/index.js';
import { adminRequest, rawRequest, startMock, type MockClient } from '../../helpers/mock-client.js';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function withInterceptor(interceptor: PipelineInterceptor): Promise<{ alpha: MockClient; adminUrl: string }> {
  const { mock, alpha } = await startMock({ interceptor });
  close = () => mock.close();
  return { alpha, adminUrl: mock.adminUrl! };
}

function teapot(injected: string): WireResponse {
  return { status: 418, headers: { 'content-type': 'application/json' }, body: '{"error":{"code":"TEAPOT"}}', injected };
}

describe('the mock pipeline interceptor (certification mode extension point)', () => {
  it('before: answers instead of the pipeline only for authenticated requests, and nothing is counted or executed', async () => {
    const seen: Array<{ agencyId: string; path: string }> = [];
    const { alpha, adminUrl } = await withInterceptor({
      before: (req, ctx) => {
        seen.push({ agencyId: ctx.agencyId, path: ctx.path });
        return req.method === 'POST' && ctx.path.endsWith('/bookings') ? teapot('teapot') : undefined;
      },
    });
    const quote = await alpha.quote('flights');
    const res = await alpha.book('flights', quote.quote_token, 'k-1');
    expect(res.status).toBe(418);
    expect(res.headers['x-ratelimit-remaining']).toBeUndefined();
    const unsigned = await rawRequest(`${alpha.origin}/v1/account`);
    expect(unsigned.status).toBe(401);
    expect(seen.map((s) => s.path)).toEqual(['/v1/flights/search', '/v1/flights/bookings']);
    expect(seen.every((s) => s.agencyId === 'agency-alpha')).toBe(true);
    const log = (await adminRequest(`${adminUrl}/requests`)).json.requests as Array<{ status: number; injected?: string; path: string }>;
    expect(log.map((e) => [e.path, e.status, e.injected])).toEqual([
      ['/v1/flights/search', 200, undefined],
      ['/v1/flights/bookings', 418, 'teapot'],
      ['/v1/account', 401, undefined],
    ]);
    // Nothing was executed: the wallet was not charged.
    expect(await alpha.balance()).toBe(alpha.agency.wallet);
  });

  it('after: sees every final answer and may replace it; the log records what was sent', async () => {
    const statuses: Array<[string, number, string | null]> = [];
    const { alpha, adminUrl } = await withInterceptor({
      after: (_req, res, ctx) => {
        statuses.push([ctx.path, res.status, ctx.agencyId]);
        return ctx.path.endsWith('/bookings') && res.status === 201 && !res.headers['idempotent-replayed']
          ? { ...res, status: 502, body: '{"error":{"code":"SUPPLIER_UNAVAILABLE"}}', injected: 'bad-gateway' }
          : res;
      },
    });
    const quote = await alpha.quote('flights');
    const first = await alpha.book('flights', quote.quote_token, 'k-2');
    expect(first.status).toBe(502);
    // The booking really executed: a retry with the same key gets the stored 201 replayed.
    const retry = await alpha.book('flights', quote.quote_token, 'k-2');
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(statuses).toEqual([
      ['/v1/flights/search', 200, 'agency-alpha'],
      ['/v1/flights/bookings', 201, 'agency-alpha'],
      ['/v1/flights/bookings', 201, 'agency-alpha'],
    ]);
    const log = (await adminRequest(`${adminUrl}/requests`)).json.requests as Array<{ status: number; injected?: string }>;
    expect(log.map((e) => [e.status, e.injected])).toEqual([
      [200, undefined],
      [502, 'bad-gateway'],
      [201, undefined],
    ]);
  });

  it('cutAfterBytes: the client gets the head and part of the body, then the connection drops', async () => {
    let cut = 0;
    const { alpha } = await withInterceptor({ after: (_req, res, ctx) => (ctx.path === '/v1/account' && cut++ === 0 ? { ...res, cutAfterBytes: 10 } : res) });
    const res = await request(`${alpha.origin}/v1/account`, { headers: await signedHeaders(alpha, '/v1/account') });
    expect(res.statusCode).toBe(200);
    const announced = Number(res.headers['content-length']);
    expect(announced).toBeGreaterThan(10);
    await expect(res.body.text()).rejects.toThrow(/content-length|other side closed|terminated/i);
    // The service keeps serving afterwards, whole answers again.
    const again = await alpha.get('/v1/account');
    expect(again.status).toBe(200);
    expect(again.raw.length).toBe(announced);
  });

  it('a throwing interceptor does not break the service', async () => {
    const { alpha } = await withInterceptor({
      after: () => {
        throw new Error('boom');
      },
    });
    expect((await alpha.get('/v1/account')).status).toBe(200);
  });
});

async function signedHeaders(client: MockClient, path: string): Promise<Record<string, string>> {
  const { signRequest, freshNonce } = await import('../../../src/protocol/request-signature.js');
  return signRequest({
    method: 'GET',
    path,
    body: undefined,
    keyId: client.agency.key_id,
    secret: client.agency.secret,
    timestamp: Math.floor(Date.now() / 1000),
    nonce: freshNonce(),
  }).headers;
}
