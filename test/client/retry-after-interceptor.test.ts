import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MemoryRecorder } from '../../src/client/exchange.js';
import { createRecordingInterceptor } from '../../src/client/recording-interceptor.js';
import { createRetryAfterInterceptor, type RetryPolicy } from '../../src/client/retry-after-interceptor.js';
import { withRetryPolicy } from '../../src/client/retry-scope.js';
import { ServiceClient } from '../../src/client/service-client.js';
import { createSigningInterceptor } from '../../src/client/signing-interceptor.js';

/** What the next requests get: each entry answers one request, then 200 for the rest. */
interface Script {
  refusals: Array<{ status?: number; retryAfter?: string }>;
}

describe('the Retry-After interceptor against a local server', () => {
  let server: Server;
  let origin: string;
  const seen: IncomingHttpHeaders[] = [];
  const script: Script = { refusals: [] };

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        seen.push(req.headers);
        const refusal = script.refusals.shift();
        if (refusal) {
          const headers: Record<string, string> = { 'content-type': 'application/json' };
          if (refusal.retryAfter !== undefined) headers['retry-after'] = refusal.retryAfter;
          res.writeHead(refusal.status ?? 429, headers).end(JSON.stringify({ error: { code: 'RATE_LIMITED', n: seen.length } }));
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, n: seen.length }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  beforeEach(() => {
    seen.length = 0;
    script.refusals = [];
  });

  let clock = 1_700_000_000_000;
  const waits: number[] = [];
  const policy = (over: Partial<RetryPolicy> = {}): RetryPolicy => ({
    maxAttempts: 3,
    maxWaitMs: 10_000,
    fallbackWaitMs: 1_000,
    marginMs: 250,
    now: () => clock,
    // The target clock moves instead of the test sleeping.
    wait: async (ms) => {
      waits.push(ms);
      clock += ms;
    },
    ...over,
  });

  /** A pool composed as the clients compose it: retry outside signing outside recording. */
  async function withChain<T>(
    fn: (send: (retry?: RetryPolicy) => Promise<{ status: number; body: string }>, recorder: MemoryRecorder) => Promise<T>,
  ): Promise<T> {
    const pool = new Pool(origin);
    const recorder = new MemoryRecorder();
    waits.length = 0;
    const chain = pool.compose(
      createRecordingInterceptor({ recorder, now: () => clock }),
      createSigningInterceptor({ keyId: 'ak_test', secret: 'sk_test_0123456789', now: () => clock }),
      createRetryAfterInterceptor(),
    );
    const send = async (retry?: RetryPolicy) => {
      const res = await chain.request({ origin, path: '/v1/wallet/balance', method: 'POST', body: '{"a":1}', ...(retry ? { retry } : {}) } as Parameters<
        typeof chain.request
      >[0]);
      return { status: res.statusCode, body: await res.body.text() };
    };
    try {
      return await fn(send, recorder);
    } finally {
      await pool.close();
    }
  }

  it('is off by default: a refusal is the answer', async () => {
    script.refusals = [{ retryAfter: '2' }];
    await withChain(async (send, recorder) => {
      const res = await send();
      expect(res.status).toBe(429);
      expect(seen).toHaveLength(1);
      expect(waits).toEqual([]);
      expect(recorder.exchanges.map((x) => x.response?.status)).toEqual([429]);
    });
  });

  it('waits as Retry-After says, signs each attempt afresh and records each attempt', async () => {
    script.refusals = [{ retryAfter: '2' }, { retryAfter: '1' }];
    await withChain(async (send, recorder) => {
      const res = await send(policy());
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body)).toEqual({ ok: true, n: 3 });
      expect(waits).toEqual([2_250, 1_250]);
      expect(recorder.exchanges.map((x) => x.response?.status)).toEqual([429, 429, 200]);
      const nonces = seen.map((h) => h['x-svc-nonce']);
      expect(new Set(nonces).size).toBe(3);
      // The timestamp follows the target clock, moved by each wait.
      const stamps = seen.map((h) => Number(h['x-svc-timestamp']));
      expect(stamps[1]! - stamps[0]!).toBe(2);
      expect(recorder.exchanges.map((x) => x.request.headers['x-svc-nonce'])).toEqual(nonces);
      expect(recorder.exchanges[0]!.response!.body).toContain('RATE_LIMITED');
    });
  });

  it('gives up after the last attempt and hands on that refusal', async () => {
    script.refusals = [{ retryAfter: '1' }, { retryAfter: '1' }, { retryAfter: '1' }, { retryAfter: '1' }];
    await withChain(async (send, recorder) => {
      const res = await send(policy({ maxAttempts: 3 }));
      expect(res.status).toBe(429);
      expect(JSON.parse(res.body).error.n).toBe(3);
      expect(seen).toHaveLength(3);
      expect(waits).toHaveLength(2);
      expect(recorder.exchanges).toHaveLength(3);
    });
  });

  it('bounds each wait, and falls back when Retry-After is missing or unreadable', async () => {
    script.refusals = [{ retryAfter: '3600' }, {}, { retryAfter: 'soon' }];
    await withChain(async (send) => {
      const res = await send(policy({ maxAttempts: 4, maxWaitMs: 5_000 }));
      expect(res.status).toBe(200);
      expect(waits).toEqual([5_000, 1_250, 1_250]);
    });
  });

  it('with a budget, waits no Retry-After that would pass it: that refusal is the answer (a 1e12 s Retry-After was waited, bounded, six times)', async () => {
    script.refusals = [{ retryAfter: '1000000000000' }];
    await withChain(async (send) => {
      const res = await send(policy({ maxAttempts: 6, maxWaitMs: 120_000, budgetMs: 60_250 }));
      expect(res.status).toBe(429);
      expect(seen).toHaveLength(1);
      expect(waits).toEqual([]);
    });
    // The budget counts every wait of the request: 40 s, then 30 s more would pass 60 s.
    script.refusals = [{ retryAfter: '40' }, { retryAfter: '30' }];
    await withChain(async (send) => {
      const res = await send(policy({ maxAttempts: 6, maxWaitMs: 120_000, budgetMs: 60_250 }));
      expect(res.status).toBe(429);
      expect(waits).toEqual([40_250]);
    });
  });

  it('reads an HTTP-date Retry-After against the target clock', async () => {
    script.refusals = [{ retryAfter: new Date(clock + 4_000).toUTCString() }];
    await withChain(async (send) => {
      await send(policy());
      // The date has whole seconds: between 3 and 4 s away, rounded up.
      expect(waits).toHaveLength(1);
      expect(waits[0]).toBeGreaterThanOrEqual(3_250);
      expect(waits[0]).toBeLessThanOrEqual(4_250);
    });
  });

  it('never retries other statuses', async () => {
    script.refusals = [{ status: 503, retryAfter: '1' }];
    await withChain(async (send) => {
      const res = await send(policy());
      expect(res.status).toBe(503);
      expect(seen).toHaveLength(1);
      expect(waits).toEqual([]);
    });
  });

  it('serves the ServiceClient inside a retry scope: one answer, every attempt in the evidence', async () => {
    script.refusals = [{ retryAfter: '1' }];
    waits.length = 0;
    const recorder = new MemoryRecorder();
    const client = new ServiceClient({ baseUrl: `${origin}/v1`, keyId: 'ak_test', secret: 'sk_test_0123456789', recorder, now: () => clock });
    try {
      const attempts: number[] = [];
      const res = await withRetryPolicy(policy(), () =>
        client.request({ method: 'GET', path: '/account', label: 'patient read', onResponse: (r) => attempts.push(r.status) }),
      );
      expect(res.status).toBe(200);
      expect(attempts).toEqual([429, 200]);
      expect(recorder.exchanges.map((x) => [x.label, x.response?.status])).toEqual([
        ['patient read', 429],
        ['patient read', 200],
      ]);
      expect(res.exchange).toBe(recorder.exchanges[1]);
      expect(seen[0]!['x-svc-nonce']).not.toBe(seen[1]!['x-svc-nonce']);
      // Outside the scope, the client reports the refusal.
      script.refusals = [{ retryAfter: '1' }];
      expect((await client.request({ method: 'GET', path: '/account' })).status).toBe(429);
    } finally {
      await client.close();
    }
  });
});
