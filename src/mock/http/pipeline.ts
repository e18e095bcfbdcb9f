import { bodyHash, splitPathQuery } from '../../protocol/index.js';
import type { Agency } from '../domain/agency.js';
import { ApiError } from '../domain/api-error.js';
import { authenticate } from '../domain/auth.js';
import { JsonText } from '../domain/json-text.js';
import { parseIdempotencyKey, type StoredResponse } from '../domain/idempotency-store.js';
import type { MockService, ServiceEvent } from '../domain/mock-service.js';
import type { RateDecision } from '../domain/rate-limiter.js';
import type { RequestLog } from '../domain/request-log.js';
import type { PipelineInterceptor } from './interceptor.js';
import { errorResponse, JSON_TYPE } from './error-response.js';
import { newRequestId } from './request-id.js';
import { isRead, matchRoute, productOfPath, type Route, type RouteParams } from './route-table.js';
import type { WireRequest, WireResponse } from './wire.js';

/** Largest body the service accepts (step 5). */
const MAX_BODY_BYTES = 64 * 1024;

/** Most validated bodies kept for reuse (all are dropped at once beyond it). */
const REUSED_INPUTS = 256;

/**
 * Longest body whose Latin-1 text is made up front, for the lookups of its
 * hash (authentication) and of its validated input (a search's criteria).
 */
const KEYED_BODY_BYTES = 4096;

