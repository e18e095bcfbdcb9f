import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { DefectSet } from '../defects/defect-set.js';
import { ApiError } from '../domain/api-error.js';
import { newRequestId } from './request-id.js';
import { errorResponse } from './error-response.js';
import type { WireResponse } from './wire.js';

/** Writes a whole answer straight onto a socket (no `ServerResponse` exists), then closes the connection. */
function writeRaw(socket: Duplex, res: WireResponse): void {
  const body = Buffer.from(res.body);
  const head = [`HTTP/1.1 ${res.status} ${STATUS_CODES[res.status] ?? 'Error'}`];
  for (const [k, v] of Object.entries(res.headers)) head.push(`${k}: ${v}`);
  head.push(`content-length: ${body.length}`, 'connection: close', '', '');
  socket.end(Buffer.concat([Buffer.from(head.join('\r\n'), 'latin1'), body]));
}

/** The envelope answer node's own refusals get: a header over the size limit, a broken request, a request too slow to arrive. */
function clientErrorAnswer(code: string | undefined, defects: DefectSet): WireResponse {
  const id = newRequestId();
  if (code === 'HPE_HEADER_OVERFLOW') return errorResponse(new ApiError(431, 'HEADERS_TOO_LARGE', 'request headers are too large'), id, defects);
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return errorResponse(new ApiError(408, 'REQUEST_TIMEOUT', 'the request did not arrive in time'), id, defects);
  return errorResponse(new ApiError(400, 'BAD_REQUEST', 'malformed HTTP request'), id, defects);
}

/**
 * Node answers malformed or too slow requests (a header over the size limit,
 * a broken request line, a request that outlives its timeout) before fastify
 * sees them; this writes that answer in the envelope, unless part of an answer
 * has already gone out, and keeps the server serving.
 */
export function installClientErrorEnvelope(server: Server, defects: DefectSet): void {
  server.removeAllListeners('clientError');
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (!socket.writable || inFlight?.headersSent === true || (err.code === 'ECONNRESET' && socket.destroyed)) {
      socket.destroy();
      return;
    }
    writeRaw(socket, clientErrorAnswer(err.code, defects));
  });
}

/**
 * Answers `CONNECT` (which node hands to a `connect` listener, or else drops
 * the connection unanswered) with the listener's own judgement of it, in the
 * envelope, then closes the connection: no listener of the mock tunnels.
 */
export function installConnectAnswer(server: Server, judge: (req: IncomingMessage) => WireResponse | Promise<WireResponse>): void {
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    void Promise.resolve()
      .then(() => judge(req))
      .then(
        (res) => writeRaw(socket, res),
        () => socket.destroy(),
      );
  });
}

/** A refusal in the envelope with a fresh request id (for listeners that judge a raw request themselves). */
export function refusal(err: ApiError, defects: DefectSet): WireResponse {
  return errorResponse(err, newRequestId(), defects);
}
