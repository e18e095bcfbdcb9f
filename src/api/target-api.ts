import { randomBytes } from 'node:crypto';
import type { Dispatcher } from 'undici';
import type { ExchangeRecorder } from '../client/exchange.js';
import type { RawResponse } from '../client/recording-interceptor.js';
import { hasRateLimitHeaders } from '../client/rate-limit.js';
import { ServiceClient } from '../client/service-client.js';
import { splitPathQuery } from '../protocol/index.js';
import type { OperationDef, Profile, ResolvedAgency } from '../profile/index.js';
import type { RateLimitPoint } from '../results/model.js';
import { definedFields } from './_internal/defined-fields.js';
import { encodeBody, toApiResponse } from './_internal/to-api-response.js';
import { fillPath, getArray, getField, getNumber, getString, setTemplate } from './fields.js';
import type { ApiResponse, CallOptions, Offer, StatementEntry, TargetApi } from './types.js';

/** Options of {@link createTargetApi}. */
interface TargetApiOptions {
  profile: Profile;
  agency: ResolvedAgency;
  recorder?: ExchangeRecorder;
  /** Target clock, ms since epoch (signing timestamps, evidence times). @defaultValue `Date.now` */
  now?: () => number;
  /** Called for every response carrying rate-limit headers, and for every 429 (the rate-limit timeline). */
  onRateLimit?: (point: RateLimitPoint) => void;
  /** A dispatcher to share across agencies (left open by `close()`). */
  dispatcher?: Dispatcher;
}

/** A TargetApi that owns a connection pool. */
export interface ClosableTargetApi extends TargetApi {
  /** The signed client under it (for load tools and odd requests). */
  readonly client: ServiceClient;
  close(): Promise<void>;
}

/** A unique client reference (never one of the profile's failure-trigger prefixes). */
export function uniqueClientReference(): string {
  return `ref-${randomBytes(9).toString('base64url')}`;
}

