// Measures what autocannon 8 really does with `overallRate` and `workers`:
// a bare node:http server records the arrival instant of every request, and
// we print arrivals per 100 ms slot and per second. Run: node bench/autocannon-behaviour.mjs
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';

function server() {
  const arrivals = [];
  const s = http.createServer((req, res) => {
    arrivals.push(performance.now());
    res.end('ok');
  });
  return new Promise((r) => s.listen(0, '127.0.0.1', () => r({ s, arrivals, port: s.address().port })));
}

async function trial(label, opts) {
  const { s, arrivals, port } = await server();
  const t0 = performance.now();
  const result = await autocannon({ url: `http://127.0.0.1:${port}/`, duration: 3, ...opts });
  s.close();
  const rel = arrivals.map((t) => t - t0);
  const perSecond = [0, 0, 0, 0];
  for (const t of rel) perSecond[Math.min(3, Math.floor(t / 1000))]++;
  // Within the first second: how many arrived in the first 100 ms slot?
  const slots = new Array(10).fill(0);
  for (const t of rel) if (t < 1000) slots[Math.floor(t / 100)]++;
  const lat = result.latency;
  console.log(
    JSON.stringify({
      label,
      opts,
      arrivals: rel.length,
      perSecond,
      firstSecondBy100ms: slots,
      latency: { p50: lat.p50, p99: lat.p99, max: lat.max },
      requestsAvg: result.requests.average,
    }),
  );
}

await trial('overallRate 100, 10 connections', { connections: 10, overallRate: 100 });
await trial('overallRate 100, 1 connection', { connections: 1, overallRate: 100 });
await trial('overallRate 103, 10 connections (remainder)', { connections: 10, overallRate: 103 });
await trial('overallRate 100, 10 connections, 2 workers', { connections: 10, overallRate: 100, workers: 2 });
await trial('amount 200, 10 connections, 2 workers', { connections: 10, amount: 200, workers: 2 });
