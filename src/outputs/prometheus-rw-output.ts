import { pushTimeseries, type Timeseries } from 'prometheus-remote-write';
import { request } from 'undici';
import { LATENCY_BOUNDS_S } from './request-tally.js';
import type { RunIdentity } from './run-figures.js';
import type { MetricsOutput, RunSnapshot } from './run-snapshot.js';

/** Metric name prefix (Prometheus naming: one application prefix, base units, `_total` on counters). */
const P = 'svc_harness_';

/** Milliseconds a push may take before it counts as failed. */
const PUSH_TIMEOUT_MS = 5000;

type Labels = Record<string, string>;

/** Labels in name order, `__name__` first (remote write asks for sorted labels); empty values left out (Prometheus reads them as absent). */
function labelled(name: string, common: Labels, own: Labels): Timeseries['labels'] {
  const all: Labels = { ...common, ...own };
  const sorted: Timeseries['labels'] = { __name__: name };
  for (const k of Object.keys(all).sort()) if (all[k] !== '') sorted[k] = all[k]!;
  return sorted;
}

/** The labels that name the run on every series. */
function runLabels(id: RunIdentity): Labels {
  return { job: 'svc-harness', run_id: id.runId, command: id.command, target: id.target, shard: id.shard };
}

/** Every series of a snapshot, each with one sample at the snapshot's instant. */
export function prometheusSeries(id: RunIdentity, s: RunSnapshot): Timeseries[] {
  const common = runLabels(id);
  const out: Timeseries[] = [];
  // Cells of several statuses can share labels (one status class): one series for them, summed.
  const byKey = new Map<string, Timeseries>();
  const add = (name: string, own: Labels, value: number): void => {
    const labels = labelled(name, common, own);
    const key = JSON.stringify(labels);
    const seen = byKey.get(key);
    if (seen) seen.samples[0]!.value += value;
    else {
      const t = { labels, samples: [{ value, timestamp: s.at }] };
      byKey.set(key, t);
      out.push(t);
    }
  };
  for (const c of s.tally.countCells())
    add(
      `${P}requests_total`,
      { operation: c.operation, http_request_method: c.method, outcome: c.outcome, status_class: c.statusClass, error_type: c.errorType ?? '' },
      c.count,
    );
  for (const c of s.tally.cutOffCells()) add(`${P}requests_cut_off_total`, { operation: c.operation }, c.count);
  for (const d of s.tally.durationCells()) {
    const own = { operation: d.operation, http_request_method: d.method, outcome: d.outcome };
    let cumulative = 0;
    d.buckets.forEach((n, i) => {
      cumulative += n;
      add(`${P}request_duration_seconds_bucket`, { ...own, le: i < LATENCY_BOUNDS_S.length ? String(LATENCY_BOUNDS_S[i]) : '+Inf' }, cumulative);
    });
    add(`${P}request_duration_seconds_sum`, own, d.sum);
    add(`${P}request_duration_seconds_count`, own, d.count);
  }
  for (const v of s.verdicts) add(`${P}verdicts_total`, { area: v.area, verdict: v.verdict }, v.count);
  add(`${P}run_duration_seconds`, {}, s.durationS);
  if (s.final) {
    for (const g of s.final.gates) add(`${P}gate_passed`, { gate_id: g.id, gate: g.gate }, g.passed ? 1 : 0);
    for (const p of s.final.percentiles)
      add(`${P}request_duration_percentile_seconds`, { operation: p.operation, outcome: p.outcome, quantile: p.quantile }, p.seconds);
  }
  return out;
}

/**
 * Prometheus remote write (protobuf `WriteRequest`, snappy block-compressed,
 * POSTed), through `prometheus-remote-write`. A failed push is told through
 * `warn`, once until a push succeeds again, and never stops the run.
 */
export function prometheusRemoteWrite(url: string, id: RunIdentity, warn: (line: string) => void): MetricsOutput {
  let failing = false;
  const send = async (s: RunSnapshot): Promise<void> => {
    let problem: string | undefined;
    try {
      const res = await pushTimeseries(prometheusSeries(id, s), {
        url,
        headers: { 'Content-Encoding': 'snappy', 'X-Prometheus-Remote-Write-Version': '0.1.0', 'User-Agent': 'svc-harness' },
        fetch: async (u, init) => {
          const res = await request(u, {
            method: 'POST',
            headers: init?.headers ?? {},
            // snappyjs hands back a Uint8Array, whatever the library's types say.
            body: init?.body as unknown as Uint8Array,
            signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
          });
          const text = await res.body.text();
          return { status: res.statusCode, statusText: '', text: () => Promise.resolve(text) };
        },
      });
      if (res.status < 200 || res.status > 299) problem = `HTTP ${res.status}${res.errorMessage ? `: ${res.errorMessage.trim().slice(0, 200)}` : ''}`;
    } catch (e) {
      const err = e as Error & { cause?: { code?: string; message?: string } };
      problem = err.cause?.code ?? err.cause?.message ?? err.message;
    }
    if (problem !== undefined && !failing) warn(`--out prometheus-rw: push to ${url} failed (${problem}); the run goes on, its report holds every figure`);
    failing = problem !== undefined;
  };
  return { send, finish: send };
}
