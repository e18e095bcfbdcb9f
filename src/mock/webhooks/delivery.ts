/** One delivery attempt of an outbound webhook, as the admin API lists it (REFERENCE-API.md section 11). */
export interface WebhookDelivery {
  /** The id sent in this attempt's id header (the body's id for hotel events). */
  event_id: string;
  type: string;
  /** 1-based attempt number. */
  attempt: number;
  url: string;
  /** HTTP status answered, or null when nothing came back in time (timeout, connection refused). */
  status: number | null;
  /** Clock instant the attempt was made at (the instant it was due). */
  at_ms: number;
}

/** An event built once and sent (perhaps several times) to one endpoint. */
export interface OutgoingEvent {
  id: string;
  type: string;
  url: string;
  secret: string;
  /** The exact bytes every attempt sends. */
  body: Buffer;
}
