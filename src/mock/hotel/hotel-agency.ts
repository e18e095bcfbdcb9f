/** An agency as the partner hotel API knows it (from the mock's fixture). */
export interface HotelAgency {
  agencyId: string;
  /** Wallet currency; hotel prices (`net`) are quoted in it. */
  currency: string;
  hotelApiKey: string;
  hotelWebhookSecret: string;
  /** The fixture's hotel webhook endpoint; null or absent means none. */
  hotelWebhookUrl?: string | null;
}
