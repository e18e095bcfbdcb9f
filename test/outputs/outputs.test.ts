import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InMemoryMetricExporter, AggregationTemporality, PeriodicExportingMetricReader, DataPointType, type Histogram } from '@opentelemetry/sdk-metrics';
import { deserialize } from 'prometheus-remote-write';
import SnappyJS from 'snappyjs';
import otlpProto from '@opentelemetry/otlp-transformer/build/src/generated/root.js';
import { afterEach, describe, expect, it } from 'vitest';
import { HarnessError } from '../../src/errors/harness-error.js';
import { LoadRecorder } from '../../src/load/measure/load-recorder.js';
import { parseOutTarget } from '../../src/outputs/out-target.js';
import { openTelemetryOutput } from '../../src/outputs/otlp-output.js';
import { prometheusRemoteWrite, prometheusSeries } from '../../src/outputs/prometheus-rw-output.js';
import { LATENCY_BOUNDS_S, RequestTally } from '../../src/outputs/request-tally.js';
import { finalFigures, type RunIdentity } from '../../src/outputs/run-figures.js';
import type { RunSnapshot } from '../../src/outputs/run-snapshot.js';
import type { LoadRunResult } from '../../src/results/run-result.js';
import { req } from '../load/_request.js';

const ID: RunIdentity = { runId: '20261128-100000-abcd', command: 'load', target: 'reference', shard: 'all' };

/** A recorder fed a known mix: 2xx, 429, an expected 409, a 500, a request with no answer, one cut off; an operation sent with two methods. */
function recorded(subscriber: Parameters<LoadRecorder['subscribe']>[0]): LoadRecorder {
  const r = new LoadRecorder({ rateLimitedStatus: 429 });
  r.subscribe(subscriber);
  const t = 1_800_000_000_000;
  r.record(req({ op: 'search', agency: 'a1', bucket: 'read', sentAt: t, receivedAt: t + 3, latencyMs: 3, status: 200 }));
  r.record(req({ op: 'search', agency: 'a1', bucket: 'read', sentAt: t + 1, receivedAt: t + 40, latencyMs: 40, status: 200 }));
  r.record(req({ op: 'search', agency: 'a2', bucket: 'read', sentAt: t + 2, receivedAt: t + 4, latencyMs: 0.8, status: 429, retryAfterS: 12 }));
  r.record(req({ op: 'book', method: 'POST', agency: 'a1', bucket: 'write', sentAt: t + 3, receivedAt: t + 300, latencyMs: 300, status: 409, expected: true }));
  r.record(req({ op: 'book', method: 'POST', agency: 'a2', bucket: 'write', sentAt: t + 4, receivedAt: t + 1500, latencyMs: 1500, status: 500 }));
  r.record(req({ op: 'book', method: 'POST', agency: 'a2', bucket: 'write', sentAt: t + 5, receivedAt: t + 10_005, latencyMs: 0, status: 0 }));
  r.recordCutOff(req({ op: 'search', agency: 'a1', bucket: 'read', sentAt: t + 6, receivedAt: t + 20_000 }));
  r.record(req({ op: 'push.probe', method: 'GET', agency: 'a1', bucket: 'read', sentAt: t + 7, receivedAt: t + 9, latencyMs: 2, status: 200 }));
  r.record(req({ op: 'push.probe', method: 'POST', agency: 'a1', bucket: 'write', sentAt: t + 8, receivedAt: t + 10, latencyMs: 2, status: 201 }));
  return r;
}

function snapshot(tally: RequestTally, final?: RunSnapshot['final']): RunSnapshot {
  return { at: 1_800_000_001_000, tally, durationS: 12.5, verdicts: [{ area: 'ratelimit', verdict: 'PASS', count: 3 }], final };
}

const FINAL: RunSnapshot['final'] = {
  durationS: 12.5,
  verdicts: [{ area: 'ratelimit', verdict: 'PASS', count: 3 }],
  gates: [
    { id: 'gate:search.p95<200ms', gate: 'search.p95<200ms', passed: true },
    { id: 'gate:errors.rate<0.01', gate: 'errors.rate<0.01', passed: false },
  ],
  percentiles: [{ operation: 'all', outcome: 'all', quantile: '0.95', seconds: 0.04 }],
};

