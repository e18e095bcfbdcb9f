import { Findings } from '../../../checks/findings.js';
import type { CheckOutcome } from '../../../checks/types.js';
import type { ClientCheck, ClientObservation } from '../client-check.js';
import { header, isBooking, notExercised, ok, plural } from '../_internal/facts.js';
import type { ObservedRequest } from '../observed.js';

function bookingIdOf(r: ObservedRequest): string | undefined {
  try {
    const v = JSON.parse(r.responseBody) as { booking_id?: unknown };
    return typeof v.booking_id === 'string' ? v.booking_id : undefined;
  } catch {
    return undefined;
  }
}

type Situation = 'bad-gateway-after-booking' | 'cut-off-after-booking';

/**
 * A booking that really executed was answered 502, or cut off mid-body. The
 * client's following attempts at the same product's booking, up to its first
 * 2xx, must all carry the same Idempotency-Key and body, and together with
 * the executed one create exactly one booking.
 */
function judgeExecutedRetry(requests: ClientObservation['mine'], situation: Situation): CheckOutcome {
  const i = requests.findIndex((r) => r.injected === situation);
  if (i === -1) {
    const which = situation === 'bad-gateway-after-booking' ? 'third' : 'first';
    return notExercised(`it is injected into the ${which} quote the client books, and the client's flows never really booked it`);
  }
  const failed = requests[i]!;
  const chain: ObservedRequest[] = [];
  for (const r of requests.slice(i + 1)) {
    if (!isBooking(r) || r.path !== failed.path) continue;
    chain.push(r);
    if (ok(r.status)) break;
  }
  const what = situation === 'bad-gateway-after-booking' ? 'answered 502' : 'cut off mid-response';
  const key = header(failed, 'idempotency-key');
  const created = [failed, ...chain.filter((r) => r.createdBooking)];
  const details = {
    idempotency_key: key ?? null,
    retries: chain.map((r) => ({
      id: r.id,
      status: r.status,
      idempotency_key: header(r, 'idempotency-key') ?? null,
      same_body: r.body.equals(failed.body),
      created_booking: Boolean(r.createdBooking),
    })),
    bookings_created: created.map((r) => bookingIdOf(r) ?? r.id),
  };
  const f = new Findings().see(failed, ...chain);
  if (chain.length === 0) return f.fail(`the booking ${what} was never retried, so the client does not know it booked`).outcome('', details);
  const problems: string[] = [];
  const otherKey = chain.filter((r) => header(r, 'idempotency-key') !== key);
  const otherBody = chain.filter((r) => !r.body.equals(failed.body));
  if (otherKey.length > 0) problems.push(`${plural(otherKey.length, 'retry')} with a new Idempotency-Key`.replace('retrys', 'retries'));
  if (otherBody.length > 0) problems.push(`${plural(otherBody.length, 'retry')} with another body`.replace('retrys', 'retries'));
  if (created.length > 1) problems.push(`ended up with ${created.length} bookings (${details.bookings_created.join(', ')})`);
  if (problems.length > 0) f.fail(`after a booking ${what}: ${problems.join('; ')}`);
  const last = chain[chain.length - 1]!;
  return f.outcome(
    `after a booking ${what}, retried ${plural(chain.length, 'time')} with the same key and body${ok(last.status) ? ` and got its one booking back (${last.status}${last.responseHeaders['idempotent-replayed'] === 'true' ? ', replayed' : ''})` : ''}`,
    details,
  );
}

/** CC-04: a booking answered 502 after it executed (see {@link judgeExecutedRetry}). */
export const badGatewayCheck: ClientCheck = {
  id: 'CC-04',
  slug: 'retry-after-502',
  title: 'a booking answered 502 after it executed: retried with the same key, never booked twice',
  area: 'idempotency',
  clause: 'SPEC §4 idempotency rules 1-3',
  run: ({ mine }) => judgeExecutedRetry(mine, 'bad-gateway-after-booking'),
};

/** CC-05: a booking cut off mid-response after it executed (see {@link judgeExecutedRetry}). */
export const cutOffCheck: ClientCheck = {
  id: 'CC-05',
  slug: 'retry-after-cut-off',
  title: 'a booking cut off mid-response after it executed: retried with the same key, never booked twice',
  area: 'idempotency',
  clause: 'SPEC §4 idempotency rules 1-3',
  run: ({ mine }) => judgeExecutedRetry(mine, 'cut-off-after-booking'),
};
