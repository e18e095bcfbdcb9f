import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currencyRatesCheck } from '../../src/checks/wallet/currency-rates.js';
import { resolveProfile } from '../../src/profile/validate-profile.js';
import type { ResolvedAgency } from '../../src/profile/types.js';
import { RealClockDriver } from '../../src/clock/real-clock-driver.js';
import { runSuite } from '../../src/runner/run-suite.js';

/** A target that answers every request 200 with a JSON body trickling in one byte every 100 ms, forever. */
function tricklingServer(): Server {
  return createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' });
    res.write('{');
    const timer = setInterval(() => res.write(' '), 100);
    res.on('close', () => clearInterval(timer));
  });
}

describe('a target whose body trickles in', () => {
  let server: Server;
  let baseUrl: string;
  const agencies: ResolvedAgency[] = [{ id: 'agency-alpha', keyId: 'ak_alpha', secret: 'trickle-secret' }];

  beforeAll(async () => {
    server = tricklingServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });

  const profileWith = (requestTimeoutMs: number) =>
    resolveProfile({
      base_url: baseUrl,
      hotel_base_url: null,
      clock: { control: 'none' },
      request_timeout_ms: requestTimeoutMs,
      agencies: [{ id: 'agency-alpha', key_id: 'ak_alpha', secret: 'trickle-secret' }],
    });

  it('bounds the whole exchange by request_timeout_ms, though each byte comes in time', async () => {
    const t0 = Date.now();
    const result = await runSuite({ profile: profileWith(400), agencies, checks: [currencyRatesCheck], clock: new RealClockDriver(), checkTimeoutMs: 60_000 });
    expect(Date.now() - t0).toBeLessThan(5_000);
    const wl05 = result.cases.find((c) => c.id === 'WL-05')!;
    expect(wl05.verdict).toMatch(/^(ERROR|FAIL)$/);
    expect(wl05.message).toContain('no whole answer within 400 ms');
    expect(result.exchanges.some((x) => x.error?.includes('within 400 ms'))).toBe(true);
  });

  it('bounds the wait for headers the same way', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}/v1`;
      const profile = resolveProfile({
        base_url: url,
        hotel_base_url: null,
        clock: { control: 'none' },
        request_timeout_ms: 300,
        agencies: [{ id: 'agency-alpha', key_id: 'ak_alpha', secret: 'trickle-secret' }],
      });
      const t0 = Date.now();
      const result = await runSuite({ profile, agencies, checks: [currencyRatesCheck], clock: new RealClockDriver(), checkTimeoutMs: 60_000 });
      expect(Date.now() - t0).toBeLessThan(5_000);
      expect(result.cases[0]!.message).toContain('no whole answer within 300 ms');
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((r) => silent.close(() => r()));
    }
  });

  it('aborts the requests of a check whose time is up, and the run ends', async () => {
    const t0 = Date.now();
    const result = await runSuite({ profile: profileWith(60_000), agencies, checks: [currencyRatesCheck], clock: new RealClockDriver(), checkTimeoutMs: 500 });
    expect(Date.now() - t0).toBeLessThan(5_000);
    const wl05 = result.cases.find((c) => c.id === 'WL-05')!;
    expect(wl05).toMatchObject({ verdict: 'ERROR', message: expect.stringContaining('timed out after 500 ms') });
    // The abandoned request was torn down, not left open: the target saw its socket closed.
    await new Promise((r) => setTimeout(r, 100));
    const open = await new Promise<number>((r) => server.getConnections((_, n) => r(n)));
    expect(open).toBe(0);
  });
});
