import { hash } from 'node:crypto';
import type { Product } from '../fixture/fixture-types.js';

/** Price band of each product in minor units: [lowest base, spread, move a minute]. */
const BANDS: Readonly<Record<Product, [number, number, number]>> = {
  flights: [4_900, 60_000, 100],
  transfers: [1_900, 9_000, 100],
  activities: [900, 12_000, 100],
  cars: [2_900, 40_000, 10],
};

/**
 * Spread of a car search's first offer, its economy class, in minor units:
 * with the band's lowest base and its moves, it stays between 29.00 and
 * 48.59, so a small wallet (the reference fixture's USD 50.00) can rent a car.
 */
const CAR_ECONOMY_SPREAD = 1_000;

/** One priced offer of a search, before a quote is attached. */
interface Offer {
  resultId: string;
  summary: string;
  /** Index of the offer within its search (0-based). */
  index: number;
  amount: number;
}

/** A stable digest of a product's criteria: the key of a search. */
export function criteriaDigest(product: Product, criteria: Record<string, string | number>, criteriaJson = JSON.stringify(criteria)): string {
  return hash('sha256', `${product}\n${criteriaJson}`, 'hex').slice(0, 24);
}

function seed(digest: string, index: number): number {
  return parseInt(digest.slice((index * 4) % 16, ((index * 4) % 16) + 8), 16);
}

/** Number of offers a search returns, 1 to 5, fixed by its criteria. */
function offerCount(digest: string): number {
  return (parseInt(digest.slice(0, 2), 16) % 5) + 1;
}

/**
 * Price of offer `index` of a search in clock minute `minute`. Deterministic;
 * the minute term differs between any two consecutive minutes (62 is prime to
 * 97), so a price never stays the same from one minute to the next.
 */
export function priceAt(product: Product, digest: string, index: number, minute: number): number {
  const [low, spread, move] = BANDS[product];
  const base = low + (seed(digest, index) % (product === 'cars' && index === 0 ? CAR_ECONOMY_SPREAD : spread));
  const drift = ((minute * 62 + seed(digest, index + 7)) % 97) * move;
  return base + drift;
}

function describe(product: Product, c: Record<string, string | number>, index: number): string {
  switch (product) {
    case 'flights':
      return `${c.origin} → ${c.destination}, ${c.departure_date}, ${c.adults} adult(s), fare ${index + 1}`;
    case 'transfers':
      return `${c.pickup} → ${c.dropoff}, ${c.date}, ${c.passengers} passenger(s), vehicle ${index + 1}`;
    case 'activities':
      return `${c.destination} activity ${index + 1}, ${c.date}, ${c.participants} participant(s)`;
    case 'cars':
      return `Car class ${index + 1}, ${c.pickup_location} ${c.pickup_date} → ${c.dropoff_location} ${c.dropoff_date}`;
  }
}

/** The offers of a search in clock minute `minute`: same criteria and minute give the same offers. */
export function offersFor(product: Product, criteria: Record<string, string | number>, minute: number, digest = criteriaDigest(product, criteria)): Offer[] {
  const n = offerCount(digest);
  // One hash per search (not per offer): the offers' ids differ by their index.
  const stem = hash('sha256', `${digest}:${minute}`, 'hex').slice(0, 19);
  const out: Offer[] = [];
  for (let i = 0; i < n; i++) {
    out.push({ resultId: `res_${stem}${i}`, summary: describe(product, criteria, i), index: i, amount: priceAt(product, digest, i, minute) });
  }
  return out;
}