function templateRegex(template: string): RegExp {
  const parts = template.split(/\{[A-Za-z0-9_]+\}/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('[^/]+')}$`);
}

const MAX_STATEMENT_PAGES = 10_000;

/** The service as one agency sees it, every path, field, header and code read from the profile. */
export function createTargetApi(options: TargetApiOptions): ClosableTargetApi {
  const { profile, agency, onRateLimit } = options;
  const now = options.now ?? Date.now;
  const ops = profile.operations;
  const f = profile.fields;
  const h = profile.headers;
  const client = new ServiceClient({
    baseUrl: profile.base_url,
    keyId: agency.keyId,
    secret: agency.secret,
    headerNames: h,
    recorder: options.recorder,
    now,
    timeoutMs: profile.request_timeout_ms,
    maxResponseBytes: profile.max_response_bytes,
    dispatcher: options.dispatcher,
  });
  const searchPath = templateRegex(ops.search.path);
  const searchMethod = ops.search.method.toUpperCase();

  function bucketOf(method: string, path: string): string {
    const m = method.toUpperCase();
    if (m === 'GET' || m === 'HEAD') return profile.values.bucket_read;
    if (m === searchMethod && searchPath.test(splitPathQuery(path).path)) return profile.values.bucket_read;
    return profile.values.bucket_write;
  }

  async function call(
    method: string,
    path: string,
    body: unknown,
    opts: (CallOptions & { query?: string | undefined }) | undefined,
    extraHeaders?: Record<string, string>,
  ): Promise<ApiResponse> {
    const headers = extraHeaders || opts?.headers ? { ...extraHeaders, ...opts?.headers } : undefined;
    let answer: ApiResponse | undefined;
    // Every attempt, retried refusals included, is a point of the rate-limit timeline.
    const onResponse = (raw: RawResponse): void => {
      const res = toApiResponse(raw, h, now());
      if (onRateLimit && (res.status === profile.errors.rate_limited.status || hasRateLimitHeaders(res.headers, h))) {
        onRateLimit({
          at: raw.exchange.startedAt,
          agency: agency.id,
          bucket: res.rateLimit.resource ?? bucketOf(method, path),
          status: res.status,
          limit: res.rateLimit.limit,
          remaining: res.rateLimit.remaining,
          retryAfterS: res.rateLimit.retryAfterS,
        });
      }
      opts?.onResponse?.(res);
      answer = res;
    };
    const raw = await client.request({
      method,
      path,
      query: opts?.query,
      body: encodeBody(body),
      headers,
      label: opts?.label,
      signing: opts?.signing,
      onResponse,
    });
    return answer?.exchange === raw.exchange ? answer : toApiResponse(raw, h, now());
  }

  function op(
    def: OperationDef,
    vars: Record<string, string>,
    body: unknown,
    opts?: CallOptions & { query?: string | undefined },
    extraHeaders?: Record<string, string>,
  ): Promise<ApiResponse> {
    return call(def.method, fillPath(def.path, vars), body, opts, extraHeaders);
  }

  function idempotencyHeader(key: string | undefined): Record<string, string> | undefined {
    return key === undefined ? undefined : { [h.idempotency_key]: key };
  }

  function toOffer(item: unknown): Offer | undefined {
    const quoteToken = getString(item, f.result_quote_token);
    if (quoteToken === undefined) return undefined;
    return {
      resultId: getString(item, f.result_id),
      quoteToken,
      quoteExpiresAt: getString(item, f.result_quote_expires_at),
      priceAmount: getNumber(item, f.result_price_amount),
      currency: getString(item, f.result_price_currency),
      raw: item,
    };
  }

  function toEntry(item: unknown): StatementEntry {
    return {
      id: getString(item, f.entry_id),
      type: getString(item, f.entry_type),
      amount: getNumber(item, f.entry_amount),
      balanceAfter: getNumber(item, f.entry_balance_after),
      bookingId: getString(item, f.entry_booking_id),
      raw: item,
    };
  }

  const api: ClosableTargetApi = {
    agencyId: agency.id,
    client,

    raw: (method, path, body, opts) => call(method, path, body, opts),

    account: (opts) => op(ops.account, {}, undefined, opts),

    async openProducts(opts) {
      const response = await api.account(opts);
      const open: string[] = [];
      for (const item of getArray(response.json, f.account_products)) {
        const name = getString(item, f.account_product_name);
        if (name !== undefined && getField(item, f.account_product_enabled) === true) open.push(name);
      }
      const closed = profile.products.filter((p) => !open.includes(p));
      return { open, closed, response };
    },

    async search(product, criteria, opts) {
      const body = setTemplate(profile.search_body, { criteria: criteria ?? profile.search_criteria[product] ?? {} });
      const res = await op(ops.search, { product }, body, opts);
      const offers = getArray(res.json, f.search_results)
        .map(toOffer)
        .filter((o): o is Offer => o !== undefined);
      return { ...res, offers };
    },

    async book(product, quoteToken, idempotencyKey, opts) {
      const body =
        opts?.body ??
        JSON.stringify(setTemplate(profile.booking_body, { quote_token: quoteToken, client_reference: opts?.clientReference ?? uniqueClientReference() }));
      const res = await op(ops.create_booking, { product }, body, opts, idempotencyHeader(idempotencyKey));
      return { ...res, ...definedFields({ bookingId: getString(res.json, f.booking_id), chargedAmount: getNumber(res.json, f.booking_price_amount) }) };
    },

    getBooking: (product, bookingId, opts) => op(ops.get_booking, { product, booking_id: bookingId }, undefined, opts),

    async cancel(product, bookingId, idempotencyKey, opts) {
      const body = opts?.body ?? JSON.stringify(setTemplate(profile.cancel_body ?? {}, {}));
      const res = await op(ops.cancel_booking, { product, booking_id: bookingId }, body, opts, idempotencyHeader(idempotencyKey));
      return { ...res, ...definedFields({ refundAmount: getNumber(res.json, f.cancellation_refund_amount) }) };
    },

    async balance(opts) {
      const res = await op(ops.wallet_balance, {}, undefined, opts);
      return { ...res, ...definedFields({ amount: getNumber(res.json, f.balance_amount), currency: getString(res.json, f.balance_currency) }) };
    },

    async statement(opts) {
      const q = profile.statement_query ?? { limit: 'limit', cursor: 'cursor' };
      const entries: StatementEntry[] = [];
      const responses: ApiResponse[] = [];
      const seen = new Set<string>();
      let cursor: string | undefined;
      for (let page = 0; page < MAX_STATEMENT_PAGES; page += 1) {
        let query = `${encodeURIComponent(q.limit)}=${profile.limits.statement_page_size}`;
        if (cursor !== undefined) query += `&${encodeURIComponent(q.cursor)}=${encodeURIComponent(cursor)}`;
        const res = await op(ops.wallet_statement, {}, undefined, { ...opts, query });
        responses.push(res);
        if (res.status < 200 || res.status >= 300) break;
        for (const item of getArray(res.json, f.statement_entries)) entries.push(toEntry(item));
        const next = getField(res.json, f.statement_next_cursor);
        // A cursor seen before would loop forever: stop and let the checks judge the pages.
        if (typeof next !== 'string' || next === '' || seen.has(next)) break;
        seen.add(next);
        cursor = next;
      }
      return { entries, responses };
    },

    rates: (opts) => op(ops.wallet_rates, {}, undefined, opts),

    setWebhookEndpoint: (url, opts) => op(ops.set_webhook_endpoint, {}, setTemplate(profile.webhook_endpoint_body ?? { url: '{url}' }, { url }), opts),

    getWebhookEndpoint: (opts) => op(ops.get_webhook_endpoint, {}, undefined, opts),

    errorCode: (res) => getString(res.json, f.error_code),

    close: () => client.close(),
  };
  return api;
}
