/**
 * Recorded-style observations for the rate-limit and webhook judges: shots and
 * attempts shaped exactly as the checks record them from real exchanges and
 * deliveries, built by small factories so each test states only what differs.
 */
import type { RlBucket, RlShot } from '../../src/checks/_internal/rl-shot.js';
import type { WhAttempt, WhRun } from '../../src/checks/_internal/wh-attempt.js';
import { DEFAULT_PROFILE } from '../../src/profile/defaults.js';
import type { Profile } from '../../src/profile/types.js';
import { serviceWebhookHeaders, signHotelWebhook } from '../../src/protocol/index.js';

/** The reference profile the fixtures follow. */
export const PROFILE: Profile = DEFAULT_PROFILE;
/** Test secrets (never a real agency's). */
export const WEBHOOK_SECRET = 'whsec_' + Buffer.from('fixture-webhook-key-0123456789ab').toString('base64');
export const HOTEL_SECRET = 'hwsec_fixture_hotel_secret';
/** A fixed instant the recordings start at. */
export const T0 = Date.UTC(2027, 2, 14, 10, 0, 17, 250);

let ids = 0;
/** A fresh exchange id. */
export function xid(): string {
  ids += 1;
  return `x-${String(ids).padStart(6, '0')}`;
}

/** One shot with the reference 429 envelope when refused. */
export function shot(p: {
  bucket: RlBucket;
  at: number;
  status?: number;
  headers?: Record<string, string>;
  agency?: number;
  step?: string;
  details?: unknown;
  code?: string;
}): RlShot {
  const status = p.status ?? 200;
  const refused = status === 429;
  return {
    exchangeId: xid(),
    agency: p.agency ?? 0,
    bucket: p.bucket,
    step: p.step ?? 'burst',
    at: p.at,
    status,
    ...(refused ? { code: p.code ?? 'RATE_LIMITED', details: p.details ?? { resource: p.bucket, limit: 60, window_s: 60, retry_after_s: 60 } } : {}),
    ...(!refused && p.code ? { code: p.code } : {}),
    headers: p.headers ?? {},
  };
}

/** Options of a recorded burst from an empty window. */
export interface BurstOptions {
  bucket: RlBucket;
  limit: number;
  /** How many the target admitted before refusing. @defaultValue limit */
  admits?: number;
  /** Requests sent (stops after the first refusal). @defaultValue limit + 2 */
  send?: number;
  at?: number;
  /** Milliseconds between requests. @defaultValue 2 */
  spacingMs?: number;
  /** Rate-limit headers as the reference sends them. @defaultValue true */
  headers?: boolean;
  /** Added to every reported Remaining (a lying counter). */
  remainingSkew?: number;
  /** Retry-After on the refusal, seconds. @defaultValue 60 */
  retryAfterS?: number | null;
  step?: string;
  agency?: number;
}

/** A burst: `admits` admitted, then one refusal, each with reference headers. */
export function burst(o: BurstOptions): RlShot[] {
  const admits = o.admits ?? o.limit;
  const send = o.send ?? o.limit + 2;
  const at = o.at ?? T0;
  const out: RlShot[] = [];
  for (let i = 0; i < send; i++) {
    const refused = i >= admits;
    const remaining = Math.max(0, o.limit - Math.min(i + 1, admits)) + (o.remainingSkew ?? 0);
    const headers: Record<string, string> = {};
    if (o.headers !== false) {
      headers['x-ratelimit-limit'] = String(o.limit);
      headers['x-ratelimit-remaining'] = String(remaining);
      headers['x-ratelimit-reset'] = remaining > 0 ? '0' : '60';
      headers['x-ratelimit-resource'] = o.bucket;
    }
    if (refused && o.retryAfterS !== null) headers['retry-after'] = String(o.retryAfterS ?? 60);
    out.push(
      shot({
        bucket: o.bucket,
        at: at + i * (o.spacingMs ?? 2),
        status: refused ? 429 : o.bucket === 'write' ? 405 : 200,
        headers,
        step: o.step ?? 'burst',
        agency: o.agency ?? 0,
        details: { resource: o.bucket, limit: o.limit, window_s: 60, retry_after_s: o.retryAfterS ?? 60 },
      }),
    );
    if (refused) break;
  }
  return out;
}

