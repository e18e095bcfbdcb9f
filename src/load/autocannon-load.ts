import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { fillPath, getField, setTemplate } from '../api/fields.js';
import { splitPathQuery } from '../client/split-path-query.js';
import { signRequest, type SigningHeaderNames } from '../client/signer.js';
import type { Profile } from '../profile/types.js';
import { LoadRecorder, UNKNOWN_OUTCOME } from './load-recorder.js';
import type { Journey, LoadStep } from './scenario-requests.js';
import { bucketOf } from './scenario-requests.js';
import { NoncePool, SignedTemplate } from './signed-template.js';
import type { WalletTally } from './wallet-reconciliation.js';

/** An agency the load acts as. */
export interface LoadAgency {
  id: string;
  keyId: string;
  secret: string;
  /** Requests per window, per bucket (profile bucket words). */
  limits: { read: number; write: number };
}

/** Options of {@link runAutocannonLoad}. */
export interface AutocannonLoadOptions {
  profile: Profile;
  agencies: readonly LoadAgency[];
  connections: number;
  durationS: number;
  /** Stop after this many responses in all. */
  maxRequests?: number | undefined;
  /** Scenario mode: connection i replays journey i mod J as agency i mod A. */
  journeys?: readonly Journey[] | undefined;
  /** Fast mode: one signed search (template patched in place), for raw throughput. */
  search?: { product: string } | undefined;
  /** Fast mode with any fixed request (path relative to the base address); `search` is this with the search operation. */
  fixed?: FixedRequest | undefined;
  recorder: LoadRecorder;
  wallet: WalletTally;
  /** Target clock, ms since epoch. */
  now: () => number;
  signal?: AbortSignal | undefined;
  /** Per-request timeout, seconds. @defaultValue 10 */
  timeoutS?: number | undefined;
}

/** One request repeated by the fast path, re-signed for every send. */
export interface FixedRequest {
  /** Operation name for the figures. */
  op: string;
  method: string;
  /** Relative to the base address, e.g. `/wallet/balance`. */
  path: string;
  body?: string | undefined;
}

/** What autocannon itself counted. */
export interface AutocannonSummary {
  errors: number;
  timeouts: number;
  sent: number;
}

interface InFlight {
  op: string;
  bucket: string;
  effect: LoadStep['effect'];
  sentAt: number;
  t0: number;
}

/* The parts of autocannon's Client this module drives (lib/httpClient.js, lib/requestIterator.js). */
interface AcClient {
  getRequestBuffer: () => Buffer;
  on(event: 'headers', fn: (info: { statusCode: number; headers: string[] }) => void): void;
  on(event: 'response', fn: (status: number) => void): void;
  requestIterator: { setRequests(requests: unknown[]): void };
}

function retryAfterOf(headers: Record<string, string | string[]>, name: string): number | undefined {
  for (const [k, v] of Object.entries(headers)) {
    if (k.toLowerCase() === name) {
      const text = Array.isArray(v) ? v[0] : v;
      return text !== undefined && /^\s*\d+\s*$/.test(text) ? Number(text) : undefined;
    }
  }
  return undefined;
}

function rawRetryAfter(raw: string[], name: string): number | undefined {
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() === name) return /^\s*\d+\s*$/.test(raw[i + 1]!) ? Number(raw[i + 1]) : undefined;
  }
  return undefined;
}

/**
 * Runs autocannon against the service with every request freshly signed:
 * in scenario mode each connection replays a journey as one agency (requests
 * built and signed in `setupRequest`, values flowing through the
 * per-connection context, outcomes recorded in `onResponse`); in search mode
 * each connection sends one signed search from a template patched in place.
 * Latency is measured per request from just before it is written.
 */
