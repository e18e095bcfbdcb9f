import { isAscii } from 'node:buffer';
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

/** Rough fixed cost of an entry beyond its strings (object, numbers, ids), so that empty requests are bounded too. */
const ENTRY_OVERHEAD_BYTES = 200;

/** Bytes of one chunk of the entries' text; an entry larger than this gets a chunk of its own size. */
const CHUNK_BYTES = 1024 * 1024;

/** The text fields of an entry, in the order they are written; their byte lengths are kept per entry. */
const REQUEST_ID = 0;
const METHOD = 1;
const PATH = 2;
const HEADERS = 3;
const AGENCY = 4;
const INJECTED = 5;
const SHA = 6;
const BODY = 7;
const FIELDS = 8;

/** The entry slots first made; doubled as needed up to the entry limit. */
const FIRST_SLOTS = 1024;

/** A header name or value JSON writes as it is, between quotes: printable ASCII without `"` or `\\`. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/**
 * `JSON.stringify(headers)`, written by hand when every value is a string and
 * every name and value plain (a client's usual headers), else by
 * `JSON.stringify`: the same text either way.
 */
function headersText(headers: RawLoggedRequest['headers']): string {
  let text = '{';
  // Every name and value, joined: judged plain by one pattern test rather than one per name and value.
  let all = '';
  for (const name of Object.keys(headers)) {
    const value = headers[name];
    if (value === undefined) continue;
    if (typeof value !== 'string') return JSON.stringify(headers);
    text += `${text.length === 1 ? '' : ','}"${name}":"${value}"`;
    all += name + value;
  }
  return PLAIN.test(all) ? `${text}}` : JSON.stringify(headers);
}

/**
 * The most recent client requests, bounded in entries and in bytes, so that
 * neither a load test nor a flood of large bodies can exhaust the mock's memory
 * or make the admin listing too long to serialise.
 *
 * Kept outside the JS heap: each entry's texts (ids, path, headers as JSON,
 * the body's bytes as received) are written into large byte chunks, its
 * numbers into typed arrays, and nothing of it is a JS object. Entries
 * outlive many young-generation collections; held as objects and strings they
 * were copied by each collection and promoted, which cost the mock as much
 * CPU per request as writing them (seen with the pipeline bench: a log of one
 * entry against the default 10 000). Entries leave oldest first, so a chunk
 * is released once its last entry has left. Read back only by `list()`.
 */
