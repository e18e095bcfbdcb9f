/** One request of the client as the mock saw it, with the answer the client really got. */
export interface ObservedRequest {
  /** Evidence id, `c-000001`. */
  id: string;
  /** The mock's request id (the admin request log's `request_id`). */
  requestId: string;
  /** Mock clock instant the request arrived. */
  atMs: number;
  method: string;
  /** Path and query as sent. */
  url: string;
  /** Path without the query. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** Agency the request authenticated as; null when it did not. */
  agencyId: string | null;
  status: number;
  responseHeaders: Record<string, string>;
  responseBody: string;
  /** The situation injected into this answer, when one was. */
  injected?: InjectedSituation;
  /** True when this request really created a booking (a 201 that was not a replay). */
  createdBooking?: boolean;
}

/** Situations certification mode injects. */
export type InjectedSituation = 'rate-limited' | 'rate-limited-window' | 'quote-expired' | 'bad-gateway-after-booking' | 'cut-off-after-booking';

/** One webhook delivery certification mode made to the client's endpoint, and what the client answered. */
export interface WebhookProbe {
  /** Evidence id, `w-000001`. */
  id: string;
  kind: 'duplicate-first' | 'duplicate-second' | 'forged-signature' | 'stale-timestamp';
  url: string;
  /** Real ms when sent. */
  atMs: number;
  headers: Record<string, string>;
  body: string;
  /** Status answered; null when nothing came back (refused connection, timeout). */
  status: number | null;
  error?: string;
  durationMs: number;
}

/** Everything certification mode observed during one run. */
export interface Observation {
  agencyId: string;
  requests: ObservedRequest[];
  probes: WebhookProbe[];
  /** The webhook URL the client registered (`PUT /v1/webhook-endpoint`), if any. */
  webhookUrl: string | undefined;
  /** The injected Retry-After of the first 429, seconds. */
  retryAfterS: number;
}
