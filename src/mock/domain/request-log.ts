import { createHash } from 'node:crypto';
import { parseAuthorization } from '../../protocol/index.js';

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
  /** Body as UTF-8 text (lossy for binary); only its first bytes when `body_truncated`. */
  body: string;
  /** Byte count of the whole body as received. */
  body_bytes: number;
  /** Set when only a prefix of the body was kept; `body_sha256` then identifies the whole. */
  body_truncated?: true;
  /** Lower-case hex SHA-256 of the whole body, when it was truncated. */
  body_sha256?: string;
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
export type RawLoggedRequest = Omit<LoggedRequest, 'body' | 'key_id' | 'body_bytes' | 'body_truncated' | 'body_sha256'> & { body: Buffer };

/** Limits of the request log. */
interface RequestLogLimits {
  /** Most entries kept. @defaultValue 10000 */
  entries?: number;
  /** Most bytes kept in all (bodies, headers, paths, plus a fixed cost per entry). @defaultValue 32 MiB */
  bytes?: number;
  /** Bytes of one body kept; a longer one keeps this prefix, its length and its hash. @defaultValue 4096 */
  bodyBytes?: number;
}

/**
 * What the log keeps of an entry: headers and body as one flat string each.
 * Every entry outlives many young-generation collections, so whatever it
 * references is promoted; one string instead of a headers object with a
 * string per value, and text instead of a Buffer, cut the per-request promoted
 * bytes and objects that dominated the mock's GC time and peak memory under load.
 */
type StoredRequest = Omit<LoggedRequest, 'headers' | 'key_id'> & { headersJson: string; size: number };

/** Rough fixed cost of an entry beyond its strings (object, numbers, ids), so that empty requests are bounded too. */
const ENTRY_OVERHEAD_BYTES = 200;

/**
 * The most recent client requests, bounded in entries and in bytes, so that
 * neither a load test nor a flood of large bodies can exhaust the mock's memory
 * or make the admin listing too long to serialise.
 */
export class RequestLog {
  private items: StoredRequest[] = [];
  /** Index of the oldest live entry in `items`: dropping from the front costs no copy per request. */
  private head = 0;
  private bytes = 0;
  private readonly capacity: number;
  private readonly maxBytes: number;
  private readonly bodyBytes: number;

  constructor(limits: RequestLogLimits | number = {}) {
    const l = typeof limits === 'number' ? { entries: limits } : limits;
    this.capacity = l.entries ?? 10_000;
    this.maxBytes = l.bytes ?? 32 * 1024 * 1024;
    this.bodyBytes = l.bodyBytes ?? 4096;
  }

  /** Bytes the live entries account for (see `RequestLogLimits.bytes`). */
  get size(): number {
    return this.bytes;
  }

  /** Appends an entry, dropping the oldest ones beyond the entry or byte limit. */
  add(entry: RawLoggedRequest): void {
    const raw = entry.body;
    const truncated = raw.length > this.bodyBytes;
    const body = raw.length === 0 ? '' : (truncated ? raw.subarray(0, this.bodyBytes) : raw).toString('utf8');
    const headersJson = JSON.stringify(entry.headers);
    // Built field by field: no rest/spread copies per request (they showed in the load profile).
    const stored: StoredRequest = {
      request_id: entry.request_id,
      method: entry.method,
      path: entry.path,
      headersJson,
      body,
      body_bytes: raw.length,
      at_ms: entry.at_ms,
      agency_id: entry.agency_id,
      status: entry.status,
      // UTF-16 strings: two bytes a code unit.
      size: ENTRY_OVERHEAD_BYTES + 2 * (headersJson.length + body.length + entry.path.length),
    };
    if (truncated) {
      stored.body_truncated = true;
      stored.body_sha256 = createHash('sha256').update(raw).digest('hex');
    }
    if (entry.injected !== undefined) stored.injected = entry.injected;
    this.items.push(stored);
    this.bytes += stored.size;
    while (this.items.length - this.head > this.capacity || (this.bytes > this.maxBytes && this.items.length - this.head > 1)) {
      this.bytes -= this.items[this.head]!.size;
      this.items[this.head] = undefined as unknown as StoredRequest;
      this.head += 1;
    }
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }

  /** Entries, oldest first. */
  list(): LoggedRequest[] {
    return this.items.slice(this.head).map(({ headersJson, size: _size, ...e }) => {
      const headers = JSON.parse(headersJson) as LoggedRequest['headers'];
      return { ...e, headers, key_id: keyIdOf(headers.authorization) };
    });
  }

  /** Forgets every entry. */
  clear(): void {
    this.items = [];
    this.head = 0;
    this.bytes = 0;
  }
}
