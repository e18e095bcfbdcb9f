import { splitPathQuery } from '../../protocol/index.js';
import type { InterceptContext, PipelineInterceptor, WireRequest, WireResponse } from '../../mock/index.js';
import { isRead } from '../../mock/http/route-table.js';
import type { InjectedSituation, Observation, ObservedRequest, WebhookProbe } from './observed.js';
import { sendWebhookProbes } from './webhook-probes.js';

/** Options of {@link CertificationInterceptor}. */
interface CertificationInterceptorOptions {
  /** The agency whose client is certified; other agencies' requests are left alone. */
  agencyId: string;
  webhookSecret: string;
  /** The agency's write limit, echoed in the injected 429's rate headers. */
  writeLimit: number;
  /**
   * Retry-After of the injected 429, seconds.
   * @defaultValue 1
   */
  retryAfterS?: number;
  /**
   * Body bytes sent before a cut-off answer drops the connection.
   * @defaultValue 24
   */
  cutAfterBytes?: number;
}

const BOOKING_PATH = /^\/v1\/[^/]+\/bookings$/;
const JSON_TYPE = 'application/json; charset=utf-8';

function errorAnswer(
  status: number,
  code: string,
  message: string,
  details: Record<string, unknown>,
  id: string,
  injected: InjectedSituation,
  headers: Record<string, string> = {},
): WireResponse {
  return {
    status,
    headers: { ...headers, 'content-type': JSON_TYPE, 'x-request-id': id },
    body: JSON.stringify({ error: { code, message, details, request_id: id } }),
    injected,
  };
}

function quoteTokenOf(body: Buffer): string | undefined {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { quote_token?: unknown };
    return typeof parsed.quote_token === 'string' ? parsed.quote_token : undefined;
  } catch {
    return undefined;
  }
}

function lowerHeaders(h: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
}

/**
 * Certification mode of the mock: injects, into the certified agency's
 * traffic, the situations a good client must survive, and records every
 * request with the answer the client really got. Bookings are counted by
 * quote (the first quote booked is booking 1, and so on):
 *
 * - booking 1: its first attempt is answered 429 with `Retry-After`; while
 *   that runs, every write is answered 429 too; its first attempt that then
 *   really books is cut off mid-body;
 * - booking 2: answered 410 QUOTE_EXPIRED, on every attempt (a dead token);
 * - booking 3: its first attempt that really books is answered 502.
 *
 * Once the client has registered a webhook endpoint and really booked once,
 * its endpoint gets the webhook probes (duplicate, forged, stale).
 */
export class CertificationInterceptor implements PipelineInterceptor {
  private readonly o: Required<CertificationInterceptorOptions>;
  private readonly requests: ObservedRequest[] = [];
  private probes: WebhookProbe[] = [];
  private readonly quoteOrder = new Map<string, number>();
  private rateLimitedUntil = -Infinity;
  private rateLimited = false;
  private cutOff = false;
  private badGateway = false;
  private webhookUrl: string | undefined;
  private booking: Record<string, unknown> | undefined;
  private probing: Promise<void> | undefined;
  private counter = 0;

  constructor(options: CertificationInterceptorOptions) {
    this.o = { retryAfterS: 1, cutAfterBytes: 24, ...options };
  }

  /** Answers instead of the pipeline where a situation is due. */
  before(req: WireRequest, ctx: InterceptContext & { agencyId: string }): WireResponse | undefined {
    if (ctx.agencyId !== this.o.agencyId) return undefined;
    const write = !isRead(req.method, ctx.path);
    if (write && ctx.atMs < this.rateLimitedUntil) {
      const s = Math.max(1, Math.ceil((this.rateLimitedUntil - ctx.atMs) / 1000));
      return this.rateLimitedAnswer(s, ctx, 'rate-limited-window');
    }
    const order = this.bookingOrder(req, ctx.path);
    if (order === 1 && !this.rateLimited) {
      this.rateLimited = true;
      this.rateLimitedUntil = ctx.atMs + this.o.retryAfterS * 1000;
      return this.rateLimitedAnswer(this.o.retryAfterS, ctx, 'rate-limited');
    }
    if (order === 2) {
      return errorAnswer(
        410,
        'QUOTE_EXPIRED',
        'the quote has expired; search again',
        { quote_expires_at: new Date(ctx.atMs - 1000).toISOString() },
        ctx.requestId,
        'quote-expired',
      );
    }
    return undefined;
  }

