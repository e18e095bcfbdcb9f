import { performance } from 'node:perf_hooks';
import { getField, getString } from '../../api/fields.js';
import { signRequest, splitPathQuery } from '../../protocol/index.js';
import { readRateHeader, recordUnknown, type AutocannonSession, type InFlight, type RateHeaders } from './autocannon-session.js';
import type { LoadAgency } from './load-agency.js';
import { bucketOf, searchOffers, type Journey, type LoadStep } from './scenario-requests.js';
import { requestRecord } from '../measure/load-recorder.js';

/** Reads the rate-limit headers of a response (header names in any case). */
function rateHeadersOf(headers: Record<string, string | string[]>, s: AutocannonSession): RateHeaders {
  const out: RateHeaders = {};
  for (const [k, v] of Object.entries(headers)) readRateHeader(out, k.toLowerCase(), Array.isArray(v) ? v[0] : v, s);
  return out;
}

/** Books and cancellations move money: tell the wallet tally what the service answered; searches tell it their quotes' prices. */
function tallyEffect(s: AutocannonSession, step: LoadStep, agency: string, answer: Answer, view: Record<string, unknown>): void {
  const { status, json } = answer;
  if (step.effect === 'search') {
    if (Array.isArray(view.offers)) s.wallet.spending.quoted(agency, view.offers as Array<{ quote_token?: string; price?: number }>);
  } else if (step.effect === 'book') {
    const id = view.booking_id;
    const price = typeof view.price === 'number' ? view.price : undefined;
    s.wallet.booking(agency, status, typeof id === 'string' ? id : undefined, price);
    s.wallet.spending.booking(agency, {
      op: step.op,
      quote: answer.quote,
      sentAt: answer.sentAt,
      receivedAt: answer.receivedAt,
      status,
      code: answer.code,
      amount: price,
    });
  } else if (step.effect === 'cancel') {
    const id = getField(json, s.profile.fields.booking_id);
    const refund = typeof view.refund === 'number' ? view.refund : undefined;
    s.wallet.cancellation(agency, status, typeof id === 'string' ? id : undefined, refund);
    if (status >= 200 && status <= 299) s.wallet.spending.refund(agency, answer.receivedAt, refund);
  }
}

/** One answer as the tally reads it. */
interface Answer {
  status: number;
  json: unknown;
  code: string | undefined;
  quote: string | undefined;
  sentAt: number;
  receivedAt: number;
}

/** Parses a body as JSON, undefined when it is none. */
function parsed(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/**
 * The autocannon requests of one connection replaying a journey as one
 * agency: each built and signed in `setupRequest`, values flowing through the
 * connection's context, outcomes recorded in `onResponse`.
 */
export function journeyRequests(s: AutocannonSession, journey: Journey, agency: LoadAgency): unknown[] {
  const state: { current?: InFlight | undefined } = {};
  // One record for every answer of the connection, filled in anew each time: nothing is allocated per request to record it.
  const r = requestRecord({ op: '', method: '', agency: agency.id, bucket: '' });
  // Buckets whose start this connection has not read yet: their answers' headers are parsed until it has.
  const unread = new Set(journey.steps.map((st) => st.bucket));
  s.flushers.push(() => {
    if (state.current) {
      recordUnknown(s, agency.id, state.current, true);
      s.inFlight -= 1;
    }
    state.current = undefined;
  });
  return journey.steps.map((step) => ({
    setupRequest(req: Record<string, unknown>, ctx: { vars?: Record<string, unknown> }) {
      ctx.vars ??= {};
      let built = step.build(ctx as { vars: Record<string, unknown> });
      if (!built) return null;
      // The load spends no more than a wallet holds: a booking that would overdraw it is sent as a search of its product.
      let reserved: number | undefined;
      let replaced = false;
      if (step.effect === 'book') {
        const r = s.wallet.spending.reserve(agency.id, built.quote);
        if (r === 'overdraws' && step.substitute) {
          s.wallet.spending.replaced(agency.id);
          built = step.substitute();
          replaced = true;
        } else if (typeof r === 'number') reserved = r;
      }
      const split = splitPathQuery(built.path);
      const path = `${s.basePath}${split.path}`;
      const signed = signRequest(
        {
          method: built.method,
          path,
          query: split.query,
          body: built.body,
          keyId: agency.keyId,
          secret: agency.secret,
          timestamp: Math.floor(s.now() / 1000),
          nonce: s.nonces.next(),
        },
        s.names,
      );
      if (state.current) recordUnknown(s, agency.id, state.current);
      else s.inFlight += 1;
      const method = built.method.toUpperCase();
      state.current = replaced
        ? { op: 'search', method, bucket: bucketOf(s.profile, 'POST', true), effect: 'search', sentAt: s.now() - 1, t0: performance.now(), replaced }
        : { op: step.op, method, bucket: step.bucket, effect: step.effect, sentAt: s.now() - 1, t0: performance.now(), reserved, quote: built.quote };
      return {
        ...req,
        method: built.method,
        path: split.query ? `${path}?${split.query}` : path,
        headers: { ...built.headers, ...signed.headers },
        body: built.body ?? '',
      };
    },
    onResponse(status: number, body: string, ctx: { vars?: Record<string, unknown> }, headers: Record<string, string | string[]>) {
      const cur = state.current;
      if (!cur) return;
      state.current = undefined;
      s.inFlight -= 1;
      const latency = performance.now() - cur.t0;
      const refused = status === s.rateLimitedStatus;
      const rate = rateHeadersOf(headers, s);
      const receivedAt = s.now() + 1;
      s.wallet.spending.release(agency.id, cur.reserved);
      const failed = !refused && (status < 200 || status > 299);
      const wanted = failed || (!cur.replaced && step.needsBody && status >= 200 && status <= 299) || (cur.replaced === true && status >= 200 && status <= 299);
      const json = wanted ? parsed(body) : undefined;
      const code = failed ? getString(json, s.profile.fields.error_code) : undefined;
      r.op = cur.op;
      r.method = cur.method;
      r.bucket = cur.bucket;
      r.sentAt = cur.sentAt;
      r.receivedAt = receivedAt;
      r.latencyMs = latency;
      r.status = status;
      r.retryAfterS = refused ? rate.retryAfterS : undefined;
      r.remaining = refused ? rate.remaining : undefined;
      r.code = code;
      r.expected = !cur.replaced && step.expected.has(status);
      s.recorder.record(r);
      s.recorder.headers(r, rate);
      if (unread.has(cur.bucket) && s.recorder.reading(r, rate)) unread.delete(cur.bucket);
      ctx.vars ??= {};
      if (cur.replaced) {
        // What the booking would have saved is gone: the steps that need it restart the journey.
        step.after(ctx as { vars: Record<string, unknown> }, 0, undefined);
        const offers = status >= 200 && status <= 299 ? searchOffers(s.profile, json) : undefined;
        if (Array.isArray(offers)) s.wallet.spending.quoted(agency.id, offers as Array<{ quote_token?: string; price?: number }>);
        return;
      }
      const view = step.after(ctx as { vars: Record<string, unknown> }, status, status >= 200 && status <= 299 ? json : undefined);
      tallyEffect(s, step, agency.id, { status, json, code, quote: cur.quote, sentAt: cur.sentAt, receivedAt }, view);
    },
  }));
}
