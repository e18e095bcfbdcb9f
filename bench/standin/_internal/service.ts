import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { IdempotencyStore, readKey } from './idempotency.js';
import { Ledger, Refusal } from './ledger.js';
import { RollingLimiter, type Admission } from './rolling-limiter.js';
import { offersFor, PRODUCTS, searchProblems, type FieldProblem } from './search.js';
import { NonceBook, parseSigningHeaders, signatureMatches } from './signature.js';

/**
 * The stand-in service: REFERENCE-API.md read anew and written with node:http
 * alone, judging each request in the order of its section 4 (authentication,
 * rate limit, contract, route and method, body, idempotency, the operation).
 */

/** One agency of the stand-in's fixture. */
export interface StandinAgency {
  agency_id: string;
  name: string;
  key_id: string;
  secret: string;
  webhook_secret: string;
  products: string[];
  currency: string;
  balance: number;
  limits: { read: number; write: number };
}

/** How the stand-in runs; `latencyMs` and `admitShare` make the slower and the early-refusing variants. */
export interface StandinOptions {
  agencies: StandinAgency[];
  windowS: number;
  quoteLifetimeS: number;
  /** Every answer is sent this many ms after the request was read. */
  latencyMs: number;
  /** 1 for a correct limiter; below 1 admits only that share of the advertised limit. */
  admitShare: number;
}

const MAX_BODY = 64 * 1024;
const READ_CAP = 1024 * 1024;
const TOLERANCE_S = 300;
const RATES: Record<string, number> = { EUR: 1, USD: 1.0825, GBP: 0.8571, CHF: 0.9412 };

class ApiError {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly message: string,
    readonly details: Record<string, unknown> = {},
  ) {}
}

const invalid = (fields: FieldProblem[]): ApiError => new ApiError(422, 'VALIDATION_FAILED', 'The request body is not valid.', { fields });

interface Routed {
  bucket: 'read' | 'write';
  run(agency: StandinAgency, body: unknown, raw: Buffer, now: number): { status: number; body: unknown };
  /** The body must be JSON (POST and PUT); an empty cancellation body means `{}`. */
  json: 'required' | 'optional-empty' | 'none';
  validate?(body: unknown): FieldProblem[];
  idempotent?: boolean;
}

