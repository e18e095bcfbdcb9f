/**
 * Benchmark (not a test) of the mock's judging pipeline alone, without HTTP:
 * CPU time per signed `POST /v1/flights/search` through
 * `ServicePipeline.handle` (authentication, limiter, validation, search,
 * serialisation, request log). Separates the mock's own work from node:http
 * and fastify in the throughput bench's figure.
 *
 *   node --import tsx bench/mock/pipeline.bench.ts [requests=60000]
 */
import { freshNonce, signRequest } from '../../src/protocol/request-signature.js';
import { MockClock } from '../../src/clock/mock-clock.js';
import { DefectSet } from '../../src/mock/defects/defect-set.js';
import { MockService } from '../../src/mock/domain/mock-service.js';
import { RequestLog } from '../../src/mock/domain/request-log.js';
import { generateAgencies } from '../../src/mock/fixture/generate-agencies.js';
import { ServicePipeline } from '../../src/mock/http/pipeline.js';
import { DEFAULT_PROFILE } from '../../src/profile/defaults.js';

const N = Number(process.argv[2] ?? 60_000);
const WARM_UP = Math.min(10_000, Math.floor(N / 4));

const clock = new MockClock();
const agencies = generateAgencies(1, { limits: { read: 1e9, write: 1e9 } });
const service = new MockService({
  clock,
  defects: new DefectSet(),
  fixture: { agencies },
  quoteLifetimeMs: 900_000,
  supplierLatencyMs: 1,
  emit: () => undefined,
});
const pipeline = new ServicePipeline(service, new RequestLog());
const agency = agencies[0]!;
const body = Buffer.from(JSON.stringify({ criteria: DEFAULT_PROFILE.search_criteria.flights }));
// Signed up front, so that only the mock's work is timed.
const requests = Array.from({ length: N }, () => {
  const signed = signRequest({
    method: 'POST',
    path: '/v1/flights/search',
    body,
    keyId: agency.key_id,
    secret: agency.secret,
    timestamp: Math.floor(Date.now() / 1000),
    nonce: freshNonce(),
  });
  return { method: 'POST', url: '/v1/flights/search', headers: { ...signed.headers, host: '127.0.0.1', 'content-type': 'application/json' }, body };
});

for (let i = 0; i < WARM_UP; i++) await pipeline.handle(requests[i]!);
const before = process.cpuUsage();
for (let i = WARM_UP; i < N; i++) {
  const res = await pipeline.handle(requests[i]!);
  if (res.status !== 200) throw new Error(`unexpected ${res.status}: ${String(res.body)}`);
}
const used = process.cpuUsage(before);
console.log(`pipeline CPU per signed search: ${((used.user + used.system) / (N - WARM_UP)).toFixed(1)} µs over ${N - WARM_UP} requests`);
clock.close();
