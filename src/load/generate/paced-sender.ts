import { performance } from 'node:perf_hooks';

/** One planned request: its index and its planned instant (ms after the start). */
interface PlannedRequest {
  index: number;
  plannedMs: number;
}

/** What one sent request came to. */
interface PacedOutcome<T> {
  index: number;
  /** Planned instant, ms after start. */
  plannedMs: number;
  /** When it was really sent, ms after start (≥ planned). */
  sentMs: number;
  /** When its response (or failure) arrived, ms after start. */
  doneMs: number;
  /** Latency from the planned instant: a stall delays every later request's start and shows here. */
  latencyMs: number;
  /** Service time from the real send. */
  serviceMs: number;
  value?: T;
  error?: unknown;
}

/** Options of a paced (open-model) run. */
interface PacedOptions<T> {
  /** Planned instants, ms after start, ascending. */
  schedule: readonly number[];
  /** Sends request `index`; must not throw synchronously. */
  send(req: PlannedRequest): Promise<T>;
  /** Called for each outcome as it arrives. */
  onOutcome?(outcome: PacedOutcome<T>): void;
  /** Stops planning new requests when aborted; in-flight ones are awaited. */
  signal?: AbortSignal | undefined;
  /** Real-time source (ms); defaults to performance.now. */
  now?: (() => number) | undefined;
  /**
   * Requests in flight at most: one planned while that many are unanswered
   * waits for an answer, and its wait counts in its latency (from the planned
   * instant). A plan faster than the sender and the service can carry then
   * lags, and says so, rather than opening a socket per request until the
   * service or the machine refuses them all. @defaultValue unbounded
   */
  maxInFlight?: number | undefined;
}

/** A schedule of `count` requests at a constant rate (requests per second), starting at `offsetMs`. */
export function constantRate(ratePerS: number, count: number, offsetMs = 0): number[] {
  if (!(ratePerS > 0)) throw new RangeError(`rate must be > 0, got ${ratePerS}`);
  const gap = 1000 / ratePerS;
  return Array.from({ length: count }, (_, i) => offsetMs + i * gap);
}

/**
 * Sends each request at its planned instant, whatever the earlier ones are
 * doing (open model), and measures latency from the planned instant, so
 * coordinated omission cannot hide a stall. Returns every outcome in index order.
 */
export async function runPaced<T>(opts: PacedOptions<T>): Promise<PacedOutcome<T>[]> {
  const now = opts.now ?? (() => performance.now());
  const start = now();
  const outcomes: PacedOutcome<T>[] = new Array(opts.schedule.length);
  const inflight = new Set<Promise<void>>();
  const maxInFlight = opts.maxInFlight ?? Number.POSITIVE_INFINITY;
  if (!(maxInFlight >= 1)) throw new RangeError(`maxInFlight must be >= 1, got ${maxInFlight}`);
  let next = 0;
  /** Set while the plan waits for a free place: the next answer calls it. */
  let onFree: (() => void) | undefined;

  const fire = (index: number) => {
    const plannedMs = opts.schedule[index]!;
    const sentMs = now() - start;
    const p = opts
      .send({ index, plannedMs })
      .then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      )
      .then((r) => {
        const doneMs = now() - start;
        const outcome: PacedOutcome<T> = { index, plannedMs, sentMs, doneMs, latencyMs: doneMs - plannedMs, serviceMs: doneMs - sentMs, ...r };
        outcomes[index] = outcome;
        opts.onOutcome?.(outcome);
      });
    const tracked = p.finally(() => {
      inflight.delete(tracked);
      wake();
    });
    inflight.add(tracked);
  };

  const wake = (): void => {
    const resume = onFree;
    onFree = undefined;
    resume?.();
  };
  opts.signal?.addEventListener('abort', wake, { once: true });
  await new Promise<void>((resolve) => {
    const tick = () => {
      if (opts.signal?.aborted) return resolve();
      const elapsed = now() - start;
      while (next < opts.schedule.length && opts.schedule[next]! <= elapsed && inflight.size < maxInFlight) fire(next++);
      if (next >= opts.schedule.length) return resolve();
      // Due but no place free: go on when an answer frees one.
      if (opts.schedule[next]! <= elapsed) {
        onFree = tick;
        return;
      }
      const wait = opts.schedule[next]! - (now() - start);
      // setTimeout fires late by up to a few ms; under 2 ms, yield to I/O and check again.
      if (wait > 2) setTimeout(tick, wait - 1);
      else setImmediate(tick);
    };
    tick();
  });
  opts.signal?.removeEventListener('abort', wake);
  await Promise.all(inflight);
  return outcomes.filter((o): o is PacedOutcome<T> => o !== undefined);
}
