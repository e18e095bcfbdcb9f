import { withLazyText } from './delivery-capture.js';

/** One request the receiver recorded. */
export interface ReceivedDelivery {
  /** 1-based arrival order across all paths. */
  seq: number;
  method: string;
  /** Path without the query string. */
  path: string;
  /** Headers with lower-case names, as Node parsed them. */
  headers: Record<string, string | string[] | undefined>;
  /** The raw body bytes (only a prefix when `truncated`). */
  body: Buffer;
  /** The body as UTF-8 text. */
  readonly text: string;
  /** The whole body's byte count, when only a prefix is kept. */
  bytes?: number;
  /** SHA-256 (hex) of the whole body, when only a prefix is kept. */
  sha256?: string;
  /** True when the receiver kept only a prefix of a large body (its memory is bounded). */
  truncated?: true;
  /** Arrival time from the receiver's `now()` (target time when a harness drives a mock clock). */
  receivedAt: number;
  /** Status the receiver answered. */
  status: number;
}

/** Which deliveries to list: those of one path, or those a predicate keeps. */
export type DeliveryFilter = { path?: string; pathPrefix?: string } | ((d: ReceivedDelivery) => boolean);

interface Waiter {
  predicate: (d: ReceivedDelivery) => boolean;
  count: number;
  resolve: (found: ReceivedDelivery[]) => void;
  timer: NodeJS.Timeout;
}

function applyFilter(list: ReceivedDelivery[], filter: DeliveryFilter | undefined): ReceivedDelivery[] {
  if (!filter) return list;
  if (typeof filter === 'function') return list.filter(filter);
  return list.filter((d) => (filter.path === undefined || d.path === filter.path) && (filter.pathPrefix === undefined || d.path.startsWith(filter.pathPrefix)));
}

/** The deliveries a receiver recorded, in arrival order, and the callers waiting for some. */
export class DeliveryLog {
  private recorded: ReceivedDelivery[] = [];
  private waiters = new Set<Waiter>();
  private seq = 0;

  /** Records a delivery (numbering it) and wakes the waiters it satisfies. */
  add(delivery: Omit<ReceivedDelivery, 'seq' | 'text'>): void {
    this.recorded.push(withLazyText({ seq: ++this.seq, ...delivery }));
    for (const w of this.waiters) {
      const found = this.recorded.filter(w.predicate);
      if (found.length >= w.count) {
        clearTimeout(w.timer);
        this.waiters.delete(w);
        w.resolve(found);
      }
    }
  }

  /** Recorded deliveries in arrival order, optionally filtered (a copy). */
  list(filter?: DeliveryFilter): ReceivedDelivery[] {
    return applyFilter(this.recorded, filter).slice();
  }

  /** See `Receiver.waitFor`: at least `count` matches, or what matched at `timeoutMs`. */
  waitFor(predicate: (d: ReceivedDelivery) => boolean, timeoutMs: number, count = 1): Promise<ReceivedDelivery[]> {
    return new Promise((resolve) => {
      const found = this.recorded.filter(predicate);
      if (found.length >= count) return resolve(found);
      const waiter: Waiter = {
        predicate,
        count,
        resolve,
        timer: setTimeout(() => {
          this.waiters.delete(waiter);
          resolve(this.recorded.filter(predicate));
        }, timeoutMs),
      };
      this.waiters.add(waiter);
    });
  }

  /** Forgets the recorded deliveries; numbering and waiters carry on. */
  clear(): void {
    this.recorded = [];
  }

  /** Answers every waiter with what matched so far. */
  close(): void {
    for (const w of this.waiters) {
      clearTimeout(w.timer);
      w.resolve(this.recorded.filter(w.predicate));
    }
    this.waiters = new Set();
  }
}
