import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { mockLoadTarget } from '../../src/load/load-target.js';
import { runLoad } from '../../src/load/run-load.js';
import { generateAgencies } from '../../src/mock/fixture/generate-agencies.js';
import { createMock, type RunningMock } from '../../src/mock/index.js';
import type { LoadResult } from '../../src/results/load-result.js';

let mock: RunningMock | undefined;
let proxy: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
  proxy?.closeAllConnections();
  await mock?.close();
  mock = undefined;
  proxy = undefined;
});

/** A proxy in front of the mock that answers its 429s with `status` instead, headers and body unchanged: a service whose rate-limit refusal is another status. */
async function refusingWith(status: number, upstream: URL): Promise<string> {
  proxy = createServer((req, res) => {
    const out = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode === 429 ? status : (up.statusCode ?? 502), up.headers);
      up.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => proxy!.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as AddressInfo;
  const base = new URL(mock!.baseUrl);
  base.host = `127.0.0.1:${port}`;
  return base.toString();
}

describe('a profile whose rate-limit status is not 429', () => {
  it('a load counts the refusals with that status as rate-limited, never as errors, and judges its buckets by them', async () => {
    mock = await createMock({ fixture: { agencies: generateAgencies(2, { limits: { read: 10, write: 3 } }) } });
    const target = mockLoadTarget(mock);
    const baseUrl = await refusingWith(503, new URL(mock.baseUrl));
    const errors = target.profile.errors;
    const run = await runLoad({
      target: { ...target, profile: { ...target.profile, base_url: baseUrl, errors: { ...errors, rate_limited: { ...errors.rate_limited, status: 503 } } } },
      search: { product: 'flights' },
      durationS: 1.5,
      connections: 2,
      pushLimits: true,
      settleMs: 100,
      thresholds: [],
    });
    const load = run.load as LoadResult;
    // The fast search path, the paced push and the harness's own reads all met the limit: every 503 is a refusal.
    expect(load.totals.rateLimited).toBeGreaterThan(0);
    expect(load.totals.rateLimited).toBe(load.operations.all!.statuses['503']);
    expect(load.operations.search!.rateLimited).toBeGreaterThan(0);
    expect(load.operations['push.search']!.rateLimited).toBeGreaterThan(0);
    expect(load.operations['push.book']!.rateLimited).toBeGreaterThan(0);
    expect(load.operations.all!.statuses['429']).toBeUndefined();
    expect(load.totals.errors).toBe(0);
    expect(load.operations.all!.latencyByOutcome!['429'].latency.count).toBe(load.totals.rateLimited);
    // Refusals are no admissions: no window of a bucket admitted more than its limit, none refused early; and the read
    // buckets' Retry-Afters were put to the test by the wallet reads after the load (the mock's clock moved to their promise).
    const checks = run.cases.filter((c) => c.kind === 'check');
    expect(checks.filter((c) => c.verdict === 'FAIL' || c.verdict === 'ERROR').map((c) => c.message)).toEqual([]);
    expect(checks.filter((c) => c.id.startsWith('load:retry-after:') && c.id.endsWith(':read')).map((c) => c.verdict)).toEqual(['PASS', 'PASS']);
  }, 20_000);
});
