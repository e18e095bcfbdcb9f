import type { IncomingHttpHeaders } from 'node:http';

/** A request as it came over the wire: what the pipeline judges. */
export interface WireRequest {
  method: string;
  /** Path and query exactly as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  /** Raw body bytes (empty when none). */
  body: Buffer;
}

/** A response ready to write. */
export interface WireResponse {
  status: number;
  headers: Record<string, string>;
  /** JSON text or exact stored bytes. */
  body: string | Buffer;
}
