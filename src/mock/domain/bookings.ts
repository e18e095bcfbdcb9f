import type { Product } from '../fixture/fixture-types.js';

/** Money in minor units (REFERENCE-API.md section 2). */
export interface Money {
  amount: number;
  currency: string;
}

/** A traveller named on a booking. */
export interface Traveller {
  first_name: string;
  last_name: string;
}

/** A booking as the API shows it. */
export interface BookingView {
  booking_id: string;
  product: Product;
  status: 'confirmed' | 'cancelled';
  price: Money;
  client_reference: string | null;
  created_at: string;
}

/** A cancellation as the API shows it. */
export interface CancellationView {
  cancellation_id: string;
  booking_id: string;
  status: 'cancelled';
  refund: Money;
  created_at: string;
}

/** A booking as the mock holds it. */
interface BookingRecord {
  agencyId: string;
  view: BookingView;
  travellers: Traveller[];
  /** True while a cancellation is executing, so a concurrent one sees it taken. */
  cancelling: boolean;
  cancellation?: CancellationView;
}

/** Every booking of the mock, by id. */
export class BookingStore {
  private readonly byId = new Map<string, BookingRecord>();

  /** Stores a new booking. */
  add(record: BookingRecord): void {
    this.byId.set(record.view.booking_id, record);
  }

  /** The booking `id` of `agencyId` under `product`, or undefined (unknown, other agency, other product). */
  find(agencyId: string, product: Product, id: string): BookingRecord | undefined {
    const b = this.byId.get(id);
    return b && b.agencyId === agencyId && b.view.product === product ? b : undefined;
  }

  /** The booking `id` under `product`, whichever agency made it. */
  findAny(product: Product, id: string): BookingRecord | undefined {
    const b = this.byId.get(id);
    return b && b.view.product === product ? b : undefined;
  }

  /** Forgets every booking. */
  clear(): void {
    this.byId.clear();
  }

  /** Number of bookings held. */
  get size(): number {
    return this.byId.size;
  }
}
