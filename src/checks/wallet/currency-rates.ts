import { getField, getString } from '../../api/fields.js';
import type { Profile } from '../../profile/index.js';
import { isSuccess, successMismatch, type Answer } from '../_internal/expect-error.js';
import { Findings } from '../findings.js';
import type { Check, CheckOutcome } from '../types.js';

/** What WL-05 saw: the currency rates, and the balance that names the wallet currency. */
interface RatesObservations {
  rates: Answer;
  /** The balance read beside the rates; its currency is the base the rates must have. */
  balance?: Answer | undefined;
}

/** An ISO 4217 code as the reference API writes it: three upper-case letters. */
const CURRENCY = /^[A-Z]{3}$/;
/** An RFC 3339 date-time (`2026-01-31T12:00:00Z`, `…00.123+01:00`). */
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** A value quoted for a message, cut short: a target may answer anything. */
function shown(v: unknown): string {
  const text = v === undefined ? 'nothing' : (JSON.stringify(v) ?? String(v));
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/**
 * Judges WL-05 by REFERENCE-API §5: `{base, rates: {CODE: number}, as_of}`,
 * `base` the wallet currency. Field locations come from the profile.
 */
export function judgeCurrencyRates(obs: RatesObservations, profile: Profile): CheckOutcome {
  const f = new Findings();
  const fields = profile.fields;
  if (f.check(successMismatch(obs.rates, 'currency rates request', profile), obs.rates)) {
    const j = obs.rates.json;
    const base = getField(j, fields.rates_base);
    if (
      f.expect(
        typeof base === 'string' && CURRENCY.test(base),
        `${fields.rates_base} must be an ISO 4217 code (three upper-case letters), got ${shown(base)}`,
        obs.rates,
      )
    ) {
      const wallet = obs.balance && isSuccess(obs.balance) ? getString(obs.balance.json, fields.balance_currency) : undefined;
      if (wallet !== undefined)
        f.expect(base === wallet, `${fields.rates_base} is ${shown(base)}, but the wallet currency is ${shown(wallet)}`, obs.rates, obs.balance);
    }
    const rates = getField(j, fields.rates_rates);
    if (
      f.expect(
        rates !== null && typeof rates === 'object' && !Array.isArray(rates) && Object.keys(rates).length > 0,
        `${fields.rates_rates} must be a non-empty object of currency code to rate, got ${shown(rates)}`,
        obs.rates,
      )
    ) {
      const wrong = Object.entries(rates as Record<string, unknown>).filter(
        ([code, rate]) => !CURRENCY.test(code) || typeof rate !== 'number' || !Number.isFinite(rate) || rate <= 0,
      );
      f.expect(
        wrong.length === 0,
        `${fields.rates_rates} must map ISO 4217 codes to positive numbers; wrong: ${wrong
          .slice(0, 3)
          .map(([code, rate]) => `${shown(code)}: ${shown(rate)}`)
          .join(', ')}${wrong.length > 3 ? ` and ${wrong.length - 3} more` : ''}`,
        obs.rates,
      );
    }
    const asOf = getField(j, fields.rates_as_of);
    f.expect(
      typeof asOf === 'string' && RFC3339.test(asOf) && Number.isFinite(Date.parse(asOf)),
      `${fields.rates_as_of} must be an RFC 3339 date-time, got ${shown(asOf)}`,
      obs.rates,
    );
  }
  return f.outcome('currency rates are readable: a base in the wallet currency, positive rates by currency code, and when they were taken');
}

/** WL-05: currency rates are readable over the API. */
export const currencyRatesCheck: Check = {
  id: 'WL-05',
  title: 'Currency rates are readable',
  area: 'wallet',
  clause: 'SPEC §1: balance, statement and currency rates are readable over the API / REF §5: {base, rates, as_of}',
  needs: [],
  uses: { requests: { read: 3, write: 0 }, touches: ['0:read'] },
  async run(ctx) {
    const rates = await ctx.api(0).rates({ label: ctx.label('currency rates') });
    const balance = await ctx.api(0).balance({ label: ctx.label('balance, for the wallet currency') });
    return judgeCurrencyRates({ rates, balance }, ctx.profile);
  },
};
