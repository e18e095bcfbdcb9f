import { setTemplate } from '../../api/fields.js';
import type { Profile } from '../../profile/index.js';
import { errorMismatch, successMismatch, type Answer } from '../_internal/expect-error.js';
import { Findings, skipped } from '../findings.js';
import type { Check, CheckOutcome } from '../types.js';

/** What HT-01 saw: availability with the right, no and a wrong API key. */
interface HotelKeyObservations {
  withKey: Answer;
  withoutKey: Answer;
  wrongKey: Answer;
}

/** Judges HT-01: the hotel API refuses a missing or wrong API key and accepts the right one. */
export function judgeHotelKey(obs: HotelKeyObservations, profile: Profile): CheckOutcome {
  const f = new Findings();
  const e = profile.errors.unauthenticated;
  const h = profile.headers.hotel_api_key;
  f.check(successMismatch(obs.withKey, `hotel availability with the agency's ${h}`, profile), obs.withKey);
  f.check(errorMismatch(obs.withoutKey, e, `hotel availability without ${h}`, profile), obs.withoutKey);
  f.check(errorMismatch(obs.wrongKey, e, `hotel availability with a wrong ${h}`, profile), obs.wrongKey);
  return f.outcome(`the hotel API answered ${e.status} ${e.code} without ${h} and with a wrong one`);
}

/** HT-01: the hotel API key is enforced. */
export const hotelKeyCheck: Check = {
  id: 'HT-01',
  title: 'The hotel API refuses a missing or wrong API key',
  area: 'hotel',
  clause: 'SPEC §5: the hotel API is called with the header X-API-Key / REF §10: missing or wrong → 401 UNAUTHENTICATED',
  needs: ['hotel'],
  uses: { touches: ['0:hotel'] },
  async run(ctx) {
    const hotel = ctx.hotel(0);
    if (!hotel) return skipped('the profile has no hotel API');
    const op = ctx.profile.operations.hotel_availability;
    const body = setTemplate(ctx.profile.hotel_availability_body, {});
    const withKey = await hotel.raw(op.method, op.path, body, { label: ctx.label('availability with key') });
    const withoutKey = await hotel.raw(op.method, op.path, body, { label: ctx.label('availability without key'), apiKey: null });
    const wrongKey = await hotel.raw(op.method, op.path, body, { label: ctx.label('availability with a wrong key'), apiKey: `hk_${ctx.unique('wrong')}` });
    return judgeHotelKey({ withKey, withoutKey, wrongKey }, ctx.profile);
  },
};
