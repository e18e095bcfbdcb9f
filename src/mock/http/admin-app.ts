import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import type { MockClock } from '../../clock/mock-clock.js';
import { isHarnessError } from '../../errors/harness-error.js';
import { DEFECT_NAMES } from '../defects/catalogue.js';
import type { DefectSet } from '../defects/defect-set.js';
import { ApiError } from '../domain/api-error.js';
import type { LoggedRequest } from '../domain/request-log.js';
import type { WebhookDelivery } from '../webhooks/delivery.js';
import { errorEnvelope } from './envelope.js';
import { newRequestId } from './request-id.js';
import type { Logger } from 'pino';
import { fastifyLogging } from './fastify-logging.js';
import { addLatency } from './latency.js';
import { lacksHost, listenerOptions, type ListenerLimits } from './listener-options.js';
import { installClientErrorEnvelope, installConnectAnswer, refusal } from './raw-answers.js';
import { MOCK_DEFAULTS } from '../options.js';

/** The header every admin request carries (REFERENCE-API.md section 11). */
const ADMIN_HEADER = 'x-svc-admin';

/**
 * Longest single move of `POST /__admin/clock/advance`: a week. The harness's
 * own longest move is one wait, at most twice the longest duration a profile
 * may name (each within a day) or 25 h, so about two days; `{"ms": 1e308}`
 * would put the clock where no date can be written.
 */
export const MAX_ADVANCE_MS = 7 * 24 * 3_600_000;

/** What the admin API drives. */
interface AdminControl {
  clock: MockClock;
  defects: DefectSet;
  /** State back to the fixture; clock offset and defects stay. */
  reset(): Promise<void>;
  /** Moves the clock and waits for the webhook attempts that fell due. */
  advance(ms: number): Promise<void>;
  /** Puts the clock back to real time; nothing stamped on the clock that ran ahead stays in the future. */
  resetClock(): void;
  /** Every webhook delivery attempt, service and hotel. */
  deliveries(): WebhookDelivery[];
  /** The log of client requests. */
  requests(): LoggedRequest[];
}

function fail(reply: FastifyReply, status: number, code: string, message: string, details: Record<string, unknown> = {}): void {
  const id = newRequestId();
  reply
    .code(status)
    .header('x-request-id', id)
    .send(errorEnvelope(code, message, details, id));
}

