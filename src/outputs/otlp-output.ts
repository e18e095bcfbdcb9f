import type { Attributes } from '@opentelemetry/api';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader, type MetricReader, type PushMetricExporter } from '@opentelemetry/sdk-metrics';
import { UNKNOWN_OUTCOME, type RecordedRequest } from '../load/measure/load-recorder.js';
import { errorType, LATENCY_BOUNDS_S } from './request-tally.js';
import type { RunIdentity } from './run-figures.js';
import type { MetricsOutput, RunSnapshot } from './run-snapshot.js';

/** Milliseconds an export may take before it counts as failed. */
const EXPORT_TIMEOUT_MS = 5000;

/** Options of {@link openTelemetryOutput}. */
interface OtlpOptions {
  id: RunIdentity;
  /** The harness's version, for the resource's `service.version`. */
  version: string;
  /** Base address of the target, for `server.address` and `server.port`. */
  baseUrl?: string | undefined;
  /** OTLP/HTTP metrics endpoint (`…/v1/metrics`); the SDK's protobuf exporter sends to it. */
  url?: string | undefined;
  /** A reader of one's own instead of the periodic OTLP export (the SDK's in-memory exporter, in tests). */
  reader?: MetricReader | undefined;
  /** Milliseconds between exports. */
  intervalMs: number;
  warn: (line: string) => void;
}

/** An OpenTelemetry output: told of every request, exporting on its own period. */
export interface OtlpOutput extends MetricsOutput {
  request(r: RecordedRequest): void;
}

/** The exporter, telling `warn` of a failed export (once until one succeeds again). */
function warningExporter(inner: PushMetricExporter, url: string, warn: (line: string) => void): PushMetricExporter {
  let failing = false;
  return {
    export(metrics, done) {
      inner.export(metrics, (result) => {
        const failed = result.code !== 0;
        if (failed && !failing)
          warn(`--out otlp: export to ${url} failed (${result.error?.message ?? 'no reason given'}); the run goes on, its report holds every figure`);
        failing = failed;
        done(result);
      });
    },
    forceFlush: () => inner.forceFlush(),
    shutdown: () => inner.shutdown(),
    ...(inner.selectAggregationTemporality ? { selectAggregationTemporality: inner.selectAggregationTemporality.bind(inner) } : {}),
    ...(inner.selectAggregation ? { selectAggregation: inner.selectAggregation.bind(inner) } : {}),
  };
}

/**
 * OpenTelemetry metrics through the official SDK (2.x line: Node 20): the
 * load's requests as a counter and the `http.client.request.duration`
 * histogram with HTTP semantic-convention attributes, the run's verdicts,
 * gates and harness percentiles as gauges; a resource names svc-harness and the run.
 */
export function openTelemetryOutput(o: OtlpOptions): OtlpOutput {
  const url = o.url ?? '';
  const reader =
    o.reader ??
    new PeriodicExportingMetricReader({
      exporter: warningExporter(new OTLPMetricExporter({ url, timeoutMillis: EXPORT_TIMEOUT_MS }), url, o.warn),
      exportIntervalMillis: o.intervalMs,
      exportTimeoutMillis: EXPORT_TIMEOUT_MS,
    });
  const provider = new MeterProvider({
    resource: resourceFromAttributes({
      'service.name': 'svc-harness',
      'service.version': o.version,
      'service.instance.id': o.id.runId,
      'svc_harness.run.id': o.id.runId,
      'svc_harness.command': o.id.command,
      'svc_harness.target': o.id.target,
      'svc_harness.shard': o.id.shard,
    }),
    readers: [reader],
  });
  const meter = provider.getMeter('svc-harness', o.version);
  const requests = meter.createCounter('svc_harness.requests', { unit: '{request}', description: 'Requests the load sent, by what became of them' });
  const cutOff = meter.createCounter('svc_harness.requests.cut_off', { unit: '{request}', description: 'Requests in flight when the load stopped' });
  const duration = meter.createHistogram('http.client.request.duration', {
    unit: 's',
    description: 'Latency of the requests the load sent (answered ones)',
    advice: { explicitBucketBoundaries: [...LATENCY_BOUNDS_S] },
  });
  const runDuration = meter.createGauge('svc_harness.run.duration', { unit: 's', description: 'Seconds the run has taken' });
  const verdicts = meter.createGauge('svc_harness.verdicts', { unit: '{case}', description: 'Cases of the run by area and verdict' });
  const gates = meter.createGauge('svc_harness.gate.passed', { description: '1 when the gate held, 0 when it was breached' });
  const percentiles = meter.createGauge('svc_harness.request.duration.percentile', {
    unit: 's',
    description: 'Latency percentiles the harness computed (HDR)',
  });
  const server: Attributes = {};
  if (o.baseUrl !== undefined) {
    const u = new URL(o.baseUrl);
    server['server.address'] = u.hostname;
    server['server.port'] = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
  }
  const gauges = (s: RunSnapshot): void => {
    runDuration.record(s.durationS);
    for (const v of s.verdicts) verdicts.record(v.count, { 'svc_harness.area': v.area, 'svc_harness.verdict': v.verdict });
    if (!s.final) return;
    for (const g of s.final.gates) gates.record(g.passed ? 1 : 0, { 'svc_harness.gate.id': g.id, 'svc_harness.gate': g.gate });
    for (const p of s.final.percentiles)
      percentiles.record(p.seconds, { 'svc_harness.operation': p.operation, 'svc_harness.outcome': p.outcome, 'svc_harness.quantile': p.quantile });
  };
  return {
    request(r) {
      if (r.outcome === 'cutOff') {
        cutOff.add(1, { 'svc_harness.operation': r.op });
        return;
      }
      const attrs: Attributes = { ...server, 'svc_harness.operation': r.op, 'svc_harness.outcome': r.outcome };
      if (r.status !== UNKNOWN_OUTCOME) attrs['http.response.status_code'] = r.status;
      const err = errorType(r);
      if (err !== undefined) attrs['error.type'] = err;
      requests.add(1, attrs);
      if (r.status !== UNKNOWN_OUTCOME) duration.record(r.latencyMs / 1000, attrs);
    },
    send(s) {
      gauges(s);
      return Promise.resolve();
    },
    async finish(s) {
      gauges(s);
      // A failed export has been warned of by the exporter; the run's result stands either way.
      await provider.forceFlush().catch(() => undefined);
      await provider.shutdown().catch(() => undefined);
    },
  };
}
