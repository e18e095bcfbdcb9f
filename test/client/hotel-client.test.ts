import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryRecorder } from '../../src/client/exchange.js';
import { HotelClient } from '../../src/client/hotel-client.js';
import { REDACTED } from '../../src/log/redacted.js';
import { startVerifyingServer, type Seen } from './verifying-server.js';

const KEY = 'hk_secret_key_0123';

describe('HotelClient', () => {
  let server: Awaited<ReturnType<typeof startVerifyingServer>>;
  const recorder = new MemoryRecorder();
  let client: HotelClient;

  beforeAll(async () => {
    server = await startVerifyingServer({});
    client = new HotelClient({ baseUrl: server.url, apiKey: KEY, apiKeyHeader: 'X-API-Key', recorder, now: () => 42 });
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it('sends the key and records it redacted', async () => {
    const res = await client.request({ method: 'POST', path: '/hotels/v1/availability', body: '{"a":1}' });
    const seen = JSON.parse(res.text) as Seen;
    expect(seen.headers['x-api-key']).toBe(KEY);
    expect(seen.headers.authorization).toBeUndefined();
    expect(seen.path).toBe('/hotels/v1/availability');
    expect(res.exchange.request.headers['x-api-key']).toBe(REDACTED);
    expect(res.exchange.startedAt).toBe(42);
    // The echo server answers the key back, so only the recorded request must be free of it.
    expect(JSON.stringify(recorder.exchanges.map((x) => x.request))).not.toContain(KEY);
  });

  it('omits the key header when asked with null', async () => {
    const res = await client.request({ method: 'DELETE', path: '/hotels/v1/bookings/r1', apiKey: null });
    const seen = JSON.parse(res.text) as Seen;
    expect(seen.method).toBe('DELETE');
    expect('x-api-key' in seen.headers).toBe(false);
    expect('x-api-key' in res.exchange.request.headers).toBe(false);
  });

  it('records a deliberately wrong key as sent', async () => {
    const res = await client.request({ method: 'POST', path: '/hotels/v1/bookings', apiKey: 'wrong-key', body: '{}' });
    expect((JSON.parse(res.text) as Seen).headers['x-api-key']).toBe('wrong-key');
    expect(res.exchange.request.headers['x-api-key']).toBe('wrong-key');
  });
});
