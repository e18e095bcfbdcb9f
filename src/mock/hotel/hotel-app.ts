import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { splitPathQuery } from '../../protocol/index.js';
import type { MockClock } from '../../clock/mock-clock.js';
import type { DefectSet } from '../defects/defect-set.js';
import { ApiError } from '../domain/api-error.js';
import { errorEnvelope } from '../http/envelope.js';
import { newRequestId } from '../http/request-id.js';
import type { WebhookDelivery } from '../webhooks/delivery.js';
import type { HotelAgency } from './hotel-agency.js';
import { availability, decodeRateKey } from './hotel-rates.js';
import { HotelStore } from './hotel-store.js';
import { validateAvailability, validateHotelBooking, validateWebhookUrl } from './hotel-validation.js';
import { HotelWebhookSender } from './hotel-webhook-sender.js';
import type { Logger } from 'pino';
import { fastifyLogging } from '../http/fastify-logging.js';
import { addLatency } from '../http/latency.js';
import { lacksHost, listenerOptions, type ListenerLimits } from '../http/listener-options.js';
import { installClientErrorEnvelope, installConnectAnswer, refusal } from '../http/raw-answers.js';
import { MOCK_DEFAULTS } from '../options.js';

/** Largest request body the hotel API reads (REFERENCE-API.md section 4). */
const HOTEL_BODY_LIMIT = 64 * 1024;

/** The hotel API's routes as path templates (the OpenAPI document must name each); also tell 405 from 404. */
export const HOTEL_ROUTES: readonly { path: string; methods: readonly string[] }[] = [
  { path: '/hotels/v1/availability', methods: ['POST'] },
  { path: '/hotels/v1/bookings', methods: ['POST'] },
  { path: '/hotels/v1/bookings/{reference}', methods: ['DELETE'] },
  { path: '/hotels/v1/webhook', methods: ['PUT'] },
];

const ROUTES = HOTEL_ROUTES.map((r) => ({ pattern: new RegExp(`^${r.path.replace(/\{[^}]+\}/g, '[^/]+')}$`), methods: [...r.methods] }));

/** Options of the hotel API app. */
interface HotelAppOptions {
  clock: MockClock;
  defects: DefectSet;
  agencies: HotelAgency[];
  /** Real time a receiver has to answer an event. @defaultValue 10000 */
  webhookTimeoutMs?: number;
  /** Logs every request at info level when given (and info is enabled). */
  logger?: Logger;
  /** Timeouts and latency of the listener. @defaultValue the mock's defaults */
  limits?: ListenerLimits;
}

/** The partner hotel API of the mock, not yet listening. */
export interface HotelApp {
  /** The fastify app; the caller listens and closes it. */
  app: FastifyInstance;
  /** Every hotel event delivery attempt since the last reset. */
  deliveries(): WebhookDelivery[];
  /** Back to the fixture: webhook URLs from it, bookings and the log cleared. */
  reset(): void;
  /** Resolves when no event delivery is in flight. */
  idle(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyRequest {
    hotelAgency?: HotelAgency;
  }
}

function parseJson(body: unknown): unknown {
  const raw = Buffer.isBuffer(body) ? body.toString('utf8') : '';
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw new ApiError(400, 'INVALID_JSON', 'request body is not valid JSON');
  }
}

function agencyOf(request: FastifyRequest): HotelAgency {
  // Set by the authentication hook, which runs before every handler.
  if (!request.hotelAgency) throw new ApiError(401, 'UNAUTHENTICATED', 'missing or unknown X-API-Key');
  return request.hotelAgency;
}

function sendError(reply: FastifyReply, request: FastifyRequest, err: ApiError): FastifyReply {
  for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
  return reply
    .code(err.status)
    .header('x-request-id', request.id)
    .type('application/json')
    .send(errorEnvelope(err.code, err.message, err.details, request.id));
}

/** Maps what fastify itself refuses (body too large, broken framing) onto the envelope's codes. */
function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const e = err as { statusCode?: number; code?: string; message?: string };
  if (e.statusCode === 413) return new ApiError(413, 'PAYLOAD_TOO_LARGE', `request body is larger than ${HOTEL_BODY_LIMIT} bytes`, { limit: HOTEL_BODY_LIMIT });
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return new ApiError(e.statusCode, 'BAD_REQUEST', e.message ?? 'bad request', {});
  }
  return new ApiError(500, 'INTERNAL_ERROR', 'internal error', {});
}

/**
 * Builds the partner hotel API (REFERENCE-API.md section 10): X-API-Key
 * authentication, availability, bookings, cancellations, a webhook endpoint,
 * and one-attempt signed events.
 */
