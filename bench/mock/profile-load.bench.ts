/**
 * Benchmark helper (not a test): starts one mock build and loads it with the
 * harness's signed flight search, printing the server's pid once warm so a
 * profiler can attach, then its CPU per search over the measured seconds.
 *
 *   node --import tsx bench/mock/profile-load.bench.ts <entry> [warm-up s=2] [measured s=5] [connections=10]
 *
 * With `MOCK_NODE_FLAGS=--perf-basic-prof` and `perf record -e cpu-clock -g -p <pid>`
 * started on the line `# measuring <pid>`, the profile covers the measured load only.
 */
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateAgencies } from '../../src/mock/fixture/generate-agencies.js';
import { firstLine } from '../_internal/first-line.js';
import { cpuPerSearch, type BenchAgency } from '../_internal/signed-search.js';

const ENTRY = process.argv[2] ?? 'dist/src/cli/main.js';
const WARM_S = Number(process.argv[3] ?? 2);
const MEASURED_S = Number(process.argv[4] ?? 5);
const CONNECTIONS = Number(process.argv[5] ?? 10);

const fixture = join(tmpdir(), `bench-profile-load-fixture-${process.pid}.json`);
await writeFile(fixture, JSON.stringify({ agencies: generateAgencies(1, { limits: { read: 1_000_000, write: 1_000_000 } }) }));
const flags = (process.env.MOCK_NODE_FLAGS ?? '').split(' ').filter(Boolean);
const child = spawn(process.execPath, [...flags, ENTRY, 'mock', '--port', '0', '--hotel-port', '0', '--json', '--fixture', fixture], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
try {
  const info = JSON.parse(await firstLine(child, (l) => l.startsWith('{'))) as {
    base_url: string;
    agencies: Array<{ agency_id: string; key_id: string; secret: string }>;
  };
  const a = info.agencies[0]!;
  const agency: BenchAgency = { id: a.agency_id, keyId: a.key_id, secret: a.secret, limits: { read: 1e9, write: 1e6 } };
  const server = { label: ENTRY, child, baseUrl: info.base_url };
  await cpuPerSearch(server, agency, WARM_S, CONNECTIONS);
  console.log(`# measuring ${child.pid}`);
  const us = await cpuPerSearch(server, agency, MEASURED_S, CONNECTIONS);
  console.log(`${ENTRY}: ${us.toFixed(1)} µs CPU per search`);
} finally {
  child.kill('SIGTERM');
}
