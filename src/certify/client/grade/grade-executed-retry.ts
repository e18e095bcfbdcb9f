import { CLIENT_ITEMS } from '../client-plan.js';
import { header, isBooking, notExercised, ok, plural, type GradedItem } from '../_internal/facts.js';
import type { ObservedRequest } from '../observed.js';

function bookingIdOf(r: ObservedRequest): string | undefined {
  try {
    const v = JSON.parse(r.responseBody) as { booking_id?: unknown };
    return typeof v.booking_id === 'string' ? v.booking_id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * CC-04 and CC-05: a booking that really executed was answered 502, or cut
 * off mid-body. The client's following attempts at the same product's
 * booking, up to its first 2xx, must all carry the same Idempotency-Key and
 * body, and together with the executed one create exactly one booking.
 */
export function gradeExecutedRetry(requests: readonly ObservedRequest[], situation: 'bad-gateway-after-booking' | 'cut-off-after-booking'): GradedItem {
  const item = situation === 'bad-gateway-after-booking' ? CLIENT_ITEMS.badGateway : CLIENT_ITEMS.cutOff;
  const i = requests.findIndex((r) => r.injected === situation);
  if (i === -1) {
    const which = situation === 'bad-gateway-after-booking' ? 'third' : 'first';
    return notExercised(item, `it is injected into the ${which} quote the client books, and the client's flows never really booked it`);
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
  const evidence = [failed.id, ...chain.map((r) => r.id)];
  if (chain.length === 0)
    return { item, verdict: 'FAIL', message: `the booking ${what} was never retried, so the client does not know it booked`, evidence, details };
  const problems: string[] = [];
  const otherKey = chain.filter((r) => header(r, 'idempotency-key') !== key);
  const otherBody = chain.filter((r) => !r.body.equals(failed.body));
  if (otherKey.length > 0) problems.push(`${plural(otherKey.length, 'retry')} with a new Idempotency-Key`.replace('retrys', 'retries'));
  if (otherBody.length > 0) problems.push(`${plural(otherBody.length, 'retry')} with another body`.replace('retrys', 'retries'));
  if (created.length > 1) problems.push(`ended up with ${created.length} bookings (${details.bookings_created.join(', ')})`);
  if (problems.length > 0) return { item, verdict: 'FAIL', message: `after a booking ${what}: ${problems.join('; ')}`, evidence, details };
  const last = chain[chain.length - 1]!;
  return {
    item,
    verdict: 'PASS',
    message: `after a booking ${what}, retried ${plural(chain.length, 'time')} with the same key and body${ok(last.status) ? ` and got its one booking back (${last.status}${last.responseHeaders['idempotent-replayed'] === 'true' ? ', replayed' : ''})` : ''}`,
    evidence,
    details,
  };
}
