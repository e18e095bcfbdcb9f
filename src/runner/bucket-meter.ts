import type { Exchange, ExchangeRecorder } from '../client/exchange.js';
import type { Profile, ResolvedAgency } from '../profile/index.js';
import type { BucketUse } from './lease-planner.js';

/** Counts, per rate-limit bucket (`<agency index>:read`, `<agency index>:write`), the requests that reached the service. */
interface BucketMeter {
  /** The recorder to hand the APIs: it records into `inner` and counts. */
  readonly recorder: ExchangeRecorder;
  /** What was sent to each of `buckets` since `since` (a {@link BucketMeter.mark}). */
  usedSince(since: ReadonlyMap<string, number>, buckets: readonly string[]): BucketUse;
  /** The count of each bucket now, to measure from. */
  mark(buckets: readonly string[]): Map<string, number>;
  /** Target instant of the last request counted (or possibly counted) in `bucket` since the target was last reset; undefined when none. */
  lastRequestAt(bucket: string): number | undefined;
  /** The target was put back to its fixture: every bucket is empty from now on. */
  emptied(): void;
}

function pathRegex(template: string): RegExp {
  const parts = template.split(/\{[A-Za-z0-9_]+\}/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`${parts.join('[^/]+')}$`);
}

/**
 * A meter over the run's exchanges. A request is put in an agency's bucket as
 * the reference API counts it (GET and search are reads, the rest writes; a
 * search whose answer does not name its bucket marks the write bucket too,
 * as a service may count it there),
 * the agency known by the key id its signature names; unsigned requests and
 * the hotel API count nowhere. In real time a lease holds its buckets alone,
 * so what a bucket received during a lease is what the holder sent.
 */
export function bucketMeter(inner: ExchangeRecorder, profile: Readonly<Profile>, agencies: readonly ResolvedAgency[], now: () => number): BucketMeter {
  // Per bucket: requests counted in it, requests that may count in it (searches, in the write bucket), and when the last went.
  const counts = new Map<string, { n: number; touched: number; lastAt: number }>();
  let emptiedAt = -Infinity;
  const auth = profile.headers.authorization.toLowerCase();
  const search = pathRegex(profile.operations.search.path);
  const searchMethod = profile.operations.search.method.toUpperCase();
  const resource = profile.headers.ratelimit_resource.toLowerCase();
  const readName = profile.values.bucket_read;
  const writeName = profile.values.bucket_write;
  /** The bucket a request counts in, and a bucket it may count in at a service that counts otherwise. */
  const bucketsOf = (x: Exchange): { counts?: string; touches?: string } => {
    const signature = x.request.headers[auth];
    if (!signature) return {};
    const named = /Credential=([^,\s]+)/.exec(signature)?.[1];
    const agency = agencies.findIndex((a) => (named === undefined ? signature.includes(a.keyId) : named === a.keyId));
    if (agency < 0) return {};
    const method = x.request.method.toUpperCase();
    const path = x.request.url.split('?')[0]!;
    if (method === 'GET' || method === 'HEAD') return { counts: `${agency}:read` };
    if (method === searchMethod && search.test(path)) {
      // The reference counts a search as a read; a service that counts it as a write must not see a "quiet" write bucket that is not. An answer naming its bucket settles it.
      const named = x.response?.headers[resource];
      if (named === readName) return { counts: `${agency}:read` };
      if (named === writeName) return { counts: `${agency}:write` };
      return { counts: `${agency}:read`, touches: `${agency}:write` };
    }
    return { counts: `${agency}:write` };
  };
  return {
    recorder: {
      record(x) {
        inner.record(x);
        // A request that got no answer may still have been counted.
        const { counts: counted, touches } = bucketsOf(x);
        for (const bucket of [counted, touches]) {
          if (bucket === undefined) continue;
          const c = counts.get(bucket) ?? { n: 0, touched: 0, lastAt: 0 };
          if (bucket === counted) c.n += 1;
          else c.touched += 1;
          c.lastAt = Math.max(c.lastAt, now());
          counts.set(bucket, c);
        }
      },
      nextId: () => inner.nextId(),
    },
    mark(buckets) {
      const out = new Map<string, number>();
      for (const b of buckets) {
        out.set(b, counts.get(b)?.n ?? 0);
        out.set(`${b}#touched`, counts.get(b)?.touched ?? 0);
      }
      return out;
    },
    lastRequestAt(bucket) {
      const at = counts.get(bucket)?.lastAt;
      return at === undefined || at < emptiedAt ? undefined : at;
    },
    emptied() {
      emptiedAt = now();
    },
    usedSince(since, buckets) {
      const out = new Map<string, { n: number; lastAt: number }>();
      for (const b of buckets) {
        const c = counts.get(b);
        if (!c) continue;
        const n = c.n - (since.get(b) ?? 0);
        const touched = c.touched - (since.get(`${b}#touched`) ?? 0);
        // A bucket only touched (a search, in the write bucket) rests a window, but its budget counts nothing.
        if (n > 0 || touched > 0) out.set(b, { n, lastAt: c.lastAt });
      }
      return out;
    },
  };
}