/** An input validated from a body text, and the product its path named. */
interface ValidatedInput {
  product: string | undefined;
  input: unknown;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function header(req: WireRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * The judging order of REFERENCE-API.md section 4, framework-free:
 * authentication, rate limit, contract, route and method, body, idempotency,
 * operation. The first failure answers.
 */
export class ServicePipeline {
  /** Body bytes (as Latin-1 text) → input, for routes whose input is `reusableInput`. */
  private readonly validated = new Map<string, ValidatedInput>();

  constructor(
    private readonly service: MockService,
    /** Absent when nothing can read it (the mock without its admin API): no request is logged. */
    private readonly log: RequestLog | undefined,
    /** Certification mode's hook; absent in normal use. */
    private readonly interceptor?: PipelineInterceptor,
  ) {}

  /**
   * Judges and answers one request; never throws. Synchronous unless a step
   * needs to wait (the supplier, an interceptor): most requests, searches
   * included, then cost no promise or microtask, which the load profile showed.
   */
  handle(req: WireRequest): WireResponse | Promise<WireResponse> {
    const requestId = newRequestId();
    const s = this.service;
    const now = s.clock.now();
    const { path, query } = splitPathQuery(req.url);
    const bodyText = req.body.length > 0 && req.body.length <= KEYED_BODY_BYTES ? req.body.toString('latin1') : undefined;
    let agency: Agency | undefined;
    let rl: RateDecision | undefined;
    let res: WireResponse | Promise<WireResponse>;
    try {
      agency = authenticate(
        {
          method: req.method,
          path,
          query,
          body: req.body,
          bodyText,
          authorization: header(req, 'authorization'),
          timestamp: header(req, 'x-svc-timestamp'),
          nonce: header(req, 'x-svc-nonce'),
        },
        s.agencyByKey,
        s.nonces,
        now,
        s.defects,
      );
      if (this.interceptor?.before) return this.handleIntercepted(req, requestId, now, path, query, agency);
      rl = this.take(agency, req.method, path, now);
      res = rl.admitted ? this.judge(agency, req, path, query, requestId, bodyText) : this.refuse(agency, req, path, query, rl);
    } catch (err) {
      res = errorResponse(err, requestId, s.defects);
    }
    if (res instanceof Promise) {
      const a = agency;
      const r = rl;
      return res.catch((err: unknown) => errorResponse(err, requestId, s.defects)).then((final) => this.finish(req, final, requestId, now, path, a, r));
    }
    return this.finish(req, res, requestId, now, path, agency, rl);
  }

  /** `handle` with an interceptor's `before` hook: it sees the authenticated request before the rate limit. */
  private async handleIntercepted(req: WireRequest, requestId: string, now: number, path: string, query: string, agency: Agency): Promise<WireResponse> {
    let rl: RateDecision | undefined;
    let res: WireResponse;
    try {
      const early = await this.interceptor!.before!(req, { requestId, atMs: now, path, agencyId: agency.id });
      if (early) return await this.finish(req, early, requestId, now, path, agency, undefined);
      rl = this.take(agency, req.method, path, now);
      res = await (rl.admitted ? this.judge(agency, req, path, query, requestId) : this.refuse(agency, req, path, query, rl));
    } catch (err) {
      res = errorResponse(err, requestId, this.service.defects);
    }
    return this.finish(req, res, requestId, now, path, agency, rl);
  }

  /** Step 2: counts the request in its agency's bucket. */
  private take(agency: Agency, method: string, path: string, now: number): RateDecision {
    const resource = isRead(method, path) ? 'read' : 'write';
    return this.service.limiter.take(agency.id, resource, agency.limits[resource], now);
  }

  /** The 429 of a refused request (thrown, or rejected once a defect has run the request anyway). */
  private refuse(agency: Agency, req: WireRequest, path: string, query: string, rl: RateDecision): Promise<never> {
    const s = this.service;
    const headers: Record<string, string> = s.defects.has('retry-after-missing') ? {} : { 'retry-after': String(rl.retryAfterS) };
    const refusal = new ApiError(
      429,
      'RATE_LIMITED',
      `too many ${rl.resource} requests; retry after ${rl.retryAfterS} s`,
      { resource: rl.resource, limit: rl.limit, window_s: s.limiter.windowMs / 1000, retry_after_s: rl.retryAfterS },
      headers,
    );
    if (s.defects.has('ratelimit-charges') && req.method === 'POST' && matchRoute('POST', path) && /\/bookings$/.test(path)) {
      return this.chargeThenRefuse(agency, req, path, query, refusal);
    }
    throw refusal;
  }

  /** Defect `ratelimit-charges`: runs the refused booking, whatever it answers, then refuses it. */
  private async chargeThenRefuse(agency: Agency, req: WireRequest, path: string, query: string, refusal: ApiError): Promise<never> {
    try {
      await this.judge(agency, req, path, query, newRequestId());
    } catch {
      // The refusal answers, whatever the booking did.
    }
    throw refusal;
  }

  /** Adds the rate headers, lets the interceptor (if any) see and maybe replace the answer, then logs it. */
  private finish(
    req: WireRequest,
    res: WireResponse,
    requestId: string,
    now: number,
    path: string,
    agency: Agency | undefined,
    rl: RateDecision | undefined,
  ): WireResponse | Promise<WireResponse> {
    if (rl) this.addRateHeaders(res, rl);
    const after = this.interceptor?.after;
    if (!after) return this.record(req, res, requestId, now, agency);
    const ctx = { requestId, atMs: now, path, agencyId: agency?.id ?? null };
    return (
      Promise.resolve()
        .then(() => after.call(this.interceptor, req, res, ctx))
        // A failing interceptor must not break the service: the pipeline's own answer goes out.
        .catch(() => res)
        .then((final) => this.record(req, final, requestId, now, agency))
    );
  }

  /** Appends the request and its final answer to the request log, when there is one. */
  private record(req: WireRequest, res: WireResponse, requestId: string, now: number, agency: Agency | undefined): WireResponse {
    this.log?.add({
      request_id: requestId,
      method: req.method,
      path: req.url,
      headers: req.headers,
      body: req.body,
      at_ms: now,
      agency_id: agency?.id ?? null,
      status: res.status,
      injected: res.injected,
    });
    return res;
  }

  /** Steps 3 to 7 for an authenticated, admitted request; throws the first failure. */
  private judge(agency: Agency, req: WireRequest, path: string, query: string, requestId: string, bodyText?: string): WireResponse | Promise<WireResponse> {
    const s = this.service;
    // Step 3: contract.
    const product = productOfPath(path);
    if (product && !agency.products.has(product)) {
      const skip = s.defects.has('contract-skip') && req.method === 'GET' && /^\/v1\/[^/]+\/bookings\/[^/]+$/.test(path);
      if (!skip) throw new ApiError(403, 'MODULE_NOT_ENABLED', `product ${product} is not in the agency's contract`, { product });
    }
    // Step 4: route and method.
    const match = matchRoute(req.method, path);
    if (!match) throw new ApiError(404, 'NOT_FOUND', `no resource at ${path}`);
    if ('allow' in match) {
      if (s.defects.has('method-not-allowed-as-404')) throw new ApiError(404, 'NOT_FOUND', `no resource at ${path}`);
      if (product && s.defects.has('product-method-not-found')) throw new ApiError(404, 'NOT_FOUND', `no resource at ${path}`);
      throw new ApiError(405, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${path}`, { allow: match.allow }, { allow: match.allow.join(', ') });
    }
    const { route, params } = match;
    // Step 5: body.
    if (req.body.length > MAX_BODY_BYTES) {
      throw new ApiError(413, 'PAYLOAD_TOO_LARGE', `body of ${req.body.length} bytes is over the ${MAX_BODY_BYTES} byte limit`, {
        limit_bytes: MAX_BODY_BYTES,
      });
    }
    let input: unknown;
    if (route.body === 'none') input = route.validate(undefined, params);
    else if (req.body.length === 0 && route.body === 'json-or-empty') input = route.validate({}, params);
    else if (route.reusableInput) input = this.reusedInput(route, params, req.body, bodyText);
    else input = this.validateBody(route, params, parseJson(decodeUtf8(req.body)), agency);
    // Step 6: idempotency.
    if (!route.idempotent) {
      const result = route.run(s, agency, params, input, query);
      return result instanceof Promise ? result.then((r) => json(r, requestId)) : json(result, requestId);
    }
    return this.idempotent(route, params, input, agency, req, path, query, requestId);
  }

  /** Step 5 for a JSON body: the route's validation (where three defects of a booking's validation live). */
  private validateBody(route: Route, params: RouteParams, body: unknown, agency: Agency): unknown {
    const s = this.service;
    if (route.name !== 'booking.create') return route.validate(body, params);
    if (s.defects.has('booking-body-unchecked')) readBookingUnchecked(body);
    try {
      return route.validate(body, params);
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 422) throw err;
      if (s.defects.has('invalid-booking-charges')) s.ledger.debit(agency.id, 100, null, s.clock.now(), true);
      if (s.defects.has('invalid-booking-emits-event')) s.emit(agency, s.prematureBookingEvent(agency, params.product ?? '', body));
      if (s.defects.has('validation-fields-unnamed'))
        throw new ApiError(422, 'VALIDATION_FAILED', 'request failed validation', { fields: [{ field: 'body', message: 'is invalid' }] });
      throw err;
    }
  }

  /**
   * The input of a body validated before for the same product, else the body
   * parsed and validated (and kept). Bodies are known by their bytes as
   * Latin-1 text (the same text, the same bytes), so a known one is not
   * decoded again.
   */
  private reusedInput(route: Route, params: RouteParams, body: Buffer, bodyText = body.toString('latin1')): unknown {
    const known = this.validated.get(bodyText);
    if (known !== undefined && known.product === params.product) return known.input;
    const input = route.validate(parseJson(decodeUtf8(body)), params);
    if (this.validated.size >= REUSED_INPUTS) this.validated.clear();
    this.validated.set(bodyText, { product: params.product, input });
    return input;
  }

  /** Steps 6 and 7 of a booking or cancellation: the idempotency key, then the operation, its answer stored. */
  private async idempotent(
    route: Route,
    params: RouteParams,
    input: unknown,
    agency: Agency,
    req: WireRequest,
    path: string,
    query: string,
    requestId: string,
  ): Promise<WireResponse> {
    const s = this.service;
    const key = parseIdempotencyKey(req.headers['idempotency-key']);
    if (key === undefined) {
      if (s.defects.has('idempotency-key-optional')) {
        const result = await route.run(s, agency, params, input, query);
        if (result.event) s.emit(agency, result.event);
        return json(result, requestId);
      }
      throw new ApiError(400, 'IDEMPOTENCY_KEY_REQUIRED', 'this operation requires an Idempotency-Key header', { reason: 'missing' });
    }
    if (key === null) {
      throw new ApiError(400, 'IDEMPOTENCY_KEY_REQUIRED', 'Idempotency-Key must be 1 to 255 printable ASCII characters', { reason: 'invalid' });
    }
    const scope = `${s.defects.has('idempotency-scope-without-agency') ? '' : agency.id}\n${req.method}\n${path}\n${key}`;
    const verdict = s.idempotency.begin(scope, bodyHash(req.body), s.clock.now());
    const reexecute = verdict.kind === 'replay' && s.defects.has('replay-books-again');
    if (verdict.kind === 'replay' && !reexecute) return this.replay(agency, verdict.response);
    if (verdict.kind === 'reused') {
      if (verdict.response && s.defects.has('replay-ignores-body')) return this.replay(agency, verdict.response);
      throw new ApiError(422, 'IDEMPOTENCY_KEY_REUSED', 'this Idempotency-Key was used with another body', { idempotency_key: key });
    }
    if (verdict.kind === 'in-use' && !s.defects.has('concurrent-double')) {
      throw new ApiError(409, 'IDEMPOTENCY_KEY_IN_USE', 'a request with this Idempotency-Key is still executing', { idempotency_key: key });
    }
    // Step 7: the operation; its final answer, whatever the status, is stored.
    let res: WireResponse;
    let event: ServiceEvent | undefined;
    try {
      const result = await route.run(s, agency, params, reexecute ? { ...(input as object), reexecute: true } : input, query);
      event = result.event;
      res = json(result, requestId);
    } catch (err) {
      res = errorResponse(err, requestId, s.defects);
    }
    const body = ownedBytes(res.body);
    s.idempotency.complete(scope, {
      status: res.status,
      body,
      contentType: res.headers['content-type'] ?? JSON_TYPE,
      requestId,
      ...(event ? { event } : {}),
    });
    if (event) s.emit(agency, event);
    return { status: res.status, headers: res.headers, body };
  }

  private replay(agency: Agency, stored: StoredResponse): WireResponse {
    const s = this.service;
    let body: Buffer = stored.body;
    if (s.defects.has('replay-differs')) body = Buffer.from(JSON.stringify(JSON.parse(stored.body.toString('utf8')), null, 2));
    if (stored.event && s.defects.has('replay-emits-webhook')) s.emit(agency, stored.event);
    const cancellation =
      stored.status < 300 && stored.body.includes('"cancellation_id"')
        ? (JSON.parse(stored.body.toString('utf8')) as { booking_id: string; refund: { amount: number } })
        : undefined;
    if (cancellation && s.defects.has('cancel-replay-refunds-again'))
      s.ledger.refund(agency.id, cancellation.refund.amount, cancellation.booking_id, s.clock.now());
    const flagged = cancellation !== undefined || stored.status >= 300 || !s.defects.has('booking-replay-unflagged');
    // An error replay keeps the request id its body names; a success gets this request's own.
    const requestId = stored.status >= 400 ? stored.requestId : newRequestId();
    return {
      status: stored.status,
      headers: { 'content-type': stored.contentType, 'x-request-id': requestId, ...(flagged ? { 'idempotent-replayed': 'true' } : {}) },
      body,
    };
  }

  private addRateHeaders(res: WireResponse, rl: RateDecision): void {
    const s = this.service;
    if (s.defects.has('ratelimit-headers-missing')) return;
    const remaining = s.defects.has('ratelimit-remaining-wrong') ? rl.remaining + 1 : rl.remaining;
    res.headers['x-ratelimit-limit'] = String(rl.limit);
    res.headers['x-ratelimit-remaining'] = String(remaining);
    res.headers['x-ratelimit-reset'] = String(rl.resetS);
    res.headers['x-ratelimit-resource'] = rl.resource;
  }
}

/** Defect `booking-body-unchecked`: reads a booking body as if it were valid; a field missing or of another JSON type throws a TypeError. */
function readBookingUnchecked(body: unknown): void {
  const b = body as { quote_token: string; travellers: Array<{ first_name: string; last_name: string }>; client_reference?: string | null };
  b.quote_token.startsWith('');
  for (const t of b.travellers) void (t.first_name.trim() + t.last_name.trim());
  if (b.client_reference !== undefined && b.client_reference !== null) b.client_reference.trim();
}

function decodeUtf8(body: Buffer): string {
  try {
    return utf8.decode(body);
  } catch {
    throw new ApiError(400, 'INVALID_JSON', 'body is not valid UTF-8');
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ApiError(400, 'INVALID_JSON', `body is not valid JSON: ${(err as Error).message}`);
  }
}

/**
 * The bytes of an answer kept for up to 24 h, in memory of their own: a small
 * `Buffer.from` is a slice of node's shared 8 KB pool and keeps the whole slab
 * alive, which, with search answers drawn from the same pool in between,
 * made each stored answer pin several KB in the memory bench.
 */
function ownedBytes(body: string | Buffer): Buffer {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const own = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(own);
  return own;
}

function json(result: { status: number; body: unknown }, requestId: string): WireResponse {
  const body = result.body instanceof JsonText ? result.body.utf8 : JSON.stringify(result.body);
  return { status: result.status, headers: { 'content-type': JSON_TYPE, 'x-request-id': requestId }, body };
}
