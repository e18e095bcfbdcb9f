/*
 * Numbers as the reports print them, the same in HTML, on the console and in
 * JUnit: thousands grouped with a space (`7 531`), money in its currency's
 * minor-unit digits (`-5 818.00 EUR`).
 */

/** Groups the integer digits of a formatted number by thousands with a space: `"-5818.00"` → `"-5 818.00"`. */
export function groupThousands(text: string): string {
  const m = /^(-?)(\d+)(.*)$/s.exec(text);
  if (!m) return text;
  return `${m[1]}${m[2]!.replace(/\B(?=(\d{3})+(?!\d))/g, ' ')}${m[3]}`;
}

/** A number with at most `decimals` decimals (trailing zeros dropped) and grouped thousands: 5398.527 → `5 398.5` with 1. */
export function formatDecimal(v: number, decimals: number): string {
  if (!Number.isFinite(v)) return String(v);
  return groupThousands(String(Number(v.toFixed(decimals))));
}

const ISO_4217 = /^[A-Z]{3}$/;

/** Decimals of a currency's minor unit (EUR 2, JPY 0, KWD 3); 2 when the code is unknown. */
function minorUnitDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/**
 * An amount in minor units (as the API carries money) in its currency:
 * `formatMoney(-581800, 'EUR')` is `-5 818.00 EUR`, `formatMoney(1200, 'JPY')`
 * `1 200 JPY`. Without a readable ISO 4217 code the decimals are unknown, so
 * the amount is shown as received, digits grouped, saying it is in minor units
 * (`650 (minor units)`), never as a bare number that reads as whole money.
 */
export function formatMoney(minor: number, currency?: string): string {
  if (!Number.isFinite(minor)) return String(minor);
  if (currency === undefined || !ISO_4217.test(currency)) return `${groupThousands(String(minor))} (minor units)`;
  const digits = minorUnitDigits(currency);
  return `${groupThousands((minor / 10 ** digits).toFixed(digits))} ${currency}`;
}
