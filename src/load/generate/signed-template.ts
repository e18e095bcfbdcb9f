import { createHash, createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { authorizationValue, canonicalQuery, DEFAULT_SIGNING_HEADERS, SIGNING_SCHEME, type SigningHeaderNames } from '../../protocol/index.js';

const NONCE_LEN = 32;
/** 24 random bytes are exactly 32 base64url characters. */
const NONCE_BYTES = 24;
const POOL_NONCES = 4096;
const TS_LEN = 10;
const SIG_LEN = 64;

/**
 * Nonces from a pre-generated block of randomness: 32 base64url characters
 * (192 random bits) each, so they stay unique without a crypto call per request.
 */
export class NoncePool {
  private pool = Buffer.alloc(0);
  private at = 0;

  /** The next nonce as ASCII bytes (a view valid until the next call). */
  nextBytes(): Buffer {
    const at = this.take();
    return this.pool.subarray(at, at + NONCE_LEN);
  }

  /** Writes the next nonce's ASCII bytes into `target` at `offset`, with no allocation (the hot path's way). */
  copyNext(target: Buffer, offset: number): void {
    const at = this.take();
    this.pool.copy(target, offset, at, at + NONCE_LEN);
  }

  /** The next nonce as a string. */
  next(): string {
    return this.nextBytes().toString('latin1');
  }

  /** Offset in the pool of the next nonce, refilling the pool when it is used up. */
  private take(): number {
    if (this.at + NONCE_LEN > this.pool.length) {
      this.pool = Buffer.from(randomBytes(NONCE_BYTES * POOL_NONCES).toString('base64url'), 'latin1');
      this.at = 0;
    }
    const at = this.at;
    this.at += NONCE_LEN;
    return at;
  }
}

/** A request whose signature a template keeps fresh. */
interface TemplateRequest {
  method: string;
  /** Absolute path as sent (starting with the base path, e.g. `/v1/flights/search`), without query. */
  path: string;
  /** Raw query without `?`; empty for none. */
  query?: string;
  body?: Buffer | string | undefined;
  /** Host header value (`127.0.0.1:8480`). */
  host: string;
  keyId: string;
  secret: string;
  names?: SigningHeaderNames;
  /** More headers (lower-case names), e.g. content-type. */
  headers?: Record<string, string> | undefined;
}

/**
 * A raw HTTP/1.1 request with fixed-width slots for the timestamp (10
 * digits), nonce (32 characters) and signature (64 hex digits), patched in
 * place for every request. The body hash and the constant tail of the string
 * to sign are computed once, the timestamp once per second, the nonce comes
 * from a pool: one HMAC per request is all that is left.
 *
 * `next()` patches the same buffer: safe while a connection has one request
 * in flight (pipelining 1), since a request is built only after the previous
 * response arrived, when its bytes are long written.
 */
export class SignedTemplate {
  readonly buffer: Buffer;
  private readonly tsOffset: number;
  private readonly nonceOffset: number;
  private readonly sigOffset: number;
  private readonly key: KeyObject;
  private readonly tail: Buffer;
  private readonly nonces: NoncePool;
  /** The nonce slot of `buffer`, a view made once: the HMAC reads the nonce from where it is sent. */
  private readonly nonceSlot: Buffer;
  private second = -1;
  private head = Buffer.alloc(0);

  constructor(
    req: TemplateRequest,
    private readonly nowMs: () => number,
    nonces: NoncePool = new NoncePool(),
  ) {
    const names = req.names ?? DEFAULT_SIGNING_HEADERS;
    const body = typeof req.body === 'string' ? Buffer.from(req.body, 'utf8') : (req.body ?? Buffer.alloc(0));
    const query = req.query ?? '';
    const target = query === '' ? req.path : `${req.path}?${query}`;
    const sigSlot = '0'.repeat(SIG_LEN);
    const lines = [`${req.method.toUpperCase()} ${target} HTTP/1.1`, `Host: ${req.host}`, 'Connection: keep-alive'];
    for (const [k, v] of Object.entries(req.headers ?? {})) lines.push(`${k}: ${v}`);
    const authLine = `${names.authorization}: ${authorizationValue(req.keyId, sigSlot, names)}`;
    const tsLine = `${names.timestamp}: `;
    const nonceLine = `${names.nonce}: `;
    let head = `${lines.join('\r\n')}\r\n`;
    const sigOffset = head.length + authLine.length - SIG_LEN;
    head += `${authLine}\r\n`;
    const tsOffset = head.length + tsLine.length;
    head += `${tsLine}${'0'.repeat(TS_LEN)}\r\n`;
    const nonceOffset = head.length + nonceLine.length;
    head += `${nonceLine}${'0'.repeat(NONCE_LEN)}\r\n`;
    if (body.length > 0) head += `Content-Length: ${body.length}\r\n`;
    head += '\r\n';
    if (/[^\x20-\x7e\r\n]/.test(head)) throw new RangeError('request line and headers must be printable ASCII');
    this.buffer = Buffer.concat([Buffer.from(head, 'latin1'), body]);
    this.sigOffset = sigOffset;
    this.tsOffset = tsOffset;
    this.nonceOffset = nonceOffset;
    this.key = createSecretKey(Buffer.from(req.secret, 'utf8'));
    const bodyHash = createHash('sha256').update(body).digest('hex');
    this.tail = Buffer.from(`\n${req.method.toUpperCase()}\n${req.path === '' ? '/' : req.path}\n${canonicalQuery(query)}\n${bodyHash}`, 'utf8');
    this.nonces = nonces;
    this.nonceSlot = this.buffer.subarray(nonceOffset, nonceOffset + NONCE_LEN);
  }

  /** Patches timestamp, nonce and signature for a request sent now; returns the buffer. */
  next(): Buffer {
    const second = Math.floor(this.nowMs() / 1000);
    if (second !== this.second) {
      const ts = String(second);
      if (ts.length !== TS_LEN) throw new RangeError(`timestamp ${ts} does not fit the template's ${TS_LEN} digits`);
      this.second = second;
      this.head = Buffer.from(`${SIGNING_SCHEME}\n${ts}\n`, 'latin1');
      this.buffer.write(ts, this.tsOffset, 'latin1');
    }
    this.nonces.copyNext(this.buffer, this.nonceOffset);
    const sig = createHmac('sha256', this.key).update(this.head).update(this.nonceSlot).update(this.tail).digest('hex');
    this.buffer.write(sig, this.sigOffset, 'latin1');
    return this.buffer;
  }
}