describe('--out values', () => {
  it.each([
    ['prometheus-rw=http://127.0.0.1:9090/api/v1/write', { kind: 'prometheus-rw', url: 'http://127.0.0.1:9090/api/v1/write' }],
    ['experimental-prometheus-rw=https://prom.example/api/v1/write', { kind: 'prometheus-rw', url: 'https://prom.example/api/v1/write' }],
    ['otlp=http://localhost:4318/v1/metrics', { kind: 'otlp', url: 'http://localhost:4318/v1/metrics' }],
    ['opentelemetry=http://localhost:4318/v1/metrics', { kind: 'otlp', url: 'http://localhost:4318/v1/metrics' }],
  ])('%s', (text, want) => {
    expect(parseOutTarget(text)).toEqual(want);
  });

  it.each([
    ['influxdb=http://x', /unknown output "influxdb"/],
    ['prometheus-rw', /needs an http\(s\) URL/],
    ['otlp=ftp://x/v1/metrics', /needs an http\(s\) URL/],
    ['otlp=not a url', /needs an http\(s\) URL/],
  ])('%s is one usage error', (text, message) => {
    const e = (() => {
      try {
        parseOutTarget(text);
      } catch (err) {
        return err;
      }
      return undefined;
    })();
    expect(e).toBeInstanceOf(HarnessError);
    expect((e as HarnessError).code).toBe('E_USAGE');
    expect((e as HarnessError).message).toMatch(message);
    expect((e as HarnessError).message).not.toContain('\n');
  });
});

describe('Prometheus series', () => {
  it('counts what the recorder counts, by operation, outcome, status class and error type; histograms in base units', () => {
    const tally = new RequestTally();
    const rec = recorded(tally.add);
    const series = prometheusSeries(ID, snapshot(tally, FINAL));
    const named = (n: string) => series.filter((s) => s.labels.__name__ === n);
    const requests = named('svc_harness_requests_total');
    expect(requests.reduce((n, s) => n + s.samples[0]!.value, 0)).toBe(rec.counts().requests);
    const byOutcome = (o: string) => requests.filter((s) => s.labels['outcome'] === o).reduce((n, s) => n + s.samples[0]!.value, 0);
    const c = rec.counts();
    expect([byOutcome('ok'), byOutcome('rateLimited'), byOutcome('errors'), byOutcome('expected')]).toEqual([c.ok, c.rateLimited, c.errors, c.expected]);
    expect(requests.filter((s) => s.labels['error_type']).map((s) => [s.labels['operation'], s.labels['status_class'], s.labels['error_type']])).toEqual([
      ['book', '5xx', '500'],
      ['book', 'none', 'no_response'],
    ]);
    // Each request under the method it was sent with (OpenTelemetry's http.request.method): one operation, two methods, two series.
    const byMethod = (op: string) => requests.filter((s) => s.labels['operation'] === op).map((s) => [s.labels['http_request_method'], s.samples[0]!.value]);
    expect(byMethod('push.probe')).toEqual([
      ['GET', 1],
      ['POST', 1],
    ]);
    expect(new Set(byMethod('book').map(([m]) => m))).toEqual(new Set(['POST']));
    expect(
      named('svc_harness_request_duration_seconds_count')
        .filter((s) => s.labels['operation'] === 'push.probe')
        .map((s) => s.labels['http_request_method']),
    ).toEqual(['GET', 'POST']);
    expect(named('svc_harness_requests_cut_off_total').map((s) => [s.labels['operation'], s.samples[0]!.value])).toEqual([['search', 1]]);
    // Every series names the run; no label carries a metric name.
    for (const s of series) {
      expect(s.labels).toMatchObject({ job: 'svc-harness', run_id: ID.runId, target: 'reference', shard: 'all', command: 'load' });
      expect(Object.keys(s.labels)).toEqual(['__name__', ...Object.keys(s.labels).slice(1).sort()]);
      for (const [k, v] of Object.entries(s.labels)) if (k !== '__name__') expect(v).not.toMatch(/^svc_harness_/);
    }
    // The latency of answered requests, cumulative buckets up to +Inf; the unanswered one has none.
    const okBuckets = named('svc_harness_request_duration_seconds_bucket').filter((s) => s.labels['operation'] === 'search' && s.labels['outcome'] === 'ok');
    expect(okBuckets.map((s) => s.labels['le'])).toEqual([...LATENCY_BOUNDS_S.map(String), '+Inf']);
    expect(okBuckets.find((s) => s.labels['le'] === '0.0025')!.samples[0]!.value).toBe(0);
    expect(okBuckets.find((s) => s.labels['le'] === '0.005')!.samples[0]!.value).toBe(1);
    expect(okBuckets.find((s) => s.labels['le'] === '+Inf')!.samples[0]!.value).toBe(2);
    const count = named('svc_harness_request_duration_seconds_count').reduce((n, s) => n + s.samples[0]!.value, 0);
    expect(count).toBe(rec.counts().requests - 1);
    expect(
      named('svc_harness_request_duration_seconds_sum').find((s) => s.labels['operation'] === 'book' && s.labels['outcome'] === 'errors')!.samples[0]!.value,
    ).toBeCloseTo(1.5);
    // Gates one series each, held 1 or breached 0; the harness's percentiles under their own name.
    expect(named('svc_harness_gate_passed').map((s) => [s.labels['gate'], s.samples[0]!.value])).toEqual([
      ['search.p95<200ms', 1],
      ['errors.rate<0.01', 0],
    ]);
    expect(named('svc_harness_request_duration_percentile_seconds')[0]!.labels).toMatchObject({ quantile: '0.95', operation: 'all', outcome: 'all' });
    expect(named('svc_harness_verdicts_total')[0]!.labels).toMatchObject({ area: 'ratelimit', verdict: 'PASS' });
    expect(named('svc_harness_run_duration_seconds')[0]!.samples[0]!.value).toBe(12.5);
  });

  it('final figures come from the result as its report holds them', () => {
    const load = {
      gates: [{ id: 'gate:rps>=1', source: 'rps>=1', passed: true, actual: 5, expected: '>= 1', message: '' }],
      operations: {
        all: {
          count: 10,
          latency: { count: 10, min: 1, mean: 2, p50: 2, p90: 3, p95: 4, p99: 5, p99_9: 6, max: 7 },
          latencyByOutcome: { '2xx': { latency: { count: 10, min: 1, mean: 2, p50: 2, p90: 3, p95: 4, p99: 5, p99_9: 6, max: 7 }, histogram: '' } },
        },
      },
    };
    const f = finalFigures({ kind: 'load', durationMs: 2500, cases: [{ area: 'load', verdict: 'PASS' }], load } as unknown as LoadRunResult);
    expect(f.durationS).toBe(2.5);
    expect(f.verdicts).toEqual([{ area: 'load', verdict: 'PASS', count: 1 }]);
    expect(f.gates).toEqual([{ id: 'gate:rps>=1', gate: 'rps>=1', passed: true }]);
    expect(f.percentiles.filter((p) => p.quantile === '0.95')).toEqual([
      { operation: 'all', outcome: 'all', quantile: '0.95', seconds: 0.004 },
      { operation: 'all', outcome: 'ok', quantile: '0.95', seconds: 0.004 },
    ]);
  });
});

