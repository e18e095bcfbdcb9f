import { createHash } from 'node:crypto';

/** The four products of REFERENCE-API.md section 2. */
export const PRODUCTS = ['flights', 'transfers', 'activities', 'cars'] as const;

/** One `{field, message}` of a 422 `VALIDATION_FAILED`. */
export interface FieldProblem {
  field: string;
  message: string;
}

type Rule = { kind: 'iata' } | { kind: 'text' } | { kind: 'date' } | { kind: 'int'; min: number; max: number };

const CRITERIA: Record<string, Record<string, Rule>> = {
  flights: { origin: { kind: 'iata' }, destination: { kind: 'iata' }, departure_date: { kind: 'date' }, adults: { kind: 'int', min: 1, max: 9 } },
  transfers: { pickup: { kind: 'text' }, dropoff: { kind: 'text' }, date: { kind: 'date' }, passengers: { kind: 'int', min: 1, max: 16 } },
  activities: { destination: { kind: 'text' }, date: { kind: 'date' }, participants: { kind: 'int', min: 1, max: 20 } },
  cars: {
    pickup_location: { kind: 'text' },
    dropoff_location: { kind: 'text' },
    pickup_date: { kind: 'date' },
    dropoff_date: { kind: 'date' },
    driver_age: { kind: 'int', min: 18, max: 99 },
  },
};

function validDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}

function problemOf(value: unknown, rule: Rule): string | null {
  if (value === undefined || value === null) return 'is required';
  switch (rule.kind) {
    case 'iata':
      return typeof value === 'string' && /^[A-Z]{3}$/.test(value) ? null : 'must be a 3-letter IATA code';
    case 'text':
      return typeof value === 'string' && value.trim() !== '' ? null : 'must be a non-empty string';
    case 'date':
      return typeof value === 'string' && validDate(value) ? null : 'must be a date YYYY-MM-DD';
    case 'int':
      return Number.isInteger(value) && (value as number) >= rule.min && (value as number) <= rule.max
        ? null
        : `must be an integer from ${rule.min} to ${rule.max}`;
  }
}

/** The problems of a search body (`{"criteria": {…}}`); unknown fields are ignored. */
export function searchProblems(product: string, body: unknown): FieldProblem[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return [{ field: 'body', message: 'must be an object' }];
  const criteria = (body as Record<string, unknown>).criteria;
  if (typeof criteria !== 'object' || criteria === null || Array.isArray(criteria)) return [{ field: 'criteria', message: 'must be an object' }];
  const problems: FieldProblem[] = [];
  for (const [field, rule] of Object.entries(CRITERIA[product]!)) {
    const problem = problemOf((criteria as Record<string, unknown>)[field], rule);
    if (problem !== null) problems.push({ field: `criteria.${field}`, message: problem });
  }
  return problems;
}

/** An offer before its quote: the same for the same criteria within one clock minute. */
export interface Offer {
  resultId: string;
  summary: string;
  amount: number;
}

/** 1 to 5 offers, derived from the criteria and the clock minute, so that prices move from one minute to the next. */
export function offersFor(product: string, body: Record<string, unknown>, now: number): Offer[] {
  const criteria = body.criteria as Record<string, unknown>;
  const known = Object.keys(CRITERIA[product]!).map((k) => `${k}=${JSON.stringify(criteria[k])}`);
  const minute = Math.floor(now / 60_000);
  const seed = createHash('sha256')
    .update(`${product}|${known.join('|')}`)
    .digest();
  const count = 1 + (seed[0]! % 5);
  const offers: Offer[] = [];
  for (let i = 0; i < count; i++) {
    const h = createHash('sha256')
      .update(`${seed.toString('hex')}|${minute}|${i}`)
      .digest();
    // 20.00 to 619.99 in the wallet's currency: the price moves every minute, the result id does not.
    const amount = 2_000 + (h.readUInt32BE(0) % 60_000);
    offers.push({ resultId: `res_${seed.toString('hex', 1, 9)}${i}`, summary: `${product} offer ${i + 1} (${known.join(', ')})`, amount });
  }
  return offers;
}
