/*
 * The mock benches' two shared steps: one signed flight search (a probe, and
 * the answer a toy server repeats), and a server's CPU per signed search
 * under the harness's autocannon load.
 */
import type { ChildProcess } from 'node:child_process';
import { request } from 'undici';
import { runAutocannonLoad } from '../../src/load/generate/autocannon-load.js';
import { WalletTally } from '../../src/load/judge/wallet-reconciliation.js';
import { LoadRecorder } from '../../src/load/measure/load-recorder.js';
import { DEFAULT_PROFILE } from '../../src/profile/defaults.js';
import { freshNonce, signRequest } from '../../src/protocol/request-signature.js';
import { cpuSeconds } from './cpu-seconds.js';

/** An agency of a bench fixture, as the load generator signs for it. */
export interface BenchAgency {
  id: string;
  keyId: string;
  secret: string;
  limits: { read: number; write: number };
}

/** A server under bench: its process (for its CPU) and its base URL. */
export interface BenchServer {
  label: string;
  child: ChildProcess;
  baseUrl: string;
}

/** The body of the benches' flight search. */
const criteria = JSON.stringify({ criteria: DEFAULT_PROFILE.search_criteria.flights });

/** One signed flight search at `baseUrl` (`…/v1`): its status and answer text. */
export async function signedSearch(baseUrl: string, agency: BenchAgency): Promise<{ status: number; text: string }> {
  const path = `${new URL(baseUrl).pathname}/flights/search`;
  const res = await request(`${new URL(baseUrl).origin}${path}`, {
    method: 'POST',
    body: criteria,
    headers: {
      'content-type': 'application/json',
      ...signRequest({
        method: 'POST',
        path,
        body: criteria,
        keyId: agency.keyId,
        secret: agency.secret,
        timestamp: Math.floor(Date.now() / 1000),
        nonce: freshNonce(),
      }).headers,
    },
  });
  return { status: res.statusCode, text: await res.body.text() };
}

/** Server CPU µs per signed search of `server` under `connections` for `seconds`; throws when a search failed. */
export async function cpuPerSearch(server: BenchServer, agency: BenchAgency, seconds: number, connections: number): Promise<number> {
  const recorder = new LoadRecorder({ rateLimitedStatus: 429 });
  const cpu0 = cpuSeconds(server.child.pid!);
  await runAutocannonLoad({
    profile: { ...DEFAULT_PROFILE, base_url: server.baseUrl },
    agencies: [agency],
    connections,
    durationS: seconds,
    search: { product: 'flights' },
    recorder,
    wallet: new WalletTally({ rateLimitedStatus: 429 }),
    now: Date.now,
  });
  const op = Object.values(recorder.figures().operations)[0]!;
  if (op.ok !== op.count) throw new Error(`${server.label}: ${op.count - op.ok} of ${op.count} searches failed`);
  return ((cpuSeconds(server.child.pid!) - cpu0) * 1e6) / Math.max(1, op.count);
}
