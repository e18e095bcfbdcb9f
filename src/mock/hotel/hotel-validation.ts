import { ApiError } from '../domain/api-error.js';

/** One failed field, as listed in `details.fields`. */
interface FieldError {
  field: string;
  message: string;
}

/** Availability criteria (REFERENCE-API.md section 10). */
export interface AvailabilityCriteria {
  destination: string;
  check_in: string;
  check_out: string;
  rooms: { adults: number }[];
}

/** A hotel booking request. */
interface HotelBookingRequest {
  rate_key: string;
  holder: { first_name: string; last_name: string };
  client_reference: string | null;
}

const DAY_MS = 86_400_000;
/** Longest stay the hotel API prices. */
const MAX_NIGHTS = 30;
const MAX_ROOMS = 9;
const MAX_ADULTS = 9;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function nonEmptyText(v: unknown, max = 200): v is string {
  return typeof v === 'string' && v.trim().length > 0 && v.length <= max;
}

/** Epoch ms of a valid `YYYY-MM-DD` calendar date, else undefined. */
function parseDate(v: unknown): number | undefined {
  if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(v)) return undefined;
  const ms = Date.parse(`${v}T00:00:00.000Z`);
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== v) return undefined;
  return ms;
}

/** Nights between two valid dates. */
export function nightsBetween(checkIn: string, checkOut: string): number {
  return Math.round(((parseDate(checkOut) ?? 0) - (parseDate(checkIn) ?? 0)) / DAY_MS);
}

function fail(fields: FieldError[]): never {
  throw new ApiError(422, 'VALIDATION_FAILED', `request body failed validation: ${fields.map((f) => f.field).join(', ')}`, { fields });
}

/** Validates an availability body; unknown fields are ignored. Throws 422 VALIDATION_FAILED. */
export function validateAvailability(body: unknown): AvailabilityCriteria {
  const fields: FieldError[] = [];
  if (!isObject(body)) fail([{ field: '', message: 'must be a JSON object' }]);
  if (!nonEmptyText(body.destination)) fields.push({ field: 'destination', message: 'must be a non-empty string of at most 200 characters' });
  const checkIn = parseDate(body.check_in);
  const checkOut = parseDate(body.check_out);
  if (checkIn === undefined) fields.push({ field: 'check_in', message: 'must be a date YYYY-MM-DD' });
  if (checkOut === undefined) fields.push({ field: 'check_out', message: 'must be a date YYYY-MM-DD' });
  if (checkIn !== undefined && checkOut !== undefined) {
    const nights = (checkOut - checkIn) / DAY_MS;
    if (nights < 1 || nights > MAX_NIGHTS) fields.push({ field: 'check_out', message: `must be 1 to ${MAX_NIGHTS} nights after check_in` });
  }
  if (!Array.isArray(body.rooms) || body.rooms.length < 1 || body.rooms.length > MAX_ROOMS) {
    fields.push({ field: 'rooms', message: `must be a list of 1 to ${MAX_ROOMS} rooms` });
  } else {
    body.rooms.forEach((room: unknown, i: number) => {
      const adults = isObject(room) ? room.adults : undefined;
      if (!Number.isInteger(adults) || (adults as number) < 1 || (adults as number) > MAX_ADULTS) {
        fields.push({ field: `rooms[${i}].adults`, message: `must be an integer 1 to ${MAX_ADULTS}` });
      }
    });
  }
  if (fields.length > 0) fail(fields);
  return {
    destination: body.destination as string,
    check_in: body.check_in as string,
    check_out: body.check_out as string,
    rooms: (body.rooms as { adults: number }[]).map((r) => ({ adults: r.adults })),
  };
}

/** Validates a booking body. Throws 422 VALIDATION_FAILED. */
export function validateHotelBooking(body: unknown): HotelBookingRequest {
  const fields: FieldError[] = [];
  if (!isObject(body)) fail([{ field: '', message: 'must be a JSON object' }]);
  if (!nonEmptyText(body.rate_key, 1000)) fields.push({ field: 'rate_key', message: 'must be a non-empty string' });
  const holder = body.holder;
  if (!isObject(holder)) {
    fields.push({ field: 'holder', message: 'must be an object {first_name, last_name}' });
  } else {
    if (!nonEmptyText(holder.first_name)) fields.push({ field: 'holder.first_name', message: 'must be a non-empty string' });
    if (!nonEmptyText(holder.last_name)) fields.push({ field: 'holder.last_name', message: 'must be a non-empty string' });
  }
  const ref = body.client_reference;
  if (ref !== undefined && ref !== null && !(typeof ref === 'string' && ref.length <= 200)) {
    fields.push({ field: 'client_reference', message: 'must be a string of at most 200 characters' });
  }
  if (fields.length > 0) fail(fields);
  const h = holder as { first_name: string; last_name: string };
  return {
    rate_key: body.rate_key as string,
    holder: { first_name: h.first_name, last_name: h.last_name },
    client_reference: typeof ref === 'string' ? ref : null,
  };
}

/** Validates `{url}` of the webhook endpoint: an absolute http(s) URL, or null to clear it. */
export function validateWebhookUrl(body: unknown): string | null {
  if (!isObject(body)) fail([{ field: '', message: 'must be a JSON object' }]);
  const url = body.url;
  if (url === null) return null;
  if (typeof url === 'string' && url.length <= 2048) {
    try {
      const parsed = new URL(url);
      if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return url;
    } catch {
      // falls through to the validation error
    }
  }
  fail([{ field: 'url', message: 'must be an absolute http or https URL, or null' }]);
}