export function createStandin(options: StandinOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const byKey = new Map(options.agencies.map((a) => [a.key_id, a]));
  const limiter = new RollingLimiter(options.windowS * 1000, options.admitShare);
  const nonces = new NonceBook(600_000);
  const ledger = new Ledger(options.quoteLifetimeS * 1000);
  const idempotency = new IdempotencyStore();
  const webhookUrls = new Map<string, string | null>();
  for (const a of options.agencies) ledger.openWallet(a.agency_id, a.currency, a.balance);
  const prefix = randomBytes(4).toString('hex');
  let counter = 0;

  function send(res: ServerResponse, status: number, body: Buffer, headers: Record<string, string>): void {
    const write = (): void => {
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(body.length), ...headers });
      res.end(body);
    };
    if (options.latencyMs > 0) setTimeout(write, options.latencyMs);
    else write();
  }

  function errorBody(e: ApiError, requestId: string): Buffer {
    return Buffer.from(JSON.stringify({ error: { code: e.code, message: e.message, details: e.details, request_id: requestId } }));
  }

  function route(method: string, segments: string[], query: URLSearchParams): Routed | ApiError {
    const notAllowed = (allow: string): ApiError => new ApiError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed here.`, { allow: allow.split(', ') });
    const [first, second, third, fourth, ...rest] = segments;
    if (rest.length > 0 || first === undefined) return new ApiError(404, 'NOT_FOUND', 'No such resource.');
    const read = method === 'GET' ? ('read' as const) : ('write' as const);
    if (first === 'account' && second === undefined) {
      if (method !== 'GET') return notAllowed('GET');
      return {
        bucket: read,
        json: 'none',
        run: (a) => ({
          status: 200,
          body: {
            agency_id: a.agency_id,
            name: a.name,
            currency: a.currency,
            products: PRODUCTS.map((p) => ({ product: p, enabled: a.products.includes(p) })),
            rate_limits: { read: a.limits.read, write: a.limits.write, window_s: options.windowS },
          },
        }),
      };
    }
    if (first === 'wallet' && third === undefined && (second === 'balance' || second === 'statement' || second === 'rates')) {
      if (method !== 'GET') return notAllowed('GET');
      if (second === 'balance') return { bucket: read, json: 'none', run: (a, _b, _r, now) => ({ status: 200, body: ledger.balance(a.agency_id, now) }) };
      if (second === 'rates')
        return {
          bucket: read,
          json: 'none',
          run: (a, _b, _r, now) => ({
            status: 200,
            body: {
              base: a.currency,
              rates: Object.fromEntries(Object.entries(RATES).map(([c, r]) => [c, Number((r / RATES[a.currency]!).toFixed(6))])),
              as_of: new Date(now).toISOString(),
            },
          }),
        };
      const limitText = query.get('limit');
      const cursorText = query.get('cursor');
      const problems: FieldProblem[] = [];
      const limit = limitText === null ? 50 : /^\d{1,3}$/.test(limitText) ? Number(limitText) : NaN;
      if (!(limit >= 1 && limit <= 200)) problems.push({ field: 'limit', message: 'must be an integer from 1 to 200' });
      if (cursorText !== null && !/^\d{1,9}$/.test(cursorText)) problems.push({ field: 'cursor', message: 'is not a cursor of this statement' });
      if (problems.length > 0) return invalid(problems);
      return {
        bucket: read,
        json: 'none',
        run: (a) => ({ status: 200, body: ledger.statement(a.agency_id, limit, cursorText === null ? null : Number(cursorText)) }),
      };
    }
    if (first === 'webhook-endpoint' && second === undefined) {
      if (method === 'GET')
        return { bucket: read, json: 'none', run: (a) => ({ status: 200, body: { url: webhookUrls.get(a.agency_id) ?? null, secret: a.webhook_secret } }) };
      if (method !== 'PUT') return notAllowed('GET, PUT');
      return {
        bucket: 'write',
        json: 'required',
        validate: (b) => {
          const url = (b as Record<string, unknown> | null)?.url;
          return typeof url === 'string' && /^https?:\/\/[^\s]+$/.test(url) ? [] : [{ field: 'url', message: 'must be an http or https URL' }];
        },
        run: (a, b) => {
          webhookUrls.set(a.agency_id, (b as { url: string }).url);
          return { status: 200, body: { url: (b as { url: string }).url, secret: a.webhook_secret } };
        },
      };
    }
    if (!(PRODUCTS as readonly string[]).includes(first)) return new ApiError(404, 'NOT_FOUND', 'No such resource.');
    const product = first;
    if (second === 'search' && third === undefined) {
      if (method !== 'POST') return notAllowed('POST');
      return {
        bucket: 'read',
        json: 'required',
        validate: (b) => searchProblems(product, b),
        run: (a, b, _r, now) => ({
          status: 200,
          body: {
            results: offersFor(product, b as Record<string, unknown>, now).map((o) => {
              const q = ledger.quote(a.agency_id, product, o.amount, now);
              return { result_id: o.resultId, product, summary: o.summary, price: q.price, quote_token: q.quote_token, quote_expires_at: q.quote_expires_at };
            }),
          },
        }),
      };
    }
    if (second !== 'bookings') return new ApiError(404, 'NOT_FOUND', 'No such resource.');
    if (third === undefined) {
      if (method !== 'POST') return notAllowed('POST');
      return {
        bucket: 'write',
        json: 'required',
        idempotent: true,
        validate: bookingProblems,
        run: (a, b, _r, now) => {
          const body = b as { quote_token: string; client_reference?: string | null };
          return ledger.book(a.agency_id, product, body.quote_token, body.client_reference ?? null, now);
        },
      };
    }
    if (fourth === undefined) {
      if (method !== 'GET') return notAllowed('GET');
      return {
        bucket: read,
        json: 'none',
        run: (a) => {
          const booking = ledger.booking(a.agency_id, product, third);
          if (booking === undefined) throw new ApiError(404, 'NOT_FOUND', 'No such booking.');
          return { status: 200, body: booking };
        },
      };
    }
    if (fourth !== 'cancellations') return new ApiError(404, 'NOT_FOUND', 'No such resource.');
    if (method !== 'POST') return notAllowed('POST');
    return {
      bucket: 'write',
      json: 'optional-empty',
      idempotent: true,
      validate: (b) => {
        const reason = (b as Record<string, unknown> | null)?.reason;
        return typeof b !== 'object' || b === null || Array.isArray(b)
          ? [{ field: 'body', message: 'must be an object' }]
          : reason === undefined || typeof reason === 'string'
            ? []
            : [{ field: 'reason', message: 'must be a string' }];
      },
      run: (a, _b, _r, now) => ledger.cancel(a.agency_id, product, third, now),
    };
  }

  function handle(req: IncomingMessage, res: ServerResponse, raw: Buffer): void {
    const now = Date.now();
    const requestId = `req_${prefix}${(counter++).toString(36)}`;
    const headers: Record<string, string> = { 'x-request-id': requestId };
    const fail = (e: ApiError): void => send(res, e.status, errorBody(e, requestId), headers);
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const rawPath = q < 0 ? url : url.slice(0, q);
    const rawQuery = q < 0 ? '' : url.slice(q + 1);

    // 1. authentication: form and key id, signature, timestamp, nonce.
    const parts = parseSigningHeaders(header(req, 'authorization'), header(req, 'x-svc-timestamp'), header(req, 'x-svc-nonce'));
    const agency = parts === null ? undefined : byKey.get(parts.keyId);
    if (parts === null || agency === undefined)
      return fail(new ApiError(401, 'UNAUTHENTICATED', 'Missing or malformed signing headers, or an unknown key id.'));
    if (!signatureMatches(parts, agency.secret, method, rawPath, rawQuery, raw))
      return fail(new ApiError(401, 'SIGNATURE_INVALID', 'The signature does not match.'));
    if (Math.abs(now / 1000 - parts.timestamp) > TOLERANCE_S)
      return fail(new ApiError(401, 'TIMESTAMP_SKEW', 'The timestamp is more than 300 s from the server clock.'));
    if (!nonces.record(parts.keyId, parts.nonce, now)) return fail(new ApiError(401, 'NONCE_REPLAYED', 'This nonce was used in the last 600 s.'));

    const segments = rawPath.startsWith('/v1/') ? rawPath.slice(4).split('/') : null;
    const routed = segments === null ? new ApiError(404, 'NOT_FOUND', 'No such resource.') : route(method, segments, new URLSearchParams(rawQuery));
    // 2. rate limit: every GET and every POST …/search reads; everything else writes.
    const isSearch = method === 'POST' && segments !== null && segments.length === 2 && segments[1] === 'search';
    const bucket = method === 'GET' || isSearch ? 'read' : 'write';
    const admission = limiter.admit(agency.agency_id, bucket, agency.limits[bucket], now);
    Object.assign(headers, rateHeaders(admission, bucket));
    if (!admission.admitted) {
      headers['retry-after'] = String(admission.retryAfterS);
      return fail(
        new ApiError(429, 'RATE_LIMITED', `The ${bucket} limit of ${admission.limit} requests per ${options.windowS} s is reached.`, {
          resource: bucket,
          limit: admission.limit,
          window_s: options.windowS,
          retry_after_s: admission.retryAfterS,
        }),
      );
    }
    // 3. contract: every path under a product outside the contract.
    const productWord = segments?.[0];
    if (productWord !== undefined && (PRODUCTS as readonly string[]).includes(productWord) && !agency.products.includes(productWord))
      return fail(new ApiError(403, 'MODULE_NOT_ENABLED', `${productWord} is not in the agency's contract.`, { product: productWord }));
    // 4. route and method (and the statement's query).
    if (routed instanceof ApiError) return fail(routed);
    // 5. body.
    let body: unknown = undefined;
    if (routed.json !== 'none') {
      if (raw.length > MAX_BODY) return fail(new ApiError(413, 'PAYLOAD_TOO_LARGE', `The body is over ${MAX_BODY} bytes.`, { max_bytes: MAX_BODY }));
      if (raw.length === 0 && routed.json === 'optional-empty') body = {};
      else {
        try {
          body = JSON.parse(raw.toString('utf8'));
        } catch {
          return fail(new ApiError(400, 'INVALID_JSON', 'The body is not JSON.'));
        }
      }
      const problems = routed.validate?.(body) ?? [];
      if (problems.length > 0) return fail(invalid(problems));
    }
    // 6. idempotency.
    let complete: ((status: number, body: Buffer) => void) | undefined;
    if (routed.idempotent === true) {
      const key = readKey(header(req, 'idempotency-key'));
      if (!key.ok)
        return fail(
          new ApiError(
            400,
            'IDEMPOTENCY_KEY_REQUIRED',
            'An Idempotency-Key header of 1 to 255 printable characters is required.',
            key.reason === 'invalid' ? { reason: 'invalid' } : {},
          ),
        );
      const claim = idempotency.claim(agency.agency_id, method, rawPath, key.key, raw, now);
      if (claim.kind === 'reused') return fail(new ApiError(422, 'IDEMPOTENCY_KEY_REUSED', 'This key was used with another body.'));
      if (claim.kind === 'in-use') return fail(new ApiError(409, 'IDEMPOTENCY_KEY_IN_USE', 'A request with this key is still executing.'));
      if (claim.kind === 'replay') return send(res, claim.status, claim.body, { ...headers, 'idempotent-replayed': 'true' });
      complete = claim.complete;
    }
    // 7. the operation; its answer is stored for the key, whatever its status.
    let status: number;
    let answer: Buffer;
    try {
      const out = routed.run(agency, body, raw, now);
      status = out.status;
      answer = Buffer.from(JSON.stringify(out.body));
    } catch (e) {
      if (!(e instanceof Refusal) && !(e instanceof ApiError)) throw e;
      status = e.status;
      answer = errorBody(new ApiError(e.status, e.code, e.message, e.details), requestId);
    }
    complete?.(status, answer);
    send(res, status, answer, headers);
  }

  return (req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= READ_CAP) chunks.push(c);
    });
    req.on('end', () => {
      if (size > READ_CAP) {
        const e = new ApiError(413, 'PAYLOAD_TOO_LARGE', `The body is over ${MAX_BODY} bytes.`, { max_bytes: MAX_BODY });
        const requestId = `req_${prefix}${(counter++).toString(36)}`;
        return send(res, 413, errorBody(e, requestId), { 'x-request-id': requestId });
      }
      try {
        handle(req, res, Buffer.concat(chunks, size));
      } catch (err) {
        const requestId = `req_${prefix}${(counter++).toString(36)}`;
        process.stderr.write(`stand-in: ${String((err as Error).stack ?? err)}\n`);
        send(res, 500, errorBody(new ApiError(500, 'INTERNAL', 'An internal error.'), requestId), { 'x-request-id': requestId });
      }
    });
  };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function rateHeaders(a: Admission, bucket: string): Record<string, string> {
  return {
    'x-ratelimit-limit': String(a.limit),
    'x-ratelimit-remaining': String(a.remaining),
    'x-ratelimit-reset': String(a.resetS),
    'x-ratelimit-resource': bucket,
  };
}

function bookingProblems(b: unknown): FieldProblem[] {
  if (typeof b !== 'object' || b === null || Array.isArray(b)) return [{ field: 'body', message: 'must be an object' }];
  const body = b as Record<string, unknown>;
  const problems: FieldProblem[] = [];
  if (typeof body.quote_token !== 'string' || body.quote_token === '') problems.push({ field: 'quote_token', message: 'is required' });
  const travellers = body.travellers;
  const text = (v: unknown): boolean => typeof v === 'string' && v.trim() !== '';
  if (!Array.isArray(travellers) || travellers.length === 0) problems.push({ field: 'travellers', message: 'must list at least one traveller' });
  else
    travellers.forEach((t, i) => {
      if (typeof t !== 'object' || t === null || !text((t as Record<string, unknown>).first_name))
        problems.push({ field: `travellers[${i}].first_name`, message: 'is required' });
      if (typeof t !== 'object' || t === null || !text((t as Record<string, unknown>).last_name))
        problems.push({ field: `travellers[${i}].last_name`, message: 'is required' });
    });
  if (body.client_reference !== undefined && body.client_reference !== null && typeof body.client_reference !== 'string')
    problems.push({ field: 'client_reference', message: 'must be a string' });
  return problems;
}
