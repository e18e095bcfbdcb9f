import type { IncomingMessage, ServerOptions } from 'node:http';

/** How long every listener of the mock waits for a client, and how late it answers. */
export interface ListenerLimits {
  /** Time a client has to send a request's headers, ms. */
  headersTimeoutMs: number;
  /** Time a client has to send a whole request, ms. */
  requestTimeoutMs: number;
  /** Every request is handled this many ms late. */
  latencyMs: number;
}

/** Header size node accepts, so that a 16 KiB header is judged like any request. */
const MAX_HEADER_SIZE = 64 * 1024;

const BAD_ESCAPE = /%(?![0-9A-Fa-f]{2})/g;

/**
 * A URL the router can decode: a `%` that starts no escape becomes `%25`, and
 * a URL that still does not decode (an escape of invalid UTF-8) becomes `/`.
 * Without it fastify answers such a URL itself, before any hook, outside the
 * envelope and before authentication; the original stays in `originalUrl`.
 */
function decodableUrl(req: IncomingMessage): string {
  const url = req.url ?? '/';
  if (!url.includes('%')) return url;
  const q = url.indexOf('?');
  const path = (q === -1 ? url : url.slice(0, q)).replace(BAD_ESCAPE, '%25');
  try {
    decodeURIComponent(path);
  } catch {
    return '/';
  }
  return q === -1 ? path : path + url.slice(q);
}

/** True for an HTTP/1.1 request without `Host`, which RFC 9112 §3.2 says to refuse with 400. */
export function lacksHost(req: IncomingMessage): boolean {
  return req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor === 1;
}

/**
 * The fastify options every listener shares: header size, timeouts (node
 * checks them on an interval, kept short enough that a timeout is met within a
 * quarter of its length), URLs the router cannot decode, and no answer from
 * node itself to a request without `Host`, which the listener answers in the
 * envelope instead.
 */
export function listenerOptions(limits: ListenerLimits): {
  http: ServerOptions;
  requestTimeout: number;
  rewriteUrl: (req: IncomingMessage) => string;
} {
  return {
    http: {
      maxHeaderSize: MAX_HEADER_SIZE,
      requireHostHeader: false,
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: Math.max(25, Math.min(1000, Math.floor(limits.headersTimeoutMs / 4))),
    },
    // fastify sets the server's request timeout from its own option, over the one in `http`.
    requestTimeout: limits.requestTimeoutMs,
    rewriteUrl: decodableUrl,
  };
}