export async function runAutocannonLoad(o: AutocannonLoadOptions): Promise<AutocannonSummary> {
  const base = new URL(o.profile.base_url);
  const basePath = base.pathname.replace(/\/$/, '');
  const names: SigningHeaderNames = { authorization: o.profile.headers.authorization, timestamp: o.profile.headers.timestamp, nonce: o.profile.headers.nonce };
  const retryName = o.profile.headers.retry_after.toLowerCase();
  const nonces = new NoncePool();
  const { recorder, wallet, now } = o;
  let clientIndex = 0;
  // Requests still in flight when autocannon stops: their outcome is unknown (they may have been executed).
  const flushers: Array<() => void> = [];

  const unknown = (agency: string, f: InFlight): void => {
    recorder.record(f.op, agency, f.bucket, f.sentAt, now() + 1, 0, UNKNOWN_OUTCOME);
    if (f.effect === 'book' || f.effect === 'cancel') wallet.booking(agency, UNKNOWN_OUTCOME);
  };

  const journeyRequests = (journey: Journey, agency: LoadAgency): unknown[] => {
    const state: { current?: InFlight | undefined } = {};
    flushers.push(() => {
      if (state.current) unknown(agency.id, state.current);
      state.current = undefined;
    });
    return journey.steps.map((step) => ({
      setupRequest(req: Record<string, unknown>, ctx: { vars?: Record<string, unknown> }) {
        ctx.vars ??= {};
        const built = step.build(ctx as { vars: Record<string, unknown> });
        if (!built) return null;
        const split = splitPathQuery(built.path);
        const path = `${basePath}${split.path}`;
        const signed = signRequest(
          { method: built.method, path, query: split.query, body: built.body, keyId: agency.keyId, secret: agency.secret, timestamp: Math.floor(now() / 1000), nonce: nonces.next() },
          names,
        );
        if (state.current) unknown(agency.id, state.current);
        state.current = { op: step.op, bucket: step.bucket, effect: step.effect, sentAt: now() - 1, t0: performance.now() };
        return {
          ...req,
          method: built.method,
          path: split.query ? `${path}?${split.query}` : path,
          headers: { ...built.headers, ...signed.headers },
          body: built.body ?? '',
        };
      },
      onResponse(status: number, body: string, ctx: { vars?: Record<string, unknown> }, headers: Record<string, string | string[]>) {
        const cur = state.current;
        if (!cur) return;
        state.current = undefined;
        const latency = performance.now() - cur.t0;
        const ra = status === 429 ? retryAfterOf(headers, retryName) : undefined;
        recorder.record(cur.op, agency.id, cur.bucket, cur.sentAt, now() + 1, latency, status, ra, step.expected.has(status));
        let json: unknown;
        if (step.needsBody && status >= 200 && status <= 299) {
          try {
            json = JSON.parse(body);
          } catch {
            json = undefined;
          }
        }
        ctx.vars ??= {};
        const view = step.after(ctx as { vars: Record<string, unknown> }, status, json);
        if (step.effect === 'book') {
          const id = view.booking_id;
          const price = view.price;
          wallet.booking(agency.id, status, typeof id === 'string' ? id : undefined, typeof price === 'number' ? price : undefined);
        } else if (step.effect === 'cancel') {
          const id = getField(json, o.profile.fields.booking_id);
          const refund = view.refund;
          wallet.cancellation(agency.id, status, typeof id === 'string' ? id : undefined, typeof refund === 'number' ? refund : undefined);
        }
      },
    }));
  };

  const setupFixedClient = (client: AcClient, agency: LoadAgency, fixed: FixedRequest): void => {
    const split = splitPathQuery(fixed.path);
    const template = new SignedTemplate(
      {
        method: fixed.method,
        path: `${basePath}${split.path}`,
        query: split.query,
        body: fixed.body,
        host: base.host,
        keyId: agency.keyId,
        secret: agency.secret,
        names,
        headers: fixed.body ? { 'content-type': 'application/json' } : {},
      },
      now,
      nonces,
    );
    const op = fixed.op;
    const bucket = bucketOf(o.profile, fixed.method, fixed.op === 'search');
    let pending = false;
    let sentAt = 0;
    let t0 = 0;
    let ra: number | undefined;
    flushers.push(() => {
      if (pending) recorder.record(op, agency.id, bucket, sentAt, now() + 1, 0, UNKNOWN_OUTCOME);
      pending = false;
    });
    client.getRequestBuffer = () => {
      if (pending) recorder.record(op, agency.id, bucket, sentAt, now() + 1, 0, UNKNOWN_OUTCOME);
      pending = true;
      sentAt = now() - 1;
      t0 = performance.now();
      return template.next();
    };
    client.on('headers', (info) => {
      ra = info.statusCode === 429 ? rawRetryAfter(info.headers, retryName) : undefined;
    });
    client.on('response', (status) => {
      if (!pending) return;
      pending = false;
      recorder.record(op, agency.id, bucket, sentAt, now() + 1, performance.now() - t0, status, ra);
    });
  };

  const searchOp = o.profile.operations.search;
  const fixed: FixedRequest | undefined =
    o.fixed ??
    (o.search
      ? {
          op: 'search',
          method: searchOp.method,
          path: fillPath(searchOp.path, { product: o.search.product }),
          body: JSON.stringify(setTemplate(o.profile.search_body, { criteria: o.profile.search_criteria[o.search.product] ?? {} })),
        }
      : undefined);
  const journeys = o.journeys?.filter((j) => j.steps.length > 0) ?? [];
  const setupClient = (c: unknown): void => {
    const client = c as AcClient;
    const i = clientIndex++;
    const agency = o.agencies[i % o.agencies.length]!;
    if (fixed) setupFixedClient(client, agency, fixed);
    else client.requestIterator.setRequests(journeyRequests(journeys[i % journeys.length]!, agency));
  };

  const opts: Record<string, unknown> = {
    url: base.origin,
    connections: o.connections,
    pipelining: 1,
    duration: o.durationS,
    timeout: o.timeoutS ?? 10,
    requests: [{ method: 'GET', path: `${basePath}/` }],
    setupClient,
  };
  if (o.maxRequests !== undefined) opts.amount = Math.max(o.maxRequests, o.connections);

  return await new Promise<AutocannonSummary>((resolve, reject) => {
    const instance = autocannon(opts as unknown as autocannon.Options, (err, result) => {
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', stop);
      for (const flush of flushers) flush();
      if (err) reject(err instanceof Error ? err : new Error(String(err)));
      else resolve({ errors: result.errors, timeouts: result.timeouts, sent: result.requests.sent });
    });
    const stop = (): void => instance.stop();
    // With `amount` autocannon ignores the duration: keep both bounds.
    const timer = setTimeout(stop, o.durationS * 1000 + 50);
    if (o.signal?.aborted) stop();
    else o.signal?.addEventListener('abort', stop, { once: true });
  });
}
