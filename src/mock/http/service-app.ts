import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { DefectSet } from '../defects/defect-set.js';
import { ApiError } from '../domain/api-error.js';
import { newRequestId } from './request-id.js';
import { errorResponse } from './error-response.js';
import { fastifyLogging } from './fastify-logging.js';
import { installOpenApiRoute } from './openapi-route.js';
import type { ServicePipeline } from './pipeline.js';
import { addLatency } from './latency.js';
import { lacksHost, listenerOptions, type ListenerLimits } from './listener-options.js';
import { installClientErrorEnvelope, installConnectAnswer } from './raw-answers.js';
import type { WireResponse } from './wire.js';

/** Body size fastify itself accepts; the service judges 64 KiB itself, after authentication. */
const TRANSPORT_BODY_LIMIT = 1024 * 1024;

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** Where the service keeps a request's own Content-Type (on node's request) while fastify sees a neutral one. */
const SENT_TYPE = Symbol('svc.sentContentType');

type RawServiceRequest = IncomingMessage & { [SENT_TYPE]?: string };

/** The content type fastify is shown for every request that sends one (the pipeline sees the one sent). */
const NEUTRAL_TYPE = 'application/octet-stream';

/** The body of every request without one; shared, since the request log keeps a reference per request. */
const NO_BODY = Buffer.alloc(0);

function send(reply: FastifyReply, res: WireResponse): void {
  if (res.cutAfterBytes !== undefined) {
    cutOff(reply, res, res.cutAfterBytes);
    return;
  }
  reply.code(res.status).headers(res.headers).send(res.body);
}

/**
 * Certification mode: announces the whole body, writes only its first bytes,
 * then drops the connection, so the client sees a response cut off mid-body.
 */
function cutOff(reply: FastifyReply, res: WireResponse, keep: number): void {
  const body = Buffer.from(res.body);
  const raw = reply.hijack().raw;
  raw.writeHead(res.status, { ...res.headers, 'content-length': String(body.length), connection: 'close' });
  raw.write(body.subarray(0, Math.max(0, Math.min(keep, body.length - 1))), () => raw.destroy());
}

/** Maps fastify's own errors (body too large, bad media type, …) onto the envelope. */
function frameworkError(err: { statusCode?: number; code?: string; message?: string }): ApiError {
  const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 600 ? err.statusCode : 500;
  if (status === 413) return new ApiError(413, 'PAYLOAD_TOO_LARGE', 'body is too large');
  if (status === 415) return new ApiError(400, 'INVALID_JSON', 'Content-Type header is malformed');
  if (status >= 500) return new ApiError(500, 'INTERNAL_ERROR', 'the mock failed to handle this request');
  return new ApiError(status, 'BAD_REQUEST', err.message ?? 'bad request');
}

/**
 * The service's fastify app: one catch-all route hands every request, with its
 * raw body bytes, to the pipeline, which owns the whole judging order.
 */
export function createServiceApp(pipeline: ServicePipeline, defects: DefectSet, limits: ListenerLimits, log?: Logger): FastifyInstance {
  const listener = listenerOptions(limits);
  const app = Fastify({
    ...fastifyLogging(log, 'service'),
    ...listener,
    // fastify refuses a malformed Content-Type itself, before the pipeline could judge authentication
    // first; it sees a neutral type instead, and the pipeline (and the request log) the one sent. Swapped
    // before fastify sees the request rather than in an `onRequest` hook: a hook costs every request
    // fastify's hook runner, which showed in the CPU per search.
    serverFactory: (handle, opts) => {
      const server = createServer(listener.http, (req: RawServiceRequest, res: ServerResponse) => {
        const sent = req.headers['content-type'];
        if (sent !== undefined) {
          req[SENT_TYPE] = sent;
          req.headers['content-type'] = NEUTRAL_TYPE;
        }
        handle(req, res);
      });
      // What fastify sets on the server it makes itself.
      server.keepAliveTimeout = Number(opts.keepAliveTimeout ?? 72_000);
      server.requestTimeout = limits.requestTimeoutMs;
      server.setTimeout(Number(opts.connectionTimeout ?? 0));
      return server;
    },
    bodyLimit: TRANSPORT_BODY_LIMIT,
    exposeHeadRoutes: false,
    frameworkErrors: (err, _req, reply) => {
      const id = newRequestId();
      send(reply, errorResponse(frameworkError(err), id, defects));
    },
  });
  // The signature covers the raw bytes, so every content type stays a Buffer; JSON is parsed by the pipeline.
  app.removeAllContentTypeParsers();
  const keepBytes = (_req: FastifyRequest, body: Buffer, done: (err: null, body: Buffer) => void): void => done(null, body);
  app.addContentTypeParser('*', { parseAs: 'buffer' }, keepBytes);
  // The neutral type every request with a body is given (above) named as well: fastify caches the parser
  // of a named type, while the catch-all one it finds again (parsing the type) on every request.
  app.addContentTypeParser(NEUTRAL_TYPE, { parseAs: 'buffer' }, keepBytes);
  addLatency(app, limits.latencyMs);

  // Not async: the pipeline answers most requests synchronously, and then no promise is made per request.
  const handler = (request: FastifyRequest, reply: FastifyReply): Promise<void> | undefined => {
    const sent = (request.raw as RawServiceRequest)[SENT_TYPE];
    if (sent !== undefined) request.headers['content-type'] = sent;
    if (lacksHost(request.raw)) {
      send(reply, errorResponse(new ApiError(400, 'BAD_REQUEST', 'an HTTP/1.1 request needs a Host header'), newRequestId(), defects));
      return undefined;
    }
    const body = Buffer.isBuffer(request.body) ? request.body : NO_BODY;
    const res = pipeline.handle({ method: request.method, url: request.originalUrl, headers: request.headers, body });
    if (res instanceof Promise) return res.then((r) => send(reply, r));
    send(reply, res);
    return undefined;
  };
  installOpenApiRoute(app);
  app.route({ method: METHODS, url: '*', handler });
  app.setNotFoundHandler(handler);
  app.setErrorHandler((err: { statusCode?: number; code?: string; message?: string }, _request, reply) => {
    send(reply, errorResponse(frameworkError(err), newRequestId(), defects));
  });
  installClientErrorEnvelope(app.server, defects);
  installConnectAnswer(app.server, (req) => pipeline.handle({ method: 'CONNECT', url: req.url ?? '', headers: req.headers, body: NO_BODY }));
  return app;
}