/** A local receiver: every POST's path, headers and body. */
async function receiver(
  status = 200,
): Promise<{ url: string; got: Array<{ path: string; headers: IncomingMessage['headers']; body: Buffer }>; close(): Promise<void> }> {
  const got: Array<{ path: string; headers: IncomingMessage['headers']; body: Buffer }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    got,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.map((c) => c()));
  closers = [];
});

describe('Prometheus remote write', () => {
  it('POSTs a snappy-compressed WriteRequest that decodes to the series', async () => {
    const rx = await receiver(204);
    closers.push(rx.close);
    const tally = new RequestTally();
    recorded(tally.add);
    const warnings: string[] = [];
    await prometheusRemoteWrite(`${rx.url}/api/v1/write`, ID, (l) => warnings.push(l)).finish(snapshot(tally, FINAL));
    expect(warnings).toEqual([]);
    expect(rx.got).toHaveLength(1);
    const { path, headers, body } = rx.got[0]!;
    expect(path).toBe('/api/v1/write');
    expect(headers).toMatchObject({ 'content-type': 'application/x-protobuf', 'content-encoding': 'snappy', 'x-prometheus-remote-write-version': '0.1.0' });
    const decoded = (await deserialize(SnappyJS.uncompress(new Uint8Array(body)) as unknown as ArrayBuffer)) as unknown as {
      timeseries: Array<{ labels: Array<{ name: string; value: string }>; samples: Array<{ value: number }> }>;
    };
    const requests = decoded.timeseries.filter((t) => t.labels[0]!.value === 'svc_harness_requests_total');
    expect(requests.reduce((n, t) => n + t.samples[0]!.value, 0)).toBe(8);
  });

  it('an unreachable receiver is one warning, not an error, and only once until a push succeeds', async () => {
    const tally = new RequestTally();
    const warnings: string[] = [];
    const out = prometheusRemoteWrite('http://127.0.0.1:1/api/v1/write', ID, (l) => warnings.push(l));
    await out.send(snapshot(tally));
    await out.finish(snapshot(tally, FINAL));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^--out prometheus-rw: push to http:\/\/127\.0\.0\.1:1\/api\/v1\/write failed \(connect ECONNREFUSED 127\.0\.0\.1:1\); the run goes on/,
    );
  });
});

