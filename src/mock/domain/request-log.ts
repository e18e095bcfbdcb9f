/** One client request as the admin API lists it (for certifying an agency's client). */
export interface LoggedRequest {
  request_id: string;
  method: string;
  /** Path and query as sent. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** Body as UTF-8 text (lossy for binary). */
  body: string;
  at_ms: number;
  /** Key id named in `Authorization`, when one could be read. */
  key_id: string | null;
  /** Agency the request authenticated as, when it did. */
  agency_id: string | null;
  status: number;
  /** Certification mode: the situation injected into the answer, when one was. */
  injected?: string;
}

/** What the hot path records: the body stays bytes until someone reads the log. */
export type RawLoggedRequest = Omit<LoggedRequest, 'body'> & { body: Buffer };

/** The most recent client requests, bounded so a load test cannot exhaust memory. */
export class RequestLog {
  private items: RawLoggedRequest[] = [];

  constructor(private readonly capacity = 10_000) {}

  /** Appends an entry, dropping the oldest beyond capacity. */
  add(entry: RawLoggedRequest): void {
    this.items.push(entry);
    if (this.items.length > this.capacity * 1.25) this.items = this.items.slice(-this.capacity);
  }

  /** Entries, oldest first (at most `capacity`). */
  list(): LoggedRequest[] {
    const items = this.items.length > this.capacity ? this.items.slice(-this.capacity) : this.items;
    return items.map((e) => ({ ...e, headers: { ...e.headers }, body: e.body.toString('utf8') }));
  }

  /** Forgets every entry. */
  clear(): void {
    this.items = [];
  }
}