export class RequestLog {
  private readonly capacity: number;
  private readonly maxBytes: number;
  private readonly bodyBytes: number;
  private bytes = 0;
  /** Absolute numbers of the oldest live entry and of the next one; entry `n` lives in slot `n % slots`. */
  private first = 0;
  private next = 0;
  private slots = 0;
  private atMs: Float64Array = new Float64Array(0);
  private bodyLength: Float64Array = new Float64Array(0);
  private sizes: Float64Array = new Float64Array(0);
  private status: Int32Array = new Int32Array(0);
  /** Chunk number and byte offset of each entry's texts, then each field's byte length (-1: absent). */
  private chunkOf: Int32Array = new Int32Array(0);
  private offset: Int32Array = new Int32Array(0);
  private lengths: Int32Array = new Int32Array(0);
  /** Live chunks, the first being chunk number `firstChunk`; writing goes on at `used` in the last. */
  private chunks: Buffer[] = [];
  /**
   * The last chunk released, kept to be written again: a fresh 1 MiB chunk
   * is memory the system maps, faults in page by page and unmaps once
   * released, which showed in the server's profile as page faults.
   */
  private spare: Buffer | undefined;
  private firstChunk = 0;
  private used = 0;

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
    const kept = truncated ? raw.subarray(0, this.bodyBytes) : raw;
    // The body's length as text (UTF-16 code units), which the byte budget counts.
    const bodyChars = isAscii(kept) ? kept.length : kept.toString('utf8').length;
    const headersJson = headersText(entry.headers);
    const sha = truncated ? createHash('sha256').update(raw).digest('hex') : undefined;
    if (this.next - this.first === this.slots) this.grow();
    const slot = this.next % this.slots;
    const size = ENTRY_OVERHEAD_BYTES + 2 * (headersJson.length + bodyChars + entry.path.length);
    this.write(slot, entry.request_id, entry.method, entry.path, headersJson, entry.agency_id ?? undefined, entry.injected, sha, kept);
    this.atMs[slot] = entry.at_ms;
    this.bodyLength[slot] = raw.length;
    this.sizes[slot] = size;
    this.status[slot] = entry.status;
    this.next += 1;
    this.bytes += size;
    while (this.next - this.first > this.capacity || (this.bytes > this.maxBytes && this.next - this.first > 1)) {
      this.bytes -= this.sizes[this.first % this.slots]!;
      this.first += 1;
    }
    this.releaseChunks();
  }

  /** Entries, oldest first. */
  list(): LoggedRequest[] {
    const out: LoggedRequest[] = [];
    for (let n = this.first; n < this.next; n++) {
      const slot = n % this.slots;
      const chunk = this.chunks[this.chunkOf[slot]! - this.firstChunk]!;
      let at = this.offset[slot]!;
      const text: Array<string | undefined> = [];
      for (let f = 0; f < FIELDS; f++) {
        const length = this.lengths[slot * FIELDS + f]!;
        if (length < 0) {
          text.push(undefined);
          continue;
        }
        text.push(chunk.toString('utf8', at, at + length));
        at += length;
      }
      const headers = JSON.parse(text[HEADERS]!) as LoggedRequest['headers'];
      const e: LoggedRequest = {
        request_id: text[REQUEST_ID]!,
        method: text[METHOD]!,
        path: text[PATH]!,
        body: text[BODY]!,
        body_bytes: this.bodyLength[slot]!,
        at_ms: this.atMs[slot]!,
        agency_id: text[AGENCY] ?? null,
        status: this.status[slot]!,
      } as LoggedRequest;
      if (text[SHA] !== undefined) {
        e.body_truncated = true;
        e.body_sha256 = text[SHA];
      }
      if (text[INJECTED] !== undefined) e.injected = text[INJECTED];
      e.headers = headers;
      e.key_id = keyIdOf(headers.authorization);
      out.push(e);
    }
    return out;
  }

  /** Forgets every entry. */
  clear(): void {
    this.first = 0;
    this.next = 0;
    this.bytes = 0;
    this.chunks = [];
    this.spare = undefined;
    this.firstChunk = 0;
    this.used = 0;
  }

  /**
   * Writes an entry's texts (`undefined`: absent) then its body bytes at the
   * end of the last chunk, or of a new one when they might not fit. The texts
   * are its fields in `FIELDS` order, as arguments rather than an array made
   * per entry.
   */
  private write(
    slot: number,
    id: string,
    method: string,
    path: string,
    headers: string,
    agency: string | undefined,
    injected: string | undefined,
    sha: string | undefined,
    body: Buffer,
  ): void {
    const joined = id + method + path + headers + (agency ?? '') + (injected ?? '') + (sha ?? '');
    // A UTF-16 code unit takes at most 3 bytes in UTF-8.
    const room = 3 * joined.length + body.length;
    let chunk = this.chunks[this.chunks.length - 1];
    if (chunk === undefined || chunk.length - this.used < room) {
      const spare = this.spare;
      this.spare = undefined;
      chunk = spare !== undefined && spare.length >= room ? spare : Buffer.allocUnsafeSlow(Math.max(CHUNK_BYTES, room));
      this.chunks.push(chunk);
      this.used = 0;
    }
    const start = this.used;
    const base = slot * FIELDS;
    const lengths = this.lengths;
    // One write for all the texts when they are ASCII (then bytes = characters), else one per field.
    let end = start + chunk.write(joined, start);
    if (end - start === joined.length) {
      lengths[base + REQUEST_ID] = id.length;
      lengths[base + METHOD] = method.length;
      lengths[base + PATH] = path.length;
      lengths[base + HEADERS] = headers.length;
      lengths[base + AGENCY] = agency === undefined ? -1 : agency.length;
      lengths[base + INJECTED] = injected === undefined ? -1 : injected.length;
      lengths[base + SHA] = sha === undefined ? -1 : sha.length;
    } else {
      const texts = [id, method, path, headers, agency, injected, sha];
      end = start;
      for (let f = 0; f < texts.length; f++) {
        const t = texts[f];
        const n = t === undefined ? -1 : chunk.write(t, end);
        lengths[base + f] = n;
        if (n > 0) end += n;
      }
    }
    chunk.set(body, end);
    lengths[base + BODY] = body.length;
    this.chunkOf[slot] = this.firstChunk + this.chunks.length - 1;
    this.offset[slot] = start;
    this.used = end + body.length;
  }

  /** Drops the chunks before the oldest live entry's. */
  private releaseChunks(): void {
    const keepFrom = this.first < this.next ? this.chunkOf[this.first % this.slots]! : this.firstChunk + this.chunks.length - 1;
    if (keepFrom > this.firstChunk) {
      const released = this.chunks.splice(0, keepFrom - this.firstChunk);
      this.firstChunk = keepFrom;
      // Only a chunk of the usual size is kept: one made for a single large entry may be far larger.
      const last = released[released.length - 1]!;
      if (last.length === CHUNK_BYTES) this.spare = last;
    }
  }

  /** More entry slots (up to one beyond the entry limit: an entry is added before the oldest leaves). */
  private grow(): void {
    const slots = Math.min(this.capacity + 1, Math.max(FIRST_SLOTS, this.slots * 2));
    const move = <T extends Float64Array | Int32Array>(old: T, make: (n: number) => T, width = 1): T => {
      const fresh = make(slots * width);
      for (let n = this.first; n < this.next; n++) {
        const from = (n % this.slots) * width;
        fresh.set(old.subarray(from, from + width), (n % slots) * width);
      }
      return fresh;
    };
    const f64 = (n: number): Float64Array => new Float64Array(n);
    const i32 = (n: number): Int32Array => new Int32Array(n);
    this.atMs = move(this.atMs, f64);
    this.bodyLength = move(this.bodyLength, f64);
    this.sizes = move(this.sizes, f64);
    this.status = move(this.status, i32);
    this.chunkOf = move(this.chunkOf, i32);
    this.offset = move(this.offset, i32);
    this.lengths = move(this.lengths, i32, FIELDS);
    this.slots = slots;
  }
}
