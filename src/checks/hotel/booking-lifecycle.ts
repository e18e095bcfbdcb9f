import type { Profile } from '../../profile/index.js';
import { errorMismatch, successMismatch, type Answer } from '../_internal/expect-error.js';
import { Findings, skipped } from '../findings.js';
import type { Check, CheckOutcome } from '../types.js';

/** What HT-02 saw: availability, a booking, its cancellation and a second cancellation. */
interface HotelLifecycleObservations {
  availability: Answer & { rateKeys: string[] };
  booking?: Answer & { reference?: string };
  cancellation?: Answer;
  secondCancellation?: Answer;
}

/** Judges HT-02: availability gives rates, a rate books, the booking cancels, and a second cancellation is refused. */
export function judgeHotelLifecycle(obs: HotelLifecycleObservations, profile: Profile): CheckOutcome {
  const f = new Findings();
  if (!f.check(successMismatch(obs.availability, 'hotel availability', profile), obs.availability)) return f.outcome('');
  if (
    !f.expect(
      obs.availability.rateKeys.length > 0,
      `hotel availability gave no rate key at ${profile.fields.hotel_hotels}[].${profile.fields.hotel_rates}[].${profile.fields.hotel_rate_key}`,
      obs.availability,
    )
  )
    return f.outcome('');
  const b = obs.booking;
  if (!b || !f.check(successMismatch(b, 'hotel booking of an available rate', profile), b)) return f.outcome('');
  if (!f.expect(b.reference !== undefined, `hotel booking answered no reference at ${profile.fields.hotel_reference}`, b)) return f.outcome('');
  if (obs.cancellation) f.check(successMismatch(obs.cancellation, 'hotel cancellation', profile), obs.cancellation);
  if (obs.secondCancellation)
    f.check(errorMismatch(obs.secondCancellation, profile.errors.booking_already_cancelled, 'second hotel cancellation', profile), obs.secondCancellation);
  return f.outcome(`hotel booking ${String(b.reference)} was made and cancelled; a second cancellation was refused`);
}

/** HT-02: availability → book → cancel works; a second cancellation is refused. */
export const hotelLifecycleCheck: Check = {
  id: 'HT-02',
  title: 'Hotel availability, booking and cancellation work; a second cancellation is refused',
  area: 'hotel',
  clause: 'SPEC §1/§5: the hotel API is addressed at {hotel_base_url} with X-API-Key / REF §10: a second cancellation → 409 BOOKING_ALREADY_CANCELLED',
  needs: ['hotel'],
  uses: { touches: ['0:hotel'] },
  async run(ctx) {
    const hotel = ctx.hotel(0);
    if (!hotel) return skipped('the profile has no hotel API');
    const availability = await hotel.availability({ label: ctx.label('availability') });
    const obs: HotelLifecycleObservations = { availability };
    const rateKey = availability.rateKeys[0];
    if (rateKey !== undefined) {
      obs.booking = await hotel.book(rateKey, { label: ctx.label('booking'), clientReference: ctx.unique('ref') });
      const ref = obs.booking.reference;
      if (ref !== undefined) {
        obs.cancellation = await hotel.cancel(ref, { label: ctx.label('cancellation') });
        obs.secondCancellation = await hotel.cancel(ref, { label: ctx.label('second cancellation') });
      }
    }
    return judgeHotelLifecycle(obs, ctx.profile);
  },
};
