import type { Profile } from '../../profile/index.js';
import { envelopeProblems } from '../_internal/envelope-shape.js';
import { errorMismatch, type Answer } from '../_internal/expect-error.js';
import { Findings, skipped } from '../findings.js';
import type { Check, CheckOutcome } from '../types.js';

/** What HT-03 saw: a cancellation of an unknown reference and a booking of an unknown rate key. */
interface HotelNotFoundObservations {
  unknownReference: Answer;
  unknownRateKey: Answer;
}

/** Judges HT-03: unknown references and rate keys answer not_found. */
export function judgeHotelNotFound(obs: HotelNotFoundObservations, profile: Profile): CheckOutcome {
  const f = new Findings();
  const e = profile.errors.not_found;
  f.check(errorMismatch(obs.unknownReference, e, 'hotel cancellation of an unknown reference', profile), obs.unknownReference);
  f.check(errorMismatch(obs.unknownRateKey, e, 'hotel booking of an unknown rate key', profile), obs.unknownRateKey);
  return f.outcome(`unknown hotel reference and rate key answered ${e.status} ${e.code}`);
}

/** HT-03: unknown hotel references and rate keys are not found. */
export const hotelNotFoundCheck: Check = {
  id: 'HT-03',
  title: 'An unknown hotel reference or rate key is not found',
  area: 'hotel',
  clause: 'SPEC §1: the hotel API under the same contract model / REF §10: unknown rate_key or reference → 404 NOT_FOUND',
  needs: ['hotel'],
  uses: { touches: ['0:hotel'] },
  async run(ctx) {
    const hotel = ctx.hotel(0);
    if (!hotel) return skipped('the profile has no hotel API');
    const unknownReference = await hotel.cancel(ctx.unique('no-such-ref'), { label: ctx.label('cancel unknown reference') });
    const unknownRateKey = await hotel.book(ctx.unique('no-such-rate'), { label: ctx.label('book unknown rate key'), clientReference: ctx.unique('ref') });
    return judgeHotelNotFound({ unknownReference, unknownRateKey }, ctx.profile);
  },
};

/** What HT-04 saw: hotel error responses. */
interface HotelEnvelopeObservations {
  errors: Array<{ what: string; res: Answer }>;
}

/** Judges HT-04: hotel errors are in the one envelope. */
export function judgeHotelEnvelope(obs: HotelEnvelopeObservations, profile: Profile): CheckOutcome {
  const f = new Findings();
  for (const { what, res } of obs.errors) {
    if (!f.expect(res.status >= 400, `${what} answered ${res.status}, expected an error`, res)) continue;
    const problems = envelopeProblems({ status: res.status, headers: res.headers, body: res.text }, profile);
    f.expect(problems.length === 0, `${what} (${res.status}) is outside the envelope: ${problems.join(', ')}`, res);
  }
  return f.outcome(`${obs.errors.length} hotel error responses are in the envelope with their request id`);
}

/** HT-04: hotel errors use the same envelope. */
export const hotelEnvelopeCheck: Check = {
  id: 'HT-04',
  title: 'Hotel API errors use the same error envelope',
  area: 'hotel',
  clause: 'SPEC §7.1: every error uses one envelope / REF §10: the hotel API uses the same error envelope',
  needs: ['hotel'],
  uses: { touches: ['0:hotel'] },
  async run(ctx) {
    const hotel = ctx.hotel(0);
    if (!hotel) return skipped('the profile has no hotel API');
    const op = ctx.profile.operations.hotel_availability;
    const errors: HotelEnvelopeObservations['errors'] = [];
    errors.push({ what: 'hotel availability without key', res: await hotel.raw(op.method, op.path, {}, { label: ctx.label('no key'), apiKey: null }) });
    errors.push({
      what: 'hotel cancellation of an unknown reference',
      res: await hotel.cancel(ctx.unique('no-such-ref'), { label: ctx.label('unknown reference') }),
    });
    return judgeHotelEnvelope({ errors }, ctx.profile);
  },
};
