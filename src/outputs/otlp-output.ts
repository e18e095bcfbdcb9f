import { ValueType, type Attributes, type HrTime } from '@opentelemetry/api';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AggregationTemporality,
  DataPointType,
  MeterProvider,
  PeriodicExportingMetricReader,
  type MetricProducer,
  type MetricReader,
  type PushMetricExporter,
} from '@opentelemetry/sdk-metrics';
import { UNKNOWN_OUTCOME } from '../load/measure/load-recorder.js';
import { LATENCY_BOUNDS_S, type RequestTally } from './request-tally.js';
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
  /** The load's requests so far (empty for a suite run): read at each export, never per request. */
  tally: RequestTally;
  /** A reader of one's own, given the producer of the request metrics, instead of the periodic OTLP export (the SDK's in-memory exporter, in tests). */
  reader?: ((producers: MetricProducer[]) => MetricReader) | undefined;
  /** Milliseconds between exports. */
  intervalMs: number;
  warn: (line: string) => void;
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

const hrTime = (ms: number): HrTime => [Math.floor(ms / 1000), Math.round((ms % 1000) * 1e6)];

/**
 * The load's requests as OpenTelemetry metric data, made from the tally at
 * each collection (a metric producer of the SDK's reader): the counter and the
 * `http.client.request.duration` histogram cost nothing per request.
 */
function requestMetrics(tally: RequestTally, version: string, server: Attributes, startMs: number): MetricProducer {
  const attrs = (c: { operation: string; method: string; outcome: string; status: number }): Attributes => {
    const a: Attributes = { ...server, 'http.request.method': c.method, 'svc_harness.operation': c.operation, 'svc_harness.outcome': c.outcome };
    if (c.status !== UNKNOWN_OUTCOME) a['http.response.status_code'] = c.status;
    if (c.outcome === 'errors') a['error.type'] = c.status === UNKNOWN_OUTCOME ? 'no_response' : String(c.status);
    return a;
  };
  return {
    collect() {
      const startTime = hrTime(startMs);
      const endTime = hrTime(Date.now());
      return Promise.resolve({
        resourceMetrics: {
          resource: resourceFromAttributes({}),
          scopeMetrics: [
            {
              scope: { name: 'svc-harness', version },
              metrics: [
                {
                  descriptor: {
                    name: 'svc_harness.requests',
                    description: 'Requests the load sent, by what became of them',
                    unit: '{request}',
                    valueType: ValueType.INT,
                  },
                  aggregationTemporality: AggregationTemporality.CUMULATIVE,
                  dataPointType: DataPointType.SUM,
                  isMonotonic: true,
                  dataPoints: tally.countCells().map((c) => ({ attributes: attrs(c), startTime, endTime, value: c.count })),
                },
                {
                  descriptor: {
                    name: 'svc_harness.requests.cut_off',
                    description: 'Requests in flight when the load stopped',
                    unit: '{request}',
                    valueType: ValueType.INT,
                  },
                  aggregationTemporality: AggregationTemporality.CUMULATIVE,
                  dataPointType: DataPointType.SUM,
                  isMonotonic: true,
                  dataPoints: tally.cutOffCells().map((c) => ({ attributes: { 'svc_harness.operation': c.operation }, startTime, endTime, value: c.count })),
                },
                {
                  descriptor: {
                    name: 'http.client.request.duration',
                    description: 'Latency of the requests the load sent (answered ones)',
                    unit: 's',
                    valueType: ValueType.DOUBLE,
                  },
                  aggregationTemporality: AggregationTemporality.CUMULATIVE,
                  dataPointType: DataPointType.HISTOGRAM,
                  dataPoints: tally.durationCells().map((d) => ({
                    attributes: attrs(d),
                    startTime,
                    endTime,
                    value: { buckets: { boundaries: [...LATENCY_BOUNDS_S], counts: [...d.buckets] }, sum: d.sum, count: d.count },
                  })),
                },
              ],
            },
          ],
        },
        errors: [],
      });
    },
  };
}

/**
 * OpenTelemetry metrics through the official SDK (2.x line: Node 20): the
 * load's requests as a counter and the `http.client.request.duration`
 * histogram with HTTP semantic-convention attributes (from the tally, at each
 * export), the run's verdicts, gates and harness percentiles as gauges; a
 * resource names svc-harness and the run.
 */
export function openTelemetryOutput(o: OtlpOptions): MetricsOutput {
  const url = o.url ?? '';
  const server: Attributes = {};
  if (o.baseUrl !== undefined) {
    const u = new URL(o.baseUrl);
    server['server.address'] = u.hostname;
    server['server.port'] = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
  }
  const producers = [requestMetrics(o.tally, o.version, server, Date.now())];
  const reader = o.reader
    ? o.reader(producers)
    : new PeriodicExportingMetricReader({
        exporter: warningExporter(new OTLPMetricExporter({ url, timeoutMillis: EXPORT_TIMEOUT_MS }), url, o.warn),
        exportIntervalMillis: o.intervalMs,
        exportTimeoutMillis: EXPORT_TIMEOUT_MS,
        metricProducers: producers,
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
  const runDuration = meter.createGauge('svc_harness.run.duration', { unit: 's', description: 'Seconds the run has taken' });
  const verdicts = meter.createGauge('svc_harness.verdicts', { unit: '{case}', description: 'Cases of the run by area and verdict' });
  const gates = meter.createGauge('svc_harness.gate.passed', { description: '1 when the gate held, 0 when it was breached' });
  const percentiles = meter.createGauge('svc_harness.request.duration.percentile', {
    unit: 's',
    description: 'Latency percentiles the harness computed (HDR)',
  });
  const gauges = (s: RunSnapshot): void => {
    runDuration.record(s.durationS);
    for (const v of s.verdicts) verdicts.record(v.count, { 'svc_harness.area': v.area, 'svc_harness.verdict': v.verdict });
    if (!s.final) return;
    for (const g of s.final.gates) gates.record(g.passed ? 1 : 0, { 'svc_harness.gate.id': g.id, 'svc_harness.gate': g.gate });
    for (const p of s.final.percentiles)
      percentiles.record(p.seconds, { 'svc_harness.operation': p.operation, 'svc_harness.outcome': p.outcome, 'svc_harness.quantile': p.quantile });
  };
  return {
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
