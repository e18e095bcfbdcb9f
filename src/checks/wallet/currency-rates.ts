import type { Profile } from '../../profile/types.js';
import { successMismatch, type Answer } from '../_internal/expect-error.js';
import { Findings } from '../_internal/findings.js';
import type { Check, CheckOutcome } from '../types.js';

/** What WL-05 saw: the currency rates. */
export interface RatesObservations {
  rates: Answer;
}

/** Judges WL-05: currency rates are readable as a JSON object. */
export function judgeCurrencyRates(obs: RatesObservations, profile: Profile): CheckOutcome {
  const f = new Findings();
  if (f.check(successMismatch(obs.rates, 'currency rates request', profile), obs.rates)) {
    const j = obs.rates.json;
    f.expect(j !== null && typeof j === 'object' && !Array.isArray(j) && Object.keys(j).length > 0, 'currency rates answered no JSON object', obs.rates);
  }
  return f.outcome('currency rates are readable');
}

/** WL-05: currency rates are readable over the API. */
export const currencyRatesCheck: Check = {
  id: 'WL-05',
  title: 'Currency rates are readable',
  area: 'wallet',
  clause: 'SPEC §1: balance, statement and currency rates are readable over the API',
  needs: [],
  touches: ['0:read'],
  async run(ctx) {
    const rates = await ctx.api(0).rates({ label: ctx.label('currency rates') });
    return judgeCurrencyRates({ rates }, ctx.profile);
  },
};
