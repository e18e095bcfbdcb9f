import { performance } from 'node:perf_hooks';
import type { TargetApi } from '../../api/types.js';
import { UNKNOWN_OUTCOME, unanswered, type LoadRecorder } from '../measure/load-recorder.js';
import { runPaced } from './paced-sender.js';
import { bucketOf, loadUnique } from './scenario-requests.js';
import type { LoadAgency } from './load-agency.js';
import type { Profile } from '../../profile/index.js';
import type { WalletTally } from '../judge/wallet-reconciliation.js';

/** Options of {@link pushLimits}. */
interface PushLimitsOptions {
  profile: Profile;
  agencies: ReadonlyArray<{ agency: LoadAgency; api: TargetApi; product: string }>;
  /** Real ms over which each agency's limit + extra requests are spread. */
  paceMs: number;
  /** Real ms after which nothing new is sent (Retry-After probes included). */
  untilMs: number;
  recorder: LoadRecorder;
  wallet: WalletTally;
  now: () => number;
  signal?: AbortSignal;
}

/** What the paced push did. */
interface PushSummary {
  planned: number;
  sent: number;
  probes: number;
  /** Worst lateness of a send behind its planned instant, ms. */
  maxLagMs: number;
  /** Latency from the planned instant (open model), ms, worst. */
  maxLatencyMs: number;
}

type Item = { a: number; kind: 'read' | 'write'; n: number };

/**
 * Push requests in flight at most, over every agency. A plan faster than
 * that (many agencies in a short run) lags and says so in its note, its
 * latency counted from each planned instant; unbounded, 50 agencies in a 2 s
 * run opened 35 000 sockets in a second and the service refused most of them.
 */
export const PUSH_MAX_IN_FLIGHT = 256;

/** Requests over the limit each bucket gets: 5%, at least 5. */
function extraOver(limit: number): number {
  return Math.max(5, Math.ceil(limit * 0.05));
}

/**
 * Drives every agency past its read and write limits at planned instants
 * (open model: a slow answer never delays the next send): limit + extra
 * searches, and limit + extra bookings spread over `paceMs`. The bookings
 * below the limit redeem one quote (one 201, then refusals as already
 * redeemed: failed bookings); those over the limit use fresh quotes, so a
 * service that executes a 429'd booking shows it in the wallet. After each
 * bucket's first 429 whose Retry-After ends before the run does, one probe is
 * sent when it says a slot is free.
 */
