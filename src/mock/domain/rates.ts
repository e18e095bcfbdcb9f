/** Units of each currency per euro: the mock's fixed exchange table. */
const PER_EUR: Readonly<Record<string, number>> = {
  EUR: 1,
  USD: 1.08,
  GBP: 0.85,
  CHF: 0.95,
  JPY: 162.5,
  SEK: 11.4,
  AUD: 1.64,
  CAD: 1.47,
};

/** Rates of the table against `base` (a currency outside the table counts as one euro). */
export function ratesFor(base: string): Record<string, number> {
  const b = PER_EUR[base] ?? 1;
  const out: Record<string, number> = {};
  for (const [code, perEur] of Object.entries(PER_EUR)) out[code] = Math.round((perEur / b) * 1e6) / 1e6;
  out[base] = 1;
  return out;
}
