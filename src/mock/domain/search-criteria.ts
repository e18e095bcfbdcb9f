import type { Product } from '../fixture/fixture-types.js';
import { FieldChecker, isObject, validationFailed } from './validation.js';

/** The required criteria fields of each product, in canonical order. */
const CRITERIA_FIELDS: Readonly<Record<Product, readonly string[]>> = {
  flights: ['origin', 'destination', 'departure_date', 'adults'],
  transfers: ['pickup', 'dropoff', 'date', 'passengers'],
  activities: ['destination', 'date', 'participants'],
  cars: ['pickup_location', 'dropoff_location', 'pickup_date', 'dropoff_date', 'driver_age'],
};

/**
 * Validates `{criteria: {…}}` of a search (REFERENCE-API.md section 5) and
 * returns the criteria restricted to the known fields (unknown ones are
 * ignored). Throws 422 VALIDATION_FAILED listing each wrong field.
 */
export function validateSearch(product: Product, body: unknown): Record<string, string | number> {
  if (!isObject(body)) throw validationFailed([{ field: 'body', message: 'must be a JSON object' }]);
  const criteria = body.criteria;
  if (!isObject(criteria)) throw validationFailed([{ field: 'criteria', message: criteria === undefined ? 'is required' : 'must be an object' }]);
  const c = new FieldChecker(criteria, 'criteria.');
  switch (product) {
    case 'flights':
      c.iata('origin');
      c.iata('destination');
      c.date('departure_date');
      c.int('adults', 1, 9);
      break;
    case 'transfers':
      c.text('pickup');
      c.text('dropoff');
      c.date('date');
      c.int('passengers', 1, 16);
      break;
    case 'activities':
      c.text('destination');
      c.date('date');
      c.int('participants', 1, 20);
      break;
    case 'cars':
      c.text('pickup_location');
      c.text('dropoff_location');
      c.date('pickup_date');
      c.date('dropoff_date');
      c.int('driver_age', 18, 99);
      if (c.problems.length === 0 && (criteria.dropoff_date as string) < (criteria.pickup_date as string)) {
        c.problems.push({ field: 'criteria.dropoff_date', message: 'must not be before pickup_date' });
      }
      break;
  }
  if (c.problems.length > 0) throw validationFailed(c.problems);
  const out: Record<string, string | number> = {};
  for (const f of CRITERIA_FIELDS[product]) out[f] = criteria[f] as string | number;
  return out;
}
