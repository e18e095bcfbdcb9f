import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { resolveMockOptions } from '../../src/mock/options.js';
import { fixtureWithLimits } from '../helpers/mock-fixture.js';
import { adminRequest, rawRequest, startMock } from '../helpers/mock-client.js';

describe('--latency-ms: every request on every port is handled N ms late (issue 10 item 4)', () => {
  let started: Awaited<ReturnType<typeof startMock>>;
  beforeAll(async () => {
    started = await startMock({ latencyMs: 250 });
  });
  afterAll(async () => {
    await started.mock.close();
  });

  const timed = async (fn: () => Promise<{ status: number }>): Promise<{ status: number; ms: number }> => {
    const t0 = performance.now();
    const { status } = await fn();
    return { status, ms: performance.now() - t0 };
  };

  test('service, hotel and admin answers, refusals included, come at least N ms late', async () => {
    const { mock, alpha } = started;
    const answers = [
      await timed(() => alpha.get('/v1/account')),
      await timed(() => rawRequest(`${alpha.origin}/v1/account`)),
      await timed(() => rawRequest(`${mock.hotelBaseUrl}/hotels/v1/availability`, { method: 'POST' })),
      await timed(() => adminRequest(`${mock.adminUrl}/health`)),
      await timed(() => rawRequest(`${mock.adminUrl}/health`)),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 401, 401, 200, 403]);
    for (const a of answers) expect(a.ms).toBeGreaterThanOrEqual(240);
  });

  test('a late request does not hold up the others: 8 at once take about N ms, not 8 × N', async () => {
    const { alpha } = started;
    const all = await timed(async () => {
      const res = await Promise.all(Array.from({ length: 8 }, () => alpha.get('/v1/account')));
      return { status: res.every((r) => r.status === 200) ? 200 : 500 };
    });
    expect(all.status).toBe(200);
    expect(all.ms).toBeLessThan(4 * 250);
  });
});

describe('--window-s: the rate-limit window length (issue 10 item 4)', () => {
  let started: Awaited<ReturnType<typeof startMock>>;
  beforeAll(async () => {
    started = await startMock({ windowS: 5, fixture: fixtureWithLimits({ read: 3, write: 3 }) });
  });
  afterAll(async () => {
    await started.mock.close();
  });

  test('the account, the 429 details, Retry-After and the limiter all use it', async () => {
    const { mock, alpha } = started;
    const account = await alpha.get('/v1/account');
    expect(account.json.rate_limits).toEqual({ read: 3, write: 3, window_s: 5 });
    await alpha.get('/v1/account');
    await alpha.get('/v1/account');
    const refused = await alpha.get('/v1/account');
    expect(refused.status).toBe(429);
    expect(refused.json.error.details).toMatchObject({ resource: 'read', limit: 3, window_s: 5 });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(5);
    expect(Number(refused.headers['x-ratelimit-reset'])).toBeLessThanOrEqual(5);
    await mock.advance(5_000);
    expect((await alpha.get('/v1/account')).status).toBe(200);
  });

  test('a window that is not a whole number of seconds from 1 is a usage error naming it', () => {
    expect(() => resolveMockOptions({ windowS: 0 })).toThrow(/windowS must be an integer from 1 to 86400, got 0/);
    expect(() => resolveMockOptions({ latencyMs: -1 })).toThrow(/latencyMs must be a number ≥ 0, got -1/);
    expect(() => resolveMockOptions({ headersTimeoutMs: 5000, requestTimeoutMs: 1000 })).toThrow(
      /headersTimeoutMs \(5000\) must not be longer than requestTimeoutMs \(1000\)/,
    );
  });
});
