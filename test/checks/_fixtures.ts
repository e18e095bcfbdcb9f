import type { ApiResponse, Offer, StatementEntry } from '../../src/api/types.js';
import type { WalletSnapshot } from '../../src/checks/_internal/flow-steps.js';
import type { Exchange } from '../../src/client/exchange.js';
import { DEFAULT_PROFILE } from '../../src/profile/defaults.js';
import type { ErrorDef } from '../../src/profile/types.js';

/** The reference profile, as judges read it. */
export const P = DEFAULT_PROFILE;

let seq = 0;
/** A fresh exchange id. */
export function nextId(): string {
  seq += 1;
  return `x-${String(seq).padStart(6, '0')}`;
}

/** A recorded response: JSON body (or raw text), headers, and the exchange carrying it. */
export function answer(
  status: number,
  body?: unknown,
  opts: { headers?: Record<string, string>; text?: string; method?: string | undefined; url?: string | undefined; startedAt?: number } = {},
): ApiResponse {
  const text = opts.text ?? (body === undefined ? '' : JSON.stringify(body));
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  const headers = { 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'req_1', ...opts.headers };
  const exchange: Exchange = {
    id: nextId(),
    request: { method: opts.method ?? 'GET', url: opts.url ?? `${P.base_url}/account`, headers: {} },
    response: { status, headers, body: text },
    startedAt: opts.startedAt ?? Date.parse('2027-01-01T10:00:00.000Z'),
    durationMs: 5,
  };
  return { status, headers, text, bytes: Buffer.from(text), json, rateLimit: {}, exchange };
}

/** An error response in the reference envelope. */
export function errorAnswer(def: ErrorDef, opts: { requestId?: string; details?: unknown; url?: string; method?: string } = {}): ApiResponse {
  const requestId = opts.requestId ?? `req_${nextId()}`;
  return answer(
    def.status,
    { error: { code: def.code, message: 'human text', details: opts.details ?? {}, request_id: requestId } },
    { headers: { 'x-request-id': requestId }, url: opts.url, method: opts.method },
  );
}

/** A 201 booking response. */
export function bookedAnswer(bookingId: string, amount: number): ApiResponse & { bookingId: string; chargedAmount: number } {
  const res = answer(201, {
    booking_id: bookingId,
    product: 'flights',
    status: 'confirmed',
    price: { amount, currency: 'EUR' },
    client_reference: 'r',
    created_at: '2027-01-01T10:00:00.000Z',
  });
  return { ...res, bookingId, chargedAmount: amount };
}

/** A 201 cancellation response. */
export function cancelledAnswer(bookingId: string, amount: number): ApiResponse & { refundAmount: number } {
  const res = answer(201, {
    cancellation_id: 'cx_1',
    booking_id: bookingId,
    status: 'cancelled',
    refund: { amount, currency: 'EUR' },
    created_at: '2027-01-01T10:00:00.000Z',
  });
  return { ...res, refundAmount: amount };
}

/** The same response again, as a replay (same status and bytes, replayed header). */
export function replayOf<T extends ApiResponse>(original: T, opts: { text?: string; flag?: string | null } = {}): T {
  const headers: Record<string, string> = { ...original.headers };
  if (opts.flag !== null) headers['idempotent-replayed'] = opts.flag ?? 'true';
  const r = answer(original.status, undefined, { text: opts.text ?? original.text, headers });
  return { ...original, ...r };
}

/** A statement entry. */
export function entry(id: string, type: 'debit' | 'refund', amount: number, balanceAfter: number, bookingId: string | undefined): StatementEntry {
  return { id, type, amount, balanceAfter, bookingId, raw: {} };
}

/** A wallet snapshot; `entries` newest first. */
export function wallet(balance: number, entries: StatementEntry[]): WalletSnapshot {
  return { balance, balanceStatus: 200, entries, newestId: entries[0]?.id, evidence: [nextId(), nextId()] };
}

/** A search response with offers. */
export function searchAnswer(
  offers: Array<{ token: string; price: number; expiresAt?: string }>,
  startedAt = Date.parse('2027-01-01T10:00:00.000Z'),
): ApiResponse & { offers: Offer[] } {
  const results = offers.map((o, i) => ({
    result_id: `res_${i}`,
    product: 'flights',
    summary: 's',
    price: { amount: o.price, currency: 'EUR' },
    quote_token: o.token,
    quote_expires_at: o.expiresAt,
  }));
  const res = answer(200, { results }, { startedAt, method: 'POST' });
  return {
    ...res,
    offers: results.map((r) => ({
      resultId: r.result_id,
      quoteToken: r.quote_token,
      quoteExpiresAt: r.quote_expires_at,
      priceAmount: r.price.amount,
      currency: 'EUR',
      raw: r,
    })),
  };
}
