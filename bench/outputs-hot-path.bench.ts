/**
 * Benchmark (not a test): what the metrics outputs add to each request the
 * load records, in this process's CPU, rounds alternating (ABBA):
 *  - bare:    `LoadRecorder.record` with no subscriber, each request
 *             filled into its connection's record as the senders do
 *             (`requestRecord`: one per operation and agency here);
 *  - outputs: the same with the outputs' one subscriber (the tally both
 *             Prometheus remote write and OpenTelemetry send from).
 * Then the cost of one push: building the remote-write series of that tally
 * and encoding them (protobuf, snappy), once per 5 s.
 *
 *   node --import tsx bench/outputs-hot-path.bench.ts [requests per arm=500000] [rounds=6]
 */
import { serialize } from 'prometheus-remote-write';
import { LoadRecorder, requestRecord } from '../src/load/measure/load-recorder.js';
import { prometheusSeries } from '../src/outputs/prometheus-rw-output.js';
import { RequestTally } from '../src/outputs/request-tally.js';

const n = Number(process.argv[2] ?? 500_000);
const rounds = Number(process.argv[3] ?? 6);
const OPS = ['search', 'quote', 'book', 'cancel', 'balance', 'push.read', 'push.write'];
/** The method of each operation, as the profile sends it. */
const METHODS = ['POST', 'POST', 'POST', 'POST', 'GET', 'GET', 'POST'];
const STATUSES = [200, 200, 200, 201, 429, 429, 409, 404];

function arm(withOutputs: boolean, tally: RequestTally): number {
  const r = new LoadRecorder({ rateLimitedStatus: 429 });
  if (withOutputs) r.subscribe(tally.add);
  // 7 operations × 50 agencies: a record each, as each connection of the fast path keeps one.
  const records = Array.from({ length: OPS.length * 50 }, (_, j) =>
    requestRecord({ op: OPS[j % OPS.length]!, method: METHODS[j % OPS.length]!, agency: `agency-${j % 50}`, bucket: j % 3 === 0 ? 'write' : 'read' }),
  );
  const t0 = Date.now();
  const c0 = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const at = t0 + i / 50;
    const x = records[i % records.length]!;
    x.sentAt = at;
    x.receivedAt = at + 5;
    x.latencyMs = 1 + (i % 97) / 10;
    x.status = STATUSES[i % STATUSES.length]!;
    x.expected = i % 8 === 6;
    r.record(x);
  }
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / n;
}

const bare: number[] = [];
const outs: number[] = [];
const tally = new RequestTally();
for (let k = 0; k < rounds; k++) {
  for (const o of k % 2 === 0 ? [false, true] : [true, false]) (o ? outs : bare).push(arm(o, tally));
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const id = { runId: '20261128-000000-0000', command: 'load', target: 'bench', shard: 'all' };
const p0 = process.cpuUsage();
const pushes = 200;
let series = 0;
for (let i = 0; i < pushes; i++) {
  const s = prometheusSeries(id, { at: Date.now(), tally, durationS: 1, verdicts: [] });
  series = s.length;
  await serialize(
    { timeseries: s.map((t) => ({ labels: Object.entries(t.labels).map(([name, value]) => ({ name, value })), samples: t.samples })) } as never,
    undefined,
  );
}
const p = process.cpuUsage(p0);
process.stdout.write(
  [
    `${n} requests per arm, ${rounds} rounds (ABBA), Node ${process.version}`,
    `recorder alone: ${median(bare).toFixed(3)} µs of CPU per request (rounds ${bare.map((x) => x.toFixed(3)).join(', ')})`,
    `recorder + outputs' tally: ${median(outs).toFixed(3)} µs (rounds ${outs.map((x) => x.toFixed(3)).join(', ')})`,
    `added per request: ${(median(outs) - median(bare)).toFixed(3)} µs`,
    `one push: ${series} series built and encoded in ${((p.user + p.system) / pushes / 1000).toFixed(2)} ms of CPU`,
    '',
  ].join('\n'),
);
