import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { nightsBetween, type AvailabilityCriteria } from './hotel-validation.js';

/** Money in minor units (REFERENCE-API.md section 2). */
export interface Money {
  amount: number;
  currency: string;
}

/** One hotel of an availability answer. */
interface HotelOffer {
  hotel_code: string;
  name: string;
  rates: { rate_key: string; net: Money }[];
}

/** What a rate key carries; it is signed, so the booking trusts it. */
interface RateClaim {
  hotel_code: string;
  net: Money;
}

const NAMES = ['Grand Hotel', 'Harbour Inn', 'Old Town Suites', 'Parkside Lodge', 'Riverside Palace', 'Central Rooms'];
const ROOMS = ['standard', 'superior'];

function seed(...parts: string[]): Buffer {
  return createHash('sha256').update(parts.join('\u0000')).digest();
}

/** The key that signs one agency's rate keys, derived from its API key so another agency's keys never verify. */
function rateKeySecret(hotelApiKey: string): Buffer {
  return createHash('sha256').update(`rate-key\u0000${hotelApiKey}`).digest();
}

function mac(secret: Buffer, payload: string): Buffer {
  return createHmac('sha256', secret).update(payload).digest().subarray(0, 16);
}

/** Encodes a signed, opaque, URL-safe rate key. */
function encodeRateKey(claim: RateClaim, hotelApiKey: string, extra: string): string {
  const payload = Buffer.from(JSON.stringify({ h: claim.hotel_code, a: claim.net.amount, c: claim.net.currency, x: extra })).toString('base64url');
  return `rk_${payload}.${mac(rateKeySecret(hotelApiKey), payload).toString('base64url')}`;
}

/** Decodes a rate key issued to this agency; undefined when unknown, tampered or another agency's. */
export function decodeRateKey(rateKey: string, hotelApiKey: string): RateClaim | undefined {
  const m = /^rk_([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(rateKey);
  if (!m?.[1] || !m[2]) return undefined;
  const expected = mac(rateKeySecret(hotelApiKey), m[1]);
  const given = Buffer.from(m[2], 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(expected, given)) return undefined;
  try {
    const p = JSON.parse(Buffer.from(m[1], 'base64url').toString('utf8')) as { h?: unknown; a?: unknown; c?: unknown };
    if (typeof p.h !== 'string' || !Number.isInteger(p.a) || typeof p.c !== 'string') return undefined;
    return { hotel_code: p.h, net: { amount: p.a as number, currency: p.c } };
  } catch {
    return undefined;
  }
}

/** Availability for criteria: deterministic (same criteria and agency, same answer), priced in `currency`. */
export function availability(criteria: AvailabilityCriteria, currency: string, hotelApiKey: string): HotelOffer[] {
  const destination = criteria.destination.trim().toLowerCase();
  const nights = nightsBetween(criteria.check_in, criteria.check_out);
  const adults = criteria.rooms.reduce((sum, r) => sum + r.adults, 0);
  const stay = seed(destination, criteria.check_in, criteria.check_out, criteria.rooms.map((r) => r.adults).join(','));
  const count = 1 + ((stay[0] ?? 0) % 3);
  const offers: HotelOffer[] = [];
  for (let i = 0; i < count; i++) {
    const place = seed(destination, String(i));
    const hotel_code = `HTL${(place.readUInt32BE(0) % 100_000).toString().padStart(5, '0')}`;
    const name = `${NAMES[(place[4] ?? 0) % NAMES.length]} ${criteria.destination.trim()}`;
    const perNight = 4_000 + (place.readUInt16BE(5) % 16_000);
    const rates = ROOMS.slice(0, 1 + ((stay[1 + i] ?? 0) % ROOMS.length)).map((room, r) => {
      const net: Money = { amount: Math.round(perNight * nights * (0.6 + 0.4 * adults) * (1 + 0.35 * r)), currency };
      const extra = `${criteria.check_in}/${criteria.check_out}/${room}/${criteria.rooms.map((x) => x.adults).join(',')}`;
      return { rate_key: encodeRateKey({ hotel_code, net }, hotelApiKey, extra), net };
    });
    offers.push({ hotel_code, name, rates });
  }
  return offers;
}
