import { parseAuthorization } from '../../client/signer.js';

function keyIdOf(authorization: string | string[] | undefined): string | null {
  return parseAuthorization(Array.isArray(authorization) ? authorization[0] : authorization)?.keyId ?? null;
}

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
  injected?: string | undefined;
}

/** What the hot path hands the log: the request's own headers object and body bytes. */
export type RawLoggedRequest = Omit<LoggedRequest, 'body' | 'key_id'> & { body: Buffer };

/**
 * What the log keeps of an entry: headers and body as one flat string each.
 * Every entry outlives many young-generation collections, so whatever it
 * references is promoted; one string instead of a headers object with a
 * string per value, and text instead of a Buffer, cut the per-request promoted
 * bytes and objects that dominated the mock's GC time and peak memory under load.
 */
type StoredRequest = Omit<LoggedRequest, 'headers' | 'key_id'> & { headersJson: string };

/** The most recent client requests, bounded so a load test cannot exhaust memory. */
export class RequestLog {
  private items: StoredRequest[] = [];

  constructor(private readonly capacity = 10_000) {}

  /** Appends an entry, dropping the oldest beyond capacity. */
  add(entry: RawLoggedRequest): void {
    // Built field by field: no rest/spread copies per request (they showed in the load profile).
    const stored: StoredRequest = {
      request_id: entry.request_id,
      method: entry.method,
      path: entry.path,
      headersJson: JSON.stringify(entry.headers),
      body: entry.body.length === 0 ? '' : entry.body.toString('utf8'),
      at_ms: entry.at_ms,
      agency_id: entry.agency_id,
      status: entry.status,
    };
    if (entry.injected !== undefined) stored.injected = entry.injected;
    this.items.push(stored);
    if (this.items.length > this.capacity * 1.25) this.items = this.items.slice(-this.capacity);
  }

  /** Entries, oldest first (at most `capacity`). */
  list(): LoggedRequest[] {
    const items = this.items.length > this.capacity ? this.items.slice(-this.capacity) : this.items;
    return items.map(({ headersJson, ...e }) => {
      const headers = JSON.parse(headersJson) as LoggedRequest['headers'];
      return { ...e, headers, key_id: keyIdOf(headers.authorization) };
    });
  }

  /** Forgets every entry. */
  clear(): void {
    this.items = [];
  }
}
