import type { Exchange, ExchangeRecorder } from '../client/exchange.js';
import type { Profile, ResolvedAgency } from '../profile/types.js';
import type { BucketUse } from './lease-planner.js';

/** Counts, per rate-limit bucket (`<agency index>:read`, `<agency index>:write`), the requests that reached the service. */
export interface BucketMeter {
  /** The recorder to hand the APIs: it records into `inner` and counts. */
  readonly recorder: ExchangeRecorder;
  /** What was sent to each of `buckets` since `since` (a {@link BucketMeter.mark}). */
  usedSince(since: ReadonlyMap<string, number>, buckets: readonly string[]): BucketUse;
  /** The count of each bucket now, to measure from. */
  mark(buckets: readonly string[]): Map<string, number>;
}

function pathRegex(template: string): RegExp {
  const parts = template.split(/\{[A-Za-z0-9_]+\}/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`${parts.join('[^/]+')}$`);
}

/**
 * A meter over the run's exchanges. A request is put in an agency's bucket as
 * the reference API counts it (GET and search are reads, the rest writes; a
 * search marks the write bucket too, as a service may count it there),
 * the agency known by the key id its signature names; unsigned requests and
 * the hotel API count nowhere. In real time a lease holds its buckets alone,
 * so what a bucket received during a lease is what the holder sent.
 */
export function bucketMeter(inner: ExchangeRecorder, profile: Readonly<Profile>, agencies: readonly ResolvedAgency[], now: () => number): BucketMeter {
  const counts = new Map<string, { n: number; lastAt: number }>();
  const auth = profile.headers.authorization.toLowerCase();
  const search = pathRegex(profile.operations.search.path);
  const searchMethod = profile.operations.search.method.toUpperCase();
  const bucketsOf = (x: Exchange): string[] => {
    const signature = x.request.headers[auth];
    if (!signature) return [];
    const named = /Credential=([^,\s]+)/.exec(signature)?.[1];
    const agency = agencies.findIndex((a) => (named === undefined ? signature.includes(a.keyId) : named === a.keyId));
    if (agency < 0) return [];
    const method = x.request.method.toUpperCase();
    const path = x.request.url.split('?')[0]!;
    if (method === 'GET' || method === 'HEAD') return [`${agency}:read`];
    // The reference counts a search as a read; a service that counts it as a write must not see a "quiet" write bucket that is not.
    if (method === searchMethod && search.test(path)) return [`${agency}:read`, `${agency}:write`];
    return [`${agency}:write`];
  };
  return {
    recorder: {
      record(x) {
        inner.record(x);
        // A request that got no answer may still have been counted.
        for (const bucket of bucketsOf(x)) {
          const c = counts.get(bucket) ?? { n: 0, lastAt: 0 };
          c.n += 1;
          c.lastAt = Math.max(c.lastAt, now());
          counts.set(bucket, c);
        }
      },
      nextId: () => inner.nextId(),
    },
    mark(buckets) {
      return new Map(buckets.map((b) => [b, counts.get(b)?.n ?? 0]));
    },
    usedSince(since, buckets) {
      const out = new Map<string, { n: number; lastAt: number }>();
      for (const b of buckets) {
        const c = counts.get(b);
        const n = (c?.n ?? 0) - (since.get(b) ?? 0);
        if (c && n > 0) out.set(b, { n, lastAt: c.lastAt });
      }
      return out;
    },
  };
}
