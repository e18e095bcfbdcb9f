import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../domain/api-error.js';
import type { HotelAgency } from './hotel-agency.js';
import type { Money } from './hotel-rates.js';

/** A hotel booking as the hotel API keeps it. */
interface HotelBooking {
  reference: string;
  agencyId: string;
  status: 'CONFIRMED' | 'CANCELLED';
  net: Money;
  hotel_code: string;
  client_reference: string | null;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** State of the hotel API: agencies by key, webhook endpoints, bookings. No HTTP here. */
export class HotelStore {
  private readonly keyDigests: { agency: HotelAgency; digest: Buffer }[];
  private urls = new Map<string, string | null>();
  private bookings = new Map<string, HotelBooking>();

  constructor(private readonly agencies: HotelAgency[]) {
    this.keyDigests = agencies.map((agency) => ({ agency, digest: digest(agency.hotelApiKey) }));
    this.reset();
  }

  /** The agency owning `apiKey`, compared in constant time against every key; undefined when none does. */
  agencyByKey(apiKey: string): HotelAgency | undefined {
    const given = digest(apiKey);
    let found: HotelAgency | undefined;
    for (const { agency, digest: d } of this.keyDigests) {
      if (timingSafeEqual(d, given) && !found) found = agency;
    }
    return found;
  }

  /** Every agency of the fixture. */
  allAgencies(): readonly HotelAgency[] {
    return this.agencies;
  }

  /** The first agency of the fixture (what an unchecked key falls back to). */
  firstAgency(): HotelAgency | undefined {
    return this.agencies[0];
  }

  /** The agency's hotel webhook URL, null when none. */
  webhookUrl(agencyId: string): string | null {
    return this.urls.get(agencyId) ?? null;
  }

  /** Sets (or clears, with null) the agency's hotel webhook URL. */
  setWebhookUrl(agencyId: string, url: string | null): void {
    this.urls.set(agencyId, url);
  }

  /** Records a new confirmed booking. */
  book(agencyId: string, net: Money, hotel_code: string, client_reference: string | null): HotelBooking {
    const reference = `HB-${randomBytes(6).toString('hex').toUpperCase()}`;
    const booking: HotelBooking = { reference, agencyId, status: 'CONFIRMED', net, hotel_code, client_reference };
    this.bookings.set(reference, booking);
    return booking;
  }

  /** Cancels a booking of this agency: 404 NOT_FOUND when unknown or another agency's, 409 when already cancelled. */
  cancel(agencyId: string, reference: string, again = false, anyAgency = false): HotelBooking {
    const booking = this.bookings.get(reference);
    if (!booking || (booking.agencyId !== agencyId && !anyAgency)) {
      throw new ApiError(404, 'NOT_FOUND', `no hotel booking ${JSON.stringify(reference)}`, { reference });
    }
    if (booking.status === 'CANCELLED' && !again) {
      throw new ApiError(409, 'BOOKING_ALREADY_CANCELLED', `hotel booking ${reference} is already cancelled`, { reference });
    }
    booking.status = 'CANCELLED';
    return booking;
  }

  /** Back to the fixture: webhook URLs from it, no bookings. */
  reset(): void {
    this.urls = new Map(this.agencies.map((a) => [a.agencyId, a.hotelWebhookUrl ?? null]));
    this.bookings = new Map();
  }
}
