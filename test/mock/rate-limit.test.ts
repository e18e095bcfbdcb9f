import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { RunningMock } from '../../src/mock/create-mock.js';
import { startMock, type MockClient } from '../helpers/mock-client.js';
import { fixtureWithLimits } from '../helpers/mock-fixture.js';

let mock: RunningMock;
let alpha: MockClient;
let gamma: MockClient;
const LIMITS = { read: 5, write: 3 };
beforeAll(async () => {
  ({ mock, alpha, gamma } = await startMock({ fixture: fixtureWithLimits(LIMITS) }));
});
beforeEach(async () => mock.reset());
afterAll(async () => mock.close());

async function fillReads(c: MockClient, n = LIMITS.read): Promise<void> {
  for (let i = 0; i < n; i++) expect((await c.get('/v1/account')).status).toBe(200);
}

describe('rate limits (section 8)', () => {
  test('every authenticated response carries the four headers for its bucket', async () => {
    const r1 = await alpha.get('/v1/account');
    expect(r1.headers).toMatchObject({ 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': '4', 'x-ratelimit-reset': '0', 'x-ratelimit-resource': 'read' });
    const w1 = await alpha.send('PUT', '/v1/webhook-endpoint', { body: { url: null } });
    expect(w1.headers).toMatchObject({ 'x-ratelimit-limit': '3', 'x-ratelimit-remaining': '2', 'x-ratelimit-resource': 'write' });
    const s1 = await alpha.post('/v1/flights/search', { criteria: {} });
    expect(s1.status).toBe(422);
    expect(s1.headers['x-ratelimit-resource']).toBe('read');
  });

  test('the request past the limit is 429 RATE_LIMITED with details and Retry-After', async () => {
    await fillReads(alpha);
    const last = await alpha.get('/v1/account');
    expect(last.status).toBe(429);
    expect(last.json.error.code).toBe('RATE_LIMITED');
    const retry = Number(last.headers['retry-after']);
    expect(retry).toBeGreaterThanOrEqual(59);
    expect(retry).toBeLessThanOrEqual(60);
    expect(last.json.error.details).toEqual({ resource: 'read', limit: 5, window_s: 60, retry_after_s: retry });
    expect(last.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(last.headers['x-ratelimit-reset'])).toBe(retry);
    expect(last.headers['x-request-id']).toBe(last.json.error.request_id);
  });

  test('rolling window at its edges: refused at Retry-After − 1.25 s, admitted at Retry-After', async () => {
    await fillReads(alpha, 2);
    await mock.advance(20_000);
    await fillReads(alpha, 3);
    const refused = await alpha.get('/v1/account');
    expect(refused.status).toBe(429);
    const retry = Number(refused.headers['retry-after']);
    expect(retry).toBeGreaterThanOrEqual(39);
    expect(retry).toBeLessThanOrEqual(40);
    await mock.advance(retry * 1000 - 1250);
    const early = await alpha.get('/v1/account');
    expect(early.status).toBe(429);
    await mock.advance(1250);
    expect((await alpha.get('/v1/account')).status).toBe(200);
  });

  test('429s are not counted', async () => {
    await fillReads(alpha);
    for (let i = 0; i < 5; i++) expect((await alpha.get('/v1/account')).status).toBe(429);
    await mock.advance(60_000);
    await fillReads(alpha);
  });

  test('reads and writes apart', async () => {
    await fillReads(alpha);
    expect((await alpha.get('/v1/account')).status).toBe(429);
    const w = await alpha.send('PUT', '/v1/webhook-endpoint', { body: { url: null } });
    expect(w.status).toBe(200);
    expect(w.headers['x-ratelimit-resource']).toBe('write');
    // 403/404/405 answers count as writes.
    expect((await alpha.get('/v1/cars/search')).headers['x-ratelimit-resource']).toBe('read');
    expect((await alpha.send('DELETE', '/v1/account')).status).toBe(405);
    expect((await alpha.post('/v1/nowhere', {})).status).toBe(404);
    const fourth = await alpha.send('PUT', '/v1/webhook-endpoint', { body: { url: null } });
    expect(fourth.status).toBe(429);
    expect(fourth.json.error.details.resource).toBe('write');
  });

  test('agencies apart', async () => {
    await fillReads(alpha);
    expect((await alpha.get('/v1/account')).status).toBe(429);
    expect((await gamma.get('/v1/account')).status).toBe(200);
  });

  test('a 429 booking charges nothing', async () => {
    const q = await alpha.quote('flights');
    const before = await alpha.balance();
    for (let i = 0; i < 3; i++) expect((await alpha.send('PUT', '/v1/webhook-endpoint', { body: { url: null } })).status).toBe(200);
    const res = await alpha.book('flights', q.quote_token, 'rl-k1');
    expect(res.status).toBe(429);
    expect(await alpha.balance()).toBe(before);
  });
});
