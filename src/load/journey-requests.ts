import { performance } from 'node:perf_hooks';
import { getField } from '../api/fields.js';
import { splitPathQuery } from '../client/split-path-query.js';
import { signRequest } from '../client/signer.js';
import { recordUnknown, type AutocannonSession, type InFlight } from './autocannon-session.js';
import type { LoadAgency } from './load-agency.js';
import type { Journey, LoadStep } from './scenario-requests.js';

function retryAfterOf(headers: Record<string, string | string[]>, name: string): number | undefined {
  for (const [k, v] of Object.entries(headers)) {
    if (k.toLowerCase() === name) {
      const text = Array.isArray(v) ? v[0] : v;
      return text !== undefined && /^\s*\d+\s*$/.test(text) ? Number(text) : undefined;
    }
  }
  return undefined;
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
  s.flushers.push(() => {
    if (state.current) recordUnknown(s, agency.id, state.current);
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
        { method: built.method, path, query: split.query, body: built.body, keyId: agency.keyId, secret: agency.secret, timestamp: Math.floor(s.now() / 1000), nonce: s.nonces.next() },
        s.names,
      );
      if (state.current) recordUnknown(s, agency.id, state.current);
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
      const latency = performance.now() - cur.t0;
      const ra = status === 429 ? retryAfterOf(headers, s.retryName) : undefined;
      s.recorder.record(cur.op, agency.id, cur.bucket, cur.sentAt, s.now() + 1, latency, status, ra, step.expected.has(status));
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
