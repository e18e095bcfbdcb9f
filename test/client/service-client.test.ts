import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryRecorder } from '../../src/client/exchange.js';
import { ServiceClient } from '../../src/client/service-client.js';
import { createSigningInterceptor } from '../../src/client/signing-interceptor.js';
import { HarnessError } from '../../src/errors/harness-error.js';
import { startVerifyingServer, type Seen } from './verifying-server.js';

const SECRET = 'sk_live_do_not_leak_0123456789';
const NOW = 1_700_000_123_456;

describe('ServiceClient against a verifying server', () => {
  let server: Awaited<ReturnType<typeof startVerifyingServer>>;
  let recorder: MemoryRecorder;
  let client: ServiceClient;

  beforeAll(async () => {
    server = await startVerifyingServer({ ak_test: SECRET, ak_other: 'other' });
    recorder = new MemoryRecorder();
    client = new ServiceClient({ baseUrl: `${server.url}/v1`, keyId: 'ak_test', secret: SECRET, recorder, now: () => NOW, timeoutMs: 5_000 });
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  const seenOf = (text: string) => JSON.parse(text) as Seen;

  it('signs the path with its prefix, the raw query and the exact UTF-8 body bytes', async () => {
    const body = '{"city":"São Paulo ✈","note":"a+b c"}';
    const res = await client.request({ method: 'POST', path: '/flights/search', query: "b=2&a=x%20y&c=!'()*", body });
    const seen = seenOf(res.text);
    expect(seen.valid).toBe(true);
    expect(seen.method).toBe('POST');
    expect(seen.path).toBe('/v1/flights/search');
    expect(seen.query).toBe("b=2&a=x%20y&c=!'()*");
    expect(Buffer.from(seen.bodyBase64, 'base64').equals(Buffer.from(body, 'utf8'))).toBe(true);
    expect(seen.headers['x-svc-timestamp']).toBe(String(Math.floor(NOW / 1000)));
    expect(seen.headers['content-type']).toBe('application/json');
    expect(seen.stringToSign!.split('\n')[5]).toBe('a=x%20y&b=2&c=%21%27%28%29%2A');
  });

  it('signs byte bodies as sent and an inline query in the path', async () => {
    const bytes = Buffer.from([0x7b, 0x7d, 0xe2, 0x82, 0xac]);
    const res = await client.request({ method: 'PUT', path: '/x?z=1&y=2', body: bytes });
    const seen = seenOf(res.text);
    expect(seen.valid).toBe(true);
    expect(seen.query).toBe('z=1&y=2');
    expect(Buffer.from(seen.bodyBase64, 'base64').equals(bytes)).toBe(true);
  });

  it('uses a fresh nonce on every request', async () => {
    const a = seenOf((await client.request({ method: 'GET', path: '/account' })).text);
    const b = seenOf((await client.request({ method: 'GET', path: '/account' })).text);
    expect(a.valid && b.valid).toBe(true);
    expect(a.headers['x-svc-nonce']).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
    expect(a.headers['x-svc-nonce']).not.toBe(b.headers['x-svc-nonce']);
    expect(a.headers['content-type']).toBeUndefined();
  });

  it('records each exchange in full, without the secret', async () => {
    const before = recorder.exchanges.length;
    const res = await client.request({
      method: 'POST',
      path: '/echo',
      body: '{"ü":1}',
      label: 'capture test',
      headers: { 'x-echo-status': '418', 'x-echo-headers': '{"x-ratelimit-limit":"60"}' },
    });
    expect(res.status).toBe(418);
    expect(recorder.exchanges.length).toBe(before + 1);
    const x = recorder.exchanges.at(-1)!;
    expect(x).toBe(res.exchange);
    expect(x.id).toMatch(/^x-\d{6}$/);
    expect(x.label).toBe('capture test');
    expect(x.startedAt).toBe(NOW);
    expect(x.durationMs).toBeGreaterThan(0);
    expect(x.request.method).toBe('POST');
    expect(x.request.url).toBe(`${server.url}/v1/echo`);
    expect(x.request.body).toBe('{"ü":1}');
    expect(x.request.headers.authorization).toMatch(/^SVC-HMAC-SHA256 Credential=ak_test, SignedHeaders=x-svc-nonce;x-svc-timestamp, Signature=[0-9a-f]{64}$/);
    expect(x.request.headers['x-svc-nonce']).toBeDefined();
    expect(x.response!.status).toBe(418);
    expect(x.response!.headers['x-ratelimit-limit']).toBe('60');
    expect(x.response!.body).toBe(res.text);
    expect(Buffer.from(x.response!.bodyBase64!, 'base64').equals(res.bytes)).toBe(true);
    expect(Buffer.isBuffer(res.bytes)).toBe(true);
    expect(JSON.stringify(recorder.exchanges)).not.toContain(SECRET);
  });

  it('breaks signatures on request: omit, skew, nonce, secret, key id', async () => {
    const omitted = seenOf((await client.request({ method: 'GET', path: '/account', signing: { omit: true } })).text);
    expect(omitted.headers.authorization).toBeUndefined();
    expect(omitted.headers['x-svc-nonce']).toBeUndefined();
    expect(omitted.headers['x-svc-timestamp']).toBeUndefined();

    const skewed = seenOf((await client.request({ method: 'GET', path: '/account', signing: { skewS: -301 } })).text);
    expect(skewed.valid).toBe(true);
    expect(skewed.headers['x-svc-timestamp']).toBe(String(Math.floor(NOW / 1000) - 301));

    const forced = seenOf((await client.request({ method: 'GET', path: '/account', signing: { nonce: 'fixed-nonce-000000001' } })).text);
    expect(forced.valid).toBe(true);
    expect(forced.headers['x-svc-nonce']).toBe('fixed-nonce-000000001');

    const wrongSecret = seenOf((await client.request({ method: 'GET', path: '/account', signing: { secret: 'nope' } })).text);
    expect(wrongSecret.valid).toBe(false);

    const otherKey = seenOf((await client.request({ method: 'GET', path: '/account', signing: { keyId: 'ak_other', secret: 'other' } })).text);
    expect(otherKey.valid).toBe(true);
    expect(otherKey.keyId).toBe('ak_other');

    const overridden = seenOf((await client.request({ method: 'GET', path: '/account', headers: { authorization: 'Bearer x' } })).text);
    expect(overridden.headers.authorization).toBe('Bearer x');
  });

  it('signs "/" when the base url has no path and the path is empty', async () => {
    const bare = new ServiceClient({ baseUrl: server.url, keyId: 'ak_test', secret: SECRET, now: () => NOW });
    try {
      const seen = seenOf((await bare.request({ method: 'GET', path: '' })).text);
      expect(seen.path).toBe('/');
      expect(seen.valid).toBe(true);
      expect(seen.stringToSign!.split('\n')[4]).toBe('/');
    } finally {
      await bare.close();
    }
  });

  it('composes as an undici interceptor', async () => {
    const pool = new Pool(server.url);
    try {
      const signed = pool.compose(createSigningInterceptor({ keyId: 'ak_test', secret: SECRET, now: () => NOW }));
      const res = await signed.request({ path: '/v1/wallet/statement?limit=2&cursor=a%2Bb', method: 'POST', body: '{"é":true}', headers: { 'x-extra': '1' } });
      const seen = (await res.body.json()) as Seen;
      expect(seen.valid).toBe(true);
      expect(seen.headers['x-extra']).toBe('1');
      expect(seen.headers['x-svc-timestamp']).toBe(String(Math.floor(NOW / 1000)));
    } finally {
      await pool.close();
    }
  });
});

describe('ServiceClient transport failures', () => {
  it('maps a refused connection to E_TARGET_UNREACHABLE and records the attempt', async () => {
    // Take a free port, then release it so nothing listens there.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const recorder = new MemoryRecorder();
    const client = new ServiceClient({ baseUrl: `http://127.0.0.1:${port}/v1`, keyId: 'k', secret: 's', recorder });
    try {
      const err = await client.request({ method: 'GET', path: '/account' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(HarnessError);
      expect((err as HarnessError).code).toBe('E_TARGET_UNREACHABLE');
      expect(recorder.exchanges).toHaveLength(1);
      expect(recorder.exchanges[0]!.error).toContain('E_TARGET_UNREACHABLE');
      expect(recorder.exchanges[0]!.response).toBeUndefined();
    } finally {
      await client.close();
    }
  });

  it('refuses a base url that is not http(s)', () => {
    expect(() => new ServiceClient({ baseUrl: 'not a url', keyId: 'k', secret: 's' })).toThrow(/base url/);
    expect(() => new ServiceClient({ baseUrl: 'ftp://x/v1', keyId: 'k', secret: 's' })).toThrow(/http or https/);
  });
});
