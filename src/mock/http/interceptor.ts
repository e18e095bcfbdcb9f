import type { WireRequest, WireResponse } from './wire.js';

/** What an interceptor knows about the request it sees. */
export interface InterceptContext {
  /** The request id the pipeline gave this request (the request log's `request_id`). */
  requestId: string;
  /** Mock clock instant the request arrived at. */
  atMs: number;
  /** Path without the query. */
  path: string;
  /** The agency the request authenticated as; null when authentication failed. */
  agencyId: string | null;
}

/**
 * An optional extension point of the service pipeline, used by certification
 * mode to inject situations a client must survive. Without one, the pipeline
 * behaves exactly as REFERENCE-API.md says.
 */
export interface PipelineInterceptor {
  /**
   * Called once authentication has passed, before the rate limit: an answer
   * returned here is sent instead of the pipeline's (nothing is executed,
   * counted or stored); undefined lets the pipeline judge the request.
   */
  before?(req: WireRequest, ctx: InterceptContext & { agencyId: string }): WireResponse | undefined | Promise<WireResponse | undefined>;
  /**
   * Called with every final answer (authenticated or not) before it is logged
   * and sent: returns the answer to send, which may be replaced or marked to
   * be cut off mid-body (`cutAfterBytes`).
   */
  after?(req: WireRequest, res: WireResponse, ctx: InterceptContext): WireResponse | Promise<WireResponse>;
}