describe('OpenTelemetry metrics', () => {
  it("the SDK's in-memory reader sees the same counts, HTTP attribute names, the histogram in seconds, gauges and the run's resource", async () => {
    const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
    const tally = new RequestTally();
    const out = openTelemetryOutput({
      id: ID,
      version: '1.2.3',
      baseUrl: 'http://127.0.0.1:8080',
      tally,
      reader: (metricProducers) => new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 60_000, metricProducers }),
      intervalMs: 60_000,
      warn: () => undefined,
    });
    const rec = recorded(tally.add);
    await out.finish(snapshot(tally, FINAL));
    const exported = exporter.getMetrics();
    expect(exported.length).toBeGreaterThan(0);
    const rm = exported.at(-1)!;
    expect(rm.resource.attributes).toMatchObject({
      'service.name': 'svc-harness',
      'service.version': '1.2.3',
      'service.instance.id': ID.runId,
      'svc_harness.run.id': ID.runId,
      'svc_harness.target': 'reference',
    });
    const metrics = rm.scopeMetrics.flatMap((s) => s.metrics);
    const metric = (name: string) => metrics.find((m) => m.descriptor.name === name)!;
    const requests = metric('svc_harness.requests');
    expect(requests.dataPoints.reduce((n, p) => n + (p.value as number), 0)).toBe(rec.counts().requests);
    const error500 = requests.dataPoints.find((p) => p.attributes['error.type'] === '500')!;
    expect(error500.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.response.status_code': 500,
      'svc_harness.operation': 'book',
      'svc_harness.outcome': 'errors',
      'server.address': '127.0.0.1',
      'server.port': 8080,
    });
    expect(requests.dataPoints.find((p) => p.attributes['error.type'] === 'no_response')!.attributes['http.response.status_code']).toBeUndefined();
    expect(
      requests.dataPoints.filter((p) => p.attributes['svc_harness.operation'] === 'push.probe').map((p) => [p.attributes['http.request.method'], p.value]),
    ).toEqual([
      ['GET', 1],
      ['POST', 1],
    ]);
    const duration = metric('http.client.request.duration');
    expect(duration.descriptor.unit).toBe('s');
    expect(duration.dataPointType).toBe(DataPointType.HISTOGRAM);
    const h = duration.dataPoints.map((p) => p.value as Histogram);
    expect(h.reduce((n, x) => n + x.count, 0)).toBe(rec.counts().requests - 1);
    expect(h[0]!.buckets.boundaries).toEqual(LATENCY_BOUNDS_S);
    expect(duration.dataPoints.every((p) => p.attributes['http.request.method'] === 'GET' || p.attributes['http.request.method'] === 'POST')).toBe(true);
    expect(metric('svc_harness.requests.cut_off').dataPoints[0]!.value).toBe(1);
    expect(metric('svc_harness.gate.passed').dataPoints.map((p) => [p.attributes['svc_harness.gate'], p.value])).toEqual([
      ['search.p95<200ms', 1],
      ['errors.rate<0.01', 0],
    ]);
    expect(metric('svc_harness.run.duration').dataPoints[0]!.value).toBe(12.5);
    expect(metric('svc_harness.request.duration.percentile').dataPoints[0]!.attributes).toMatchObject({ 'svc_harness.quantile': '0.95' });
  });

  it('one real OTLP/HTTP request: protobuf a local receiver decodes with the official generated messages', async () => {
    const rx = await receiver(200);
    closers.push(rx.close);
    const tally = new RequestTally();
    const out = openTelemetryOutput({ id: ID, version: '1.2.3', url: `${rx.url}/v1/metrics`, tally, intervalMs: 60_000, warn: () => undefined });
    recorded(tally.add);
    await out.finish(snapshot(tally, FINAL));
    expect(rx.got.length).toBeGreaterThan(0);
    const { path, headers, body } = rx.got.at(-1)!;
    expect(path).toBe('/v1/metrics');
    expect(headers['content-type']).toBe('application/x-protobuf');
    // The message classes the OpenTelemetry JS project generates from opentelemetry-proto.
    const Request = (
      otlpProto as unknown as {
        opentelemetry: {
          proto: {
            collector: { metrics: { v1: { ExportMetricsServiceRequest: { decode(b: Uint8Array): unknown; toObject(m: unknown, o: object): unknown } } } };
          };
        };
      }
    ).opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
    const decoded = Request.toObject(Request.decode(body), { longs: Number }) as {
      resourceMetrics: Array<{
        resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> };
        scopeMetrics: Array<{ metrics: Array<{ name: string; sum?: { dataPoints: Array<{ asInt?: number; asDouble?: number }> }; histogram?: unknown }> }>;
      }>;
    };
    const rm = decoded.resourceMetrics[0]!;
    expect(rm.resource.attributes.find((a) => a.key === 'svc_harness.run.id')!.value.stringValue).toBe(ID.runId);
    const metrics = rm.scopeMetrics.flatMap((s) => s.metrics);
    const requests = metrics.find((m) => m.name === 'svc_harness.requests')!;
    expect(requests.sum!.dataPoints.reduce((n, p) => n + (p.asInt ?? p.asDouble ?? 0), 0)).toBe(8);
    expect(metrics.find((m) => m.name === 'http.client.request.duration')!.histogram).toBeDefined();
  });
});