export function createHotelApp(options: HotelAppOptions): HotelApp {
  const { clock, defects } = options;
  const store = new HotelStore(options.agencies);
  const sender = new HotelWebhookSender(clock, defects, options.webhookTimeoutMs);

  const limits = options.limits ?? MOCK_DEFAULTS;
  const app = Fastify({
    ...fastifyLogging(options.logger, 'hotel'),
    ...listenerOptions(limits),
    bodyLimit: HOTEL_BODY_LIMIT,
    genReqId: () => newRequestId(),
    requestIdHeader: false,
    exposeHeadRoutes: false,
    routerOptions: { maxParamLength: 1000 },
    return503OnClosing: false,
  });

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  addLatency(app, limits.latencyMs);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (lacksHost(request.raw)) throw new ApiError(400, 'BAD_REQUEST', 'an HTTP/1.1 request needs a Host header');
    const header = request.headers['x-api-key'];
    const key = typeof header === 'string' ? header : undefined;
    let agency = key !== undefined ? store.agencyByKey(key) : undefined;
    if (!agency && defects.has('hotel-key-unchecked')) agency = store.firstAgency();
    if (!agency) throw new ApiError(401, 'UNAUTHENTICATED', key === undefined ? 'X-API-Key header is missing' : 'X-API-Key is not valid');
    request.hotelAgency = agency;
  });

  app.setErrorHandler((err, request, reply) => sendError(reply, request, toApiError(err)));
  installClientErrorEnvelope(app.server, defects);
  installConnectAnswer(app.server, (req) => {
    const key = req.headers['x-api-key'];
    const known = typeof key === 'string' && store.agencyByKey(key) !== undefined;
    return known
      ? refusal(new ApiError(405, 'METHOD_NOT_ALLOWED', 'CONNECT is not allowed', { allow: [] }), defects)
      : refusal(new ApiError(401, 'UNAUTHENTICATED', key === undefined ? 'X-API-Key header is missing' : 'X-API-Key is not valid'), defects);
  });

  app.setNotFoundHandler((request, reply) => {
    const { path } = splitPathQuery(request.url);
    const route = ROUTES.find((r) => r.pattern.test(path));
    if (route && !route.methods.includes(request.method)) {
      reply.header('allow', route.methods.join(', '));
      return sendError(reply, request, new ApiError(405, 'METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${path}`, { allow: route.methods }));
    }
    return sendError(reply, request, new ApiError(404, 'NOT_FOUND', `no route ${request.method} ${path}`, {}));
  });

  app.post('/hotels/v1/availability', async (request) => {
    const agency = agencyOf(request);
    const criteria = validateAvailability(parseJson(request.body));
    return { hotels: availability(criteria, agency.currency, agency.hotelApiKey) };
  });

  app.post('/hotels/v1/bookings', async (request, reply) => {
    let agency = agencyOf(request);
    const input = validateHotelBooking(parseJson(request.body));
    let claim = decodeRateKey(input.rate_key, agency.hotelApiKey);
    if (!claim && defects.has('hotel-rate-key-books-owner')) {
      // The key is trusted wherever it verifies: the booking lands on the agency it was issued to.
      for (const owner of store.allAgencies()) {
        claim = decodeRateKey(input.rate_key, owner.hotelApiKey);
        if (claim) {
          agency = owner;
          break;
        }
      }
    }
    if (!claim && defects.has('hotel-unknown-rate-422'))
      throw new ApiError(422, 'VALIDATION_FAILED', 'rate_key is invalid', { fields: [{ field: 'rate_key', message: 'unknown' }] });
    if (!claim) throw new ApiError(404, 'NOT_FOUND', 'unknown rate_key', { field: 'rate_key' });
    const booking = store.book(agency.agencyId, claim.net, claim.hotel_code, input.client_reference);
    sender.send({
      url: store.webhookUrl(agency.agencyId),
      secret: agency.hotelWebhookSecret,
      type: 'hotel.booking.confirmed',
      data: {
        reference: booking.reference,
        status: booking.status,
        net: booking.net,
        hotel_code: booking.hotel_code,
        client_reference: booking.client_reference,
      },
    });
    return reply.code(201).send({ reference: booking.reference, status: booking.status, net: booking.net });
  });

  app.delete<{ Params: { reference: string } }>('/hotels/v1/bookings/:reference', async (request) => {
    const agency = agencyOf(request);
    const booking = store.cancel(agency.agencyId, request.params.reference, defects.has('hotel-double-cancel'), defects.has('hotel-cancel-by-others'));
    sender.send({
      url: store.webhookUrl(agency.agencyId),
      secret: agency.hotelWebhookSecret,
      type: 'hotel.booking.cancelled',
      data: {
        reference: booking.reference,
        status: booking.status,
        net: booking.net,
        hotel_code: booking.hotel_code,
        client_reference: booking.client_reference,
      },
    });
    return { reference: booking.reference, status: booking.status };
  });

  app.put('/hotels/v1/webhook', async (request) => {
    const agency = agencyOf(request);
    const url = validateWebhookUrl(parseJson(request.body));
    store.setWebhookUrl(agency.agencyId, url);
    return { url, secret: agency.hotelWebhookSecret };
  });

  return {
    app,
    deliveries: () => sender.deliveries(),
    reset: () => {
      store.reset();
      sender.reset();
    },
    idle: () => sender.idle(),
  };
}