function isStringList(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

/**
 * Why a request may not use the admin API, or undefined when it may. A
 * tenant's webhook URL pointed at the admin listener, and a page in a browser,
 * can send a POST but not this header (a browser would first ask a preflight,
 * which is refused), so neither reaches an admin route.
 */
function refusedAdmin(method: string, headers: Record<string, string | string[] | undefined>): ApiError | undefined {
  if (headers[ADMIN_HEADER] !== '1') return new ApiError(403, 'ADMIN_HEADER_REQUIRED', `every admin request carries the header X-SVC-Admin: 1`);
  if (method === 'OPTIONS' || method === 'CONNECT')
    return new ApiError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed on the admin API`, { allow: ['GET', 'POST', 'PUT'] });
  return undefined;
}

/**
 * The clock as the admin API answers it: `now_ms`, `offset_ms`, and
 * `next_due_ms`, the instant the next webhook attempt falls due (null when
 * none waits), so that a driver can stop the clock at it and the attempt
 * arrives at its own instant, as it does in-process.
 */
function clockAnswer(clock: MockClock): { now_ms: number; offset_ms: number; next_due_ms: number | null } {
  return { now_ms: clock.now(), offset_ms: clock.offset, next_due_ms: clock.nextDueAt ?? null };
}

/** The admin API of REFERENCE-API.md section 11, under `/__admin`. */
export function createAdminApp(control: AdminControl, log?: Logger, limits: ListenerLimits = MOCK_DEFAULTS): FastifyInstance {
  const app = Fastify({ ...fastifyLogging(log, 'admin'), ...listenerOptions(limits) });
  installClientErrorEnvelope(app.server, control.defects);
  installConnectAnswer(app.server, (req) => refusal(refusedAdmin('CONNECT', req.headers)!, control.defects));
  addLatency(app, limits.latencyMs);
  app.addHook('onRequest', (request, reply, done) => {
    if (lacksHost(request.raw)) return fail(reply, 400, 'BAD_REQUEST', 'an HTTP/1.1 request needs a Host header');
    const refused = refusedAdmin(request.method, request.headers);
    if (refused) return fail(reply, refused.status, refused.code, refused.message, refused.details);
    done();
  });
  app.addHook('onSend', async (_req, reply) => {
    if (!reply.hasHeader('x-request-id')) reply.header('x-request-id', newRequestId());
  });
  app.get('/__admin/health', async () => ({ ok: true }));
  app.post('/__admin/reset', async () => {
    await control.reset();
    return { ok: true };
  });
  app.get('/__admin/clock', async () => clockAnswer(control.clock));
  app.post('/__admin/clock/advance', async (request, reply) => {
    const body = request.body as { ms?: unknown; until_ms?: unknown } | undefined;
    const ms = body?.ms;
    const until = body?.until_ms;
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) {
      return fail(reply, 422, 'VALIDATION_FAILED', 'ms must be a non-negative number of milliseconds', {
        fields: [{ field: 'ms', message: 'must be a non-negative number' }],
      });
    }
    if (until !== undefined && (typeof until !== 'number' || !Number.isFinite(until))) {
      return fail(reply, 422, 'VALIDATION_FAILED', 'until_ms must be an instant in milliseconds since the epoch', {
        fields: [{ field: 'until_ms', message: 'must be a number' }],
      });
    }
    // With until_ms the clock moves to that instant (not at all when it is there already), read as the request is handled:
    // a client across a network cannot know how far the clock ran while its request travelled.
    const move = until === undefined ? ms : Math.max(0, until - control.clock.now());
    if (move > MAX_ADVANCE_MS) {
      const field = until === undefined ? 'ms' : 'until_ms';
      const message =
        until === undefined
          ? `ms must be at most ${MAX_ADVANCE_MS} (7 days) per advance, got ${ms}`
          : `until_ms lies more than ${MAX_ADVANCE_MS} ms (7 days) ahead of the clock`;
      return fail(reply, 400, 'BAD_REQUEST', message, {
        fields: [{ field, message: `must be at most ${MAX_ADVANCE_MS}` }],
        max_ms: MAX_ADVANCE_MS,
      });
    }
    await control.advance(move);
    return { ...clockAnswer(control.clock), moved_ms: move };
  });
  app.post('/__admin/clock/reset', async () => {
    control.resetClock();
    return { now_ms: control.clock.now(), offset_ms: control.clock.offset };
  });
  app.get('/__admin/webhooks/deliveries', async () => ({ deliveries: control.deliveries() }));
  app.get('/__admin/requests', async () => ({ requests: control.requests() }));
  app.get('/__admin/defects', async () => ({ enabled: control.defects.list(), available: DEFECT_NAMES }));
  app.put('/__admin/defects', async (request, reply) => {
    const body = (request.body ?? {}) as { enable?: unknown; disable?: unknown };
    const enable = body.enable ?? [];
    const disable = body.disable ?? [];
    if (!isStringList(enable) || !isStringList(disable)) {
      return fail(reply, 422, 'VALIDATION_FAILED', 'enable and disable must be lists of defect names', {
        fields: [{ field: isStringList(enable) ? 'disable' : 'enable', message: 'must be a list of strings' }],
      });
    }
    try {
      control.defects.disable(disable);
      control.defects.enable(enable);
    } catch (err) {
      if (isHarnessError(err)) return fail(reply, 422, 'VALIDATION_FAILED', err.message, { fields: [{ field: 'enable', message: err.message }] });
      throw err;
    }
    return { enabled: control.defects.list(), available: DEFECT_NAMES };
  });
  app.setNotFoundHandler((request, reply) => fail(reply, 404, 'NOT_FOUND', `no admin route ${request.method} ${request.url}`));
  app.setErrorHandler((err: { statusCode?: number; message?: string }, _request, reply) => {
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    fail(reply, status, status === 500 ? 'INTERNAL_ERROR' : 'BAD_REQUEST', err.message ?? 'error');
  });
  return app;
}
