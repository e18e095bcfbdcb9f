/**
 * Benchmark (not a test) of the mock's judging pipeline stage by stage, for
 * signed `POST /v1/flights/search`: the same components `ServicePipeline`
 * calls, each timed on its own over the same pre-signed requests, then the
 * whole `handle` for comparison. Says where the mock's CPU above the fastify
 * floor goes (the throughput bench gives the in-server total, C − F).
 *
 *   node --import tsx bench/mock/stages.bench.ts [requests=60000]
 */
import { performance } from 'node:perf_hooks';
import { freshNonce, signRequest } from '../../src/protocol/request-signature.js';
import { splitPathQuery } from '../../src/protocol/split-path-query.js';
import { MockClock } from '../../src/clock/mock-clock.js';
import { DefectSet } from '../../src/mock/defects/defect-set.js';
import { authenticate } from '../../src/mock/domain/auth.js';
import { JsonText } from '../../src/mock/domain/json-text.js';
import { MockService } from '../../src/mock/domain/mock-service.js';
import { RequestLog } from '../../src/mock/domain/request-log.js';
import { generateAgencies } from '../../src/mock/fixture/generate-agencies.js';
import { ServicePipeline } from '../../src/mock/http/pipeline.js';
import { matchRoute } from '../../src/mock/http/route-table.js';
import { DEFAULT_PROFILE } from '../../src/profile/defaults.js';

const N = Number(process.argv[2] ?? 60_000);
const WARM_UP = Math.min(10_000, Math.floor(N / 4));

const agencies = generateAgencies(1, { limits: { read: 1e9, write: 1e9 } });
const body = Buffer.from(JSON.stringify({ criteria: DEFAULT_PROFILE.search_criteria.flights }));

function signedRequests(agency: (typeof agencies)[number]) {
  return Array.from({ length: N }, () => {
    const signed = signRequest({
      method: 'POST',
      path: '/v1/flights/search',
      body,
      keyId: agency.key_id,
      secret: agency.secret,
      timestamp: Math.floor(Date.now() / 1000),
      nonce: freshNonce(),
    });
    return {
      method: 'POST',
      url: '/v1/flights/search',
      headers: { ...signed.headers, host: '127.0.0.1', 'content-type': 'application/json' } as Record<string, string>,
      body,
    };
  });
}

function newService(clock: MockClock): MockService {
  return new MockService({ clock, defects: new DefectSet(), fixture: { agencies }, quoteLifetimeMs: 900_000, supplierLatencyMs: 1, emit: () => undefined });
}

const stages = [
  'authenticate (parse, HMAC, nonce)',
  'rate limiter',
  'route, JSON parse, validation',
  'search (price, quote tokens, answer bytes)',
  'answer and rate headers',
  'request log',
] as const;
const spent = new Float64Array(stages.length);

// Stage by stage, on a service of its own.
{
  const clock = new MockClock();
  const service = newService(clock);
  const log = new RequestLog();
  const requests = signedRequests(agencies[0]!);
  for (let i = 0; i < N; i++) {
    const req = requests[i]!;
    const timed = i >= WARM_UP;
    let t = performance.now();
    const lap = (stage: number): void => {
      const now = performance.now();
      if (timed) spent[stage] = spent[stage]! + (now - t);
      t = now;
    };
    const now = clock.now();
    const { path, query } = splitPathQuery(req.url);
    const agency = authenticate(
      {
        method: req.method,
        path,
        query,
        body: req.body,
        authorization: req.headers.authorization,
        timestamp: req.headers['x-svc-timestamp'],
        nonce: req.headers['x-svc-nonce'],
      },
      service.agencyByKey,
      service.nonces,
      now,
      service.defects,
    );
    lap(0);
    const rl = service.limiter.take(agency.id, 'read', agency.limits.read, now);
    lap(1);
    const match = matchRoute(req.method, path);
    if (!match || !('route' in match)) throw new Error('no route');
    const input = match.route.validate(JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(req.body)), match.params);
    lap(2);
    const result = service.search(agency, match.params.product!, input as Record<string, string | number>);
    lap(3);
    const answer = result.body instanceof JsonText ? result.body.utf8 : JSON.stringify(result.body);
    const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'req_x' };
    headers['x-ratelimit-limit'] = String(rl.limit);
    headers['x-ratelimit-remaining'] = String(rl.remaining);
    headers['x-ratelimit-reset'] = String(rl.resetS);
    headers['x-ratelimit-resource'] = rl.resource;
    if (answer.length === 0) throw new Error('empty answer');
    lap(4);
    log.add({
      request_id: 'req_x',
      method: req.method,
      path: req.url,
      headers: req.headers,
      body: req.body,
      at_ms: now,
      agency_id: agency.id,
      status: 200,
      injected: undefined,
    });
    lap(5);
  }
  clock.close();
}

// The whole pipeline, on a fresh service, over fresh requests.
const clock = new MockClock();
const pipeline = new ServicePipeline(newService(clock), new RequestLog());
const requests = signedRequests(agencies[0]!);
let whole = 0;
for (let i = 0; i < N; i++) {
  const t = performance.now();
  const res = pipeline.handle(requests[i]!);
  if (i >= WARM_UP) whole += performance.now() - t;
  if (res instanceof Promise || res.status !== 200) throw new Error('unexpected answer');
}
clock.close();

const per = (ms: number): string => ((ms * 1000) / (N - WARM_UP)).toFixed(2);
console.log(`# mock pipeline by stage, signed POST /v1/flights/search, ${N - WARM_UP} requests, Node ${process.version}\n`);
console.log('| stage | µs per request |');
console.log('|---|---:|');
stages.forEach((name, i) => console.log(`| ${name} | ${per(spent[i]!)} |`));
console.log(`| sum of stages | ${per(spent.reduce((a, b) => a + b, 0))} |`);
console.log(`| \`ServicePipeline.handle\`, whole | ${per(whole)} |`);
