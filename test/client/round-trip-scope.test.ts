import { describe, expect, it } from 'vitest';
import { MemoryRecorder } from '../../src/client/exchange.js';
import { RoundTripMeter, withRoundTrips } from '../../src/client/round-trip-scope.js';
import { ServiceClient } from '../../src/client/service-client.js';
import { startVerifyingServer } from './verifying-server.js';

describe('round trips of a scope', () => {
  it('counts a chain of requests one by one and a burst as one', async () => {
    const server = await startVerifyingServer({ ak_test: 'secret' });
    const client = new ServiceClient({ baseUrl: `${server.url}/v1`, keyId: 'ak_test', secret: 'secret', recorder: new MemoryRecorder(), timeoutMs: 5_000 });
    try {
      const chain = new RoundTripMeter();
      await withRoundTrips(chain, async () => {
        for (let i = 0; i < 3; i++) await client.request({ method: 'GET', path: '/account' });
      });
      expect(chain.read()).toEqual({ requests: 3, roundTrips: 3 });

      const burst = new RoundTripMeter();
      await withRoundTrips(burst, async () => {
        await Promise.all(Array.from({ length: 5 }, () => client.request({ method: 'GET', path: '/account' })));
        await client.request({ method: 'GET', path: '/account' });
      });
      expect(burst.read()).toEqual({ requests: 6, roundTrips: 2 });

      // Outside a scope nothing is counted, and one scope does not count another's requests.
      await client.request({ method: 'GET', path: '/account' });
      expect(chain.read()).toEqual({ requests: 3, roundTrips: 3 });
      expect(burst.read()).toEqual({ requests: 6, roundTrips: 2 });
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('counts a failed request, and its end only once', () => {
    const meter = new RoundTripMeter();
    const end = meter.begin();
    end();
    end();
    const next = meter.begin();
    next();
    expect(meter.read()).toEqual({ requests: 2, roundTrips: 2 });
  });
});
