/**
 * The stand-in: an independent, correct service of the part of
 * REFERENCE-API.md that `svc-harness load` and its CI gates exercise, written
 * with node:http from the specification alone (nothing from src/ is imported),
 * so that the harness's assumptions about its own mock's incidental behaviour
 * show. Bench-only: not part of the package.
 *
 *   node --import tsx bench/standin/main.ts [--port 8580] [--fixture bench/standin/agencies.json]
 *       [--latency-ms N] [--admit-pct P] [--window-s 60] [--quote-lifetime-s 900]
 *
 * `--latency-ms N` answers every request N ms after reading it (a slower
 * service); `--admit-pct P` admits only P% of each limit it advertises (a
 * service that refuses early). Once listening it prints one JSON line:
 * `{base_url, pid, agencies: [{agency_id, key_id}]}`. What it leaves out: the
 * partner hotel API and webhook deliveries (the endpoint is stored and read
 * back, no event is sent).
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createStandin, type StandinAgency } from './_internal/service.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8580' },
    host: { type: 'string', default: '127.0.0.1' },
    fixture: { type: 'string', default: join(dirname(fileURLToPath(import.meta.url)), 'agencies.json') },
    'latency-ms': { type: 'string', default: '0' },
    'admit-pct': { type: 'string', default: '100' },
    'window-s': { type: 'string', default: '60' },
    'quote-lifetime-s': { type: 'string', default: '900' },
  },
});

function number(name: keyof typeof values, min: number, max: number): number {
  const n = Number(values[name]);
  if (!Number.isFinite(n) || n < min || n > max) {
    process.stderr.write(`stand-in: --${name} must be a number from ${min} to ${max}, got ${String(values[name])}\n`);
    process.exit(2);
  }
  return n;
}

const agencies = (JSON.parse(readFileSync(values.fixture!, 'utf8')) as { agencies: StandinAgency[] }).agencies;
const handler = createStandin({
  agencies,
  windowS: number('window-s', 1, 86_400),
  quoteLifetimeS: number('quote-lifetime-s', 1, 86_400),
  latencyMs: number('latency-ms', 0, 60_000),
  admitShare: number('admit-pct', 1, 100) / 100,
});
const server = createServer({ keepAliveTimeout: 10_000 }, handler);
server.on('error', (err) => {
  process.stderr.write(`stand-in: ${err.message}\n`);
  process.exit(2);
});
server.listen(number('port', 0, 65_535), values.host, () => {
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const line = {
    base_url: `http://${values.host}:${port}/v1`,
    pid: process.pid,
    agencies: agencies.map((a) => ({ agency_id: a.agency_id, key_id: a.key_id })),
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    server.close();
    server.closeAllConnections();
    process.exit(0);
  });
