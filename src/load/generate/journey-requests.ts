import { performance } from 'node:perf_hooks';
import { getField } from '../../api/fields.js';
import { signRequest, splitPathQuery } from '../../protocol/index.js';
import { noteReading, recordUnknown, type AutocannonSession, type InFlight, type RateHeaders } from './autocannon-session.js';
import type { LoadAgency } from './load-agency.js';
import type { Journey, LoadStep } from './scenario-requests.js';

const INTEGER = /^\s*\d+\s*$/;

/** Reads the rate-limit headers of a response (header names in any case). */
function rateHeadersOf(headers: Record<string, string | string[]>, s: AutocannonSession): RateHeaders {
  const out: RateHeaders = {};
  for (const [k, v] of Object.entries(headers)) {
    const name = k.toLowerCase();
    const text = Array.isArray(v) ? v[0] : v;
    const n = text !== undefined && INTEGER.test(text) ? Number(text) : undefined;
    if (name === s.retryName) out.retryAfterS = n;
    else if (name === s.limitName) out.limit = n;
    else if (name === s.remainingName) out.remaining = n;
  }
  return out;
}

/** Books and cancellations move money: tell the wallet tally what the service answered. */
function tallyEffect(s: AutocannonSession, step: LoadStep, agency: string, status: number, json: unknown, view: Record<string, unknown>): void {
  if (step.effect === 'book') {
    const id = view.booking_id;
    const price = view.price;
    s.wallet.booking(agency, status, typeof id === 'string' ? id : undefined, typeof price === 'number' ? price : undefined);
  } else if (step.effect === 'cancel') {
    const id = getField(json, s.profile.fields.booking_id);
    const refund = view.refund;
    s.wallet.cancellation(agency, status, typeof id === 'string' ? id : undefined, typeof refund === 'number' ? refund : undefined);
  }
}

/**
 * The autocannon requests of one connection replaying a journey as one
 * agency: each built and signed in `setupRequest`, values flowing through the
 * connection's context, outcomes recorded in `onResponse`.
 */
export function journeyRequests(s: AutocannonSession, journey: Journey, agency: LoadAgency): unknown[] {
  const state: { current?: InFlight | undefined } = {};
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
      const built = step.build(ctx as { vars: Record<string, unknown> });
      if (!built) return null;
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
      state.current = { op: step.op, bucket: step.bucket, effect: step.effect, sentAt: s.now() - 1, t0: performance.now() };
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
      const refused = status === 429;
      const reading = refused || unread.has(cur.bucket);
      const rate = reading ? rateHeadersOf(headers, s) : undefined;
      const receivedAt = s.now() + 1;
      s.recorder.record(
        cur.op,
        agency.id,
        cur.bucket,
        cur.sentAt,
        receivedAt,
        latency,
        status,
        refused ? rate?.retryAfterS : undefined,
        step.expected.has(status),
        refused ? rate?.remaining : undefined,
      );
      if (rate && unread.has(cur.bucket) && noteReading(s, agency.id, cur.bucket, cur.sentAt, receivedAt, status, rate)) unread.delete(cur.bucket);
      let json: unknown;
      if (step.needsBody && status >= 200 && status <= 299) {
        try {
          json = JSON.parse(body);
        } catch {
          json = undefined;
        }
      }
      ctx.vars ??= {};
      const view = step.after(ctx as { vars: Record<string, unknown> }, status, json);
      tallyEffect(s, step, agency.id, status, json, view);
    },
  }));
}