  /** Replaces a real booking's answer where a situation is due, and records the exchange. */
  after(req: WireRequest, res: WireResponse, ctx: InterceptContext): WireResponse {
    let answer = res;
    const mine = ctx.agencyId === this.o.agencyId;
    const created =
      mine &&
      req.method === 'POST' &&
      BOOKING_PATH.test(ctx.path) &&
      res.status === 201 &&
      res.headers['idempotent-replayed'] === undefined &&
      res.injected === undefined;
    if (created) {
      const order = this.bookingOrder(req, ctx.path);
      if (order === 1 && !this.cutOff) {
        this.cutOff = true;
        answer = { ...res, cutAfterBytes: this.o.cutAfterBytes, injected: 'cut-off-after-booking' };
      } else if (order === 3 && !this.badGateway) {
        this.badGateway = true;
        answer = errorAnswer(502, 'SUPPLIER_UNAVAILABLE', 'the supplier did not answer in time', {}, ctx.requestId, 'bad-gateway-after-booking');
      }
      this.booking ??= this.parse(res.body);
    }
    if (mine && req.method === 'PUT' && ctx.path === '/v1/webhook-endpoint' && res.status === 200) {
      const url = (this.parse(res.body) as { url?: unknown } | undefined)?.url;
      if (typeof url === 'string' && url !== '') this.webhookUrl = url;
    }
    this.record(req, answer, ctx, created);
    this.maybeProbe();
    return answer;
  }

  /** Resolves once the webhook probes (if started) are done. */
  async settled(): Promise<void> {
    await this.probing;
  }

  /** Everything observed so far. */
  observation(): Observation {
    return { agencyId: this.o.agencyId, requests: [...this.requests], probes: [...this.probes], webhookUrl: this.webhookUrl, retryAfterS: this.o.retryAfterS };
  }

  /** 1-based order of the quote a booking request redeems; undefined for other requests. */
  private bookingOrder(req: WireRequest, path: string): number | undefined {
    if (req.method !== 'POST' || !BOOKING_PATH.test(path)) return undefined;
    const token = quoteTokenOf(req.body);
    if (token === undefined) return undefined;
    let order = this.quoteOrder.get(token);
    if (order === undefined) {
      order = this.quoteOrder.size + 1;
      this.quoteOrder.set(token, order);
    }
    return order;
  }

  private rateLimitedAnswer(retryAfterS: number, ctx: InterceptContext, injected: InjectedSituation): WireResponse {
    return errorAnswer(
      429,
      'RATE_LIMITED',
      `too many write requests; retry after ${retryAfterS} s`,
      { resource: 'write', limit: this.o.writeLimit, window_s: 60, retry_after_s: retryAfterS },
      ctx.requestId,
      injected,
      {
        'retry-after': String(retryAfterS),
        'x-ratelimit-limit': String(this.o.writeLimit),
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(retryAfterS),
        'x-ratelimit-resource': 'write',
      },
    );
  }

  private parse(body: string | Buffer): Record<string, unknown> | undefined {
    try {
      const v: unknown = JSON.parse(Buffer.from(body).toString('utf8'));
      return v !== null && typeof v === 'object' ? (v as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  }

  private record(req: WireRequest, res: WireResponse, ctx: InterceptContext, created: boolean): void {
    this.requests.push({
      id: `c-${String(++this.counter).padStart(6, '0')}`,
      requestId: ctx.requestId,
      atMs: ctx.atMs,
      method: req.method,
      url: req.url,
      path: splitPathQuery(req.url).path,
      headers: { ...req.headers },
      body: req.body,
      agencyId: ctx.agencyId,
      status: res.status,
      responseHeaders: lowerHeaders(res.headers),
      responseBody: Buffer.from(res.body).toString('utf8'),
      ...(res.injected !== undefined ? { injected: res.injected as InjectedSituation } : {}),
      ...(created ? { createdBooking: true } : {}),
    });
  }

  private maybeProbe(): void {
    if (this.probing || this.webhookUrl === undefined || this.booking === undefined) return;
    let n = 0;
    this.probing = sendWebhookProbes({
      url: this.webhookUrl,
      agencyId: this.o.agencyId,
      webhookSecret: this.o.webhookSecret,
      booking: this.booking,
      nextId: () => `w-${String(++n).padStart(6, '0')}`,
    }).then(
      (probes) => {
        this.probes = probes;
      },
      () => undefined,
    );
  }
}