export async function pushLimits(o: PushLimitsOptions): Promise<PushSummary> {
  const items: Array<Item & { at: number }> = [];
  const writeStart = Math.min(200, o.paceMs / 10);
  o.agencies.forEach(({ agency }, a) => {
    const reads = agency.limits.read + extraOver(agency.limits.read);
    const writes = agency.limits.write + extraOver(agency.limits.write);
    for (let n = 0; n < reads; n++) items.push({ a, kind: 'read', n, at: (n * o.paceMs) / reads });
    for (let n = 0; n < writes; n++) items.push({ a, kind: 'write', n, at: writeStart + (n * (o.paceMs - writeStart)) / writes });
  });
  items.sort((x, y) => x.at - y.at);
  const tokens: string[][] = o.agencies.map(() => []);
  const fresh: number[] = o.agencies.map(() => 1);
  const probed = new Set<string>();
  const probes: Array<Promise<void>> = [];
  const t0 = performance.now();
  const readBucket = bucketOf(o.profile, 'GET', true);
  const writeBucket = o.profile.values.bucket_write;
  const refusedStatus = o.profile.errors.rate_limited.status;
  const ops = o.profile.operations;
  const method = { search: ops.search.method.toUpperCase(), book: ops.create_booking.method.toUpperCase(), balance: ops.wallet_balance.method.toUpperCase() };

  // The pusher books a quote it already redeemed, or none at all, on purpose: those refusals are expected, not errors.
  const deliberate = new Set([o.profile.errors.quote_already_redeemed.status, o.profile.errors.quote_not_found.status]);
  const timed = async (
    op: string,
    httpMethod: string,
    a: number,
    bucket: string,
    call: () => Promise<{ status: number; rateLimit: { retryAfterS?: number; limit?: number; remaining?: number } }>,
    plannedAbs?: number,
  ) => {
    const agency = o.agencies[a]!.agency;
    const sentAt = o.now() - 1;
    const start = plannedAbs ?? performance.now();
    try {
      const res = await call();
      const refused = res.status === refusedStatus;
      const ra = refused ? res.rateLimit.retryAfterS : undefined;
      const rl = res.rateLimit;
      const r = {
        op,
        method: httpMethod,
        agency: agency.id,
        bucket,
        sentAt,
        receivedAt: o.now() + 1,
        latencyMs: performance.now() - start,
        status: res.status,
        retryAfterS: ra,
        remaining: refused ? rl.remaining : undefined,
        code: undefined,
        expected: bucket === writeBucket && deliberate.has(res.status),
      };
      o.recorder.record(r);
      o.recorder.headers(r, rl);
      o.recorder.reading(r, rl);
      // Any refusal whose Retry-After ends within the run gets the bucket's one probe: later ones promise sooner instants,
      // and a promise beyond the run (a huge Retry-After among them) is never waited for.
      if (refused && ra !== undefined && !probed.has(`${a}:${bucket}`)) {
        const dueIn = ra * 1000 + 100;
        if (performance.now() - t0 + dueIn < o.untilMs) {
          probed.add(`${a}:${bucket}`);
          probes.push(probe(a, bucket, dueIn));
        }
      }
      return res;
    } catch {
      o.recorder.record(unanswered({ op, method: httpMethod, agency: agency.id, bucket, sentAt, receivedAt: o.now() + 1 }));
      return undefined;
    }
  };

  const book = async (a: number, token: string | undefined, op: string, plannedAbs?: number) => {
    const { api, product, agency } = o.agencies[a]!;
    const res = await timed(op, method.book, a, writeBucket, () => api.book(product, token ?? `qt_${loadUnique('none')}`, loadUnique('idem')), plannedAbs);
    if (!res) o.wallet.booking(agency.id, UNKNOWN_OUTCOME);
    else {
      const r = res as Awaited<ReturnType<TargetApi['book']>>;
      o.wallet.booking(agency.id, r.status, r.bookingId, r.chargedAmount);
    }
  };

  const probe = (a: number, bucket: string, dueIn: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(() => {
        o.signal?.removeEventListener('abort', cancel);
        const done =
          bucket === readBucket
            ? timed('push.probe', method.balance, a, bucket, () => o.agencies[a]!.api.balance()).then(() => undefined)
            : book(a, undefined, 'push.probe');
        void done.then(resolve);
      }, dueIn);
      const cancel = (): void => {
        clearTimeout(timer);
        resolve();
      };
      o.signal?.addEventListener('abort', cancel, { once: true });
    });

  const outcomes = await runPaced({
    schedule: items.map((i) => i.at),
    signal: o.signal,
    maxInFlight: PUSH_MAX_IN_FLIGHT,
    send: async ({ index }) => {
      const it = items[index]!;
      const { api, product, agency } = o.agencies[it.a]!;
      const planned = t0 + it.at;
      if (it.kind === 'read') {
        const res = await timed('push.search', method.search, it.a, readBucket, () => api.search(product), planned);
        if (res && res.status >= 200 && res.status < 300)
          tokens[it.a]!.push(...(res as Awaited<ReturnType<TargetApi['search']>>).offers.map((x) => x.quoteToken));
        return;
      }
      const pool = tokens[it.a]!;
      let token: string | undefined;
      if (it.n < agency.limits.write) token = pool[0];
      else token = pool[fresh[it.a]!] !== undefined ? pool[fresh[it.a]!++] : undefined;
      await book(it.a, token, 'push.book', planned);
    },
  });
  await Promise.all(probes);
  let maxLag = 0;
  let maxLatency = 0;
  for (const oc of outcomes) {
    maxLag = Math.max(maxLag, oc.sentMs - oc.plannedMs);
    maxLatency = Math.max(maxLatency, oc.latencyMs);
  }
  return { planned: items.length, sent: outcomes.length, probes: probes.length, maxLagMs: maxLag, maxLatencyMs: maxLatency };
}