/** Fields of a service event attempt. */
export interface ServiceAttemptOptions {
  eventId?: string;
  attempt: number;
  at: number;
  status: number;
  bookingId?: string;
  type?: string;
  secret?: string;
  path?: string;
}

/** A signed service attempt, as the receiver recorded it. */
export function serviceAttempt(o: ServiceAttemptOptions): WhAttempt {
  const eventId = o.eventId ?? 'evt_fixture0001';
  const bookingId = o.bookingId ?? 'bk_fixture0001';
  const type = o.type ?? 'booking.confirmed';
  const data =
    type === 'booking.cancelled'
      ? { cancellation: { cancellation_id: 'cn_1', booking_id: bookingId, status: 'cancelled' } }
      : { booking: { booking_id: bookingId, status: 'confirmed' } };
  const text = JSON.stringify({ id: eventId, type, created_at: new Date(T0).toISOString(), agency_id: 'agency-alpha', data });
  const headers = serviceWebhookHeaders({
    id: eventId,
    timestamp: Math.floor(o.at / 1000),
    attempt: o.attempt,
    body: text,
    secret: o.secret ?? WEBHOOK_SECRET,
  });
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return { seq: o.attempt, path: o.path ?? '/wh/fixture', headers: lower, text, receivedAt: o.at, status: o.status };
}

/** A hotel attempt signed with `secret` (or with a broken scheme). */
export function hotelAttempt(o: { at: number; status: number; reference?: string; secret?: string; signature?: string }): WhAttempt {
  const reference = o.reference ?? 'HB-FIXTURE-1';
  const text = JSON.stringify({
    id: 'hevt_fixture',
    type: 'hotel.booking.confirmed',
    created_at: new Date(T0).toISOString(),
    data: { reference, status: 'CONFIRMED' },
  });
  const signature = o.signature ?? signHotelWebhook({ timestamp: Math.floor(o.at / 1000), body: text, secret: o.secret ?? HOTEL_SECRET });
  return {
    seq: 1,
    path: '/wh/hotel',
    headers: { 'content-type': 'application/json', 'x-webhook-signature': signature },
    text,
    receivedAt: o.at,
    status: o.status,
  };
}

/** A scenario run around some attempts. */
export function whRun(attempts: WhAttempt[], o: Partial<WhRun> = {}): WhRun {
  const booking = xid();
  return {
    scheme: 'service',
    kind: 'failing',
    path: '/wh/fixture',
    plan: '500 always',
    subjectId: 'bk_fixture0001',
    exchangeIds: [booking],
    exchanges: { booking },
    attempts,
    startedAt: attempts[0]?.receivedAt ?? T0,
    watchedUntil: (attempts[0]?.receivedAt ?? T0) + 113_000,
    ...o,
  };
}

/** Three attempts of one event at the reference schedule (0, +5 s, +20 s), all answered 500. */
export function failingAttempts(o: { gapsMs?: number[]; ids?: string[]; secret?: string; count?: number } = {}): WhAttempt[] {
  const gaps = o.gapsMs ?? [5_000, 15_000, 45_000];
  const count = o.count ?? 3;
  const out: WhAttempt[] = [];
  let at = T0;
  for (let i = 0; i < count; i++) {
    if (i > 0) at += gaps[i - 1] ?? 5_000;
    out.push(serviceAttempt({ attempt: i + 1, at, status: 500, ...(o.ids?.[i] ? { eventId: o.ids[i] } : {}), ...(o.secret ? { secret: o.secret } : {}) }));
  }
  return out;
}
