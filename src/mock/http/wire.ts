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
  /** Certification mode: send the head and only this many body bytes, then drop the connection. */
  cutAfterBytes?: number;
  /** Certification mode: name of the situation injected into this answer (recorded in the request log). */
  injected?: string;
}
