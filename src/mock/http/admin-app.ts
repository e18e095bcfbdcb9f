import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import type { MockClock } from '../../clock/mock-clock.js';
import { isHarnessError } from '../../errors/harness-error.js';
import { DEFECT_NAMES } from '../defects/catalogue.js';
import type { DefectSet } from '../defects/defect-set.js';
import type { LoggedRequest } from '../domain/request-log.js';
import type { WebhookDelivery } from '../webhooks/delivery.js';
import { errorEnvelope } from './envelope.js';
import { newRequestId } from './request-id.js';
import type { Logger } from 'pino';
import { fastifyLogging } from './fastify-logging.js';

/** What the admin API drives. */
export interface AdminControl {
  clock: MockClock;
  defects: DefectSet;
  /** State back to the fixture; clock offset and defects stay. */
  reset(): Promise<void>;
  /** Moves the clock and waits for the webhook attempts that fell due. */
  advance(ms: number): Promise<void>;
  /** Every webhook delivery attempt, service and hotel. */
  deliveries(): WebhookDelivery[];
  /** The log of client requests. */
  requests(): LoggedRequest[];
}

function fail(reply: FastifyReply, status: number, code: string, message: string, details: Record<string, unknown> = {}): void {
  const id = newRequestId();
  reply.code(status).header('x-request-id', id).send(errorEnvelope(code, message, details, id));
}

function isStringList(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

/** The admin API of REFERENCE-API.md section 11, under `/__admin`. */
export function createAdminApp(control: AdminControl, log?: Logger): FastifyInstance {
  const app = Fastify(fastifyLogging(log, 'admin'));
  app.addHook('onSend', async (_req, reply) => {
    if (!reply.hasHeader('x-request-id')) reply.header('x-request-id', newRequestId());
  });
  app.get('/__admin/health', async () => ({ ok: true }));
  app.post('/__admin/reset', async () => {
    await control.reset();
    return { ok: true };
  });
  app.get('/__admin/clock', async () => ({ now_ms: control.clock.now(), offset_ms: control.clock.offset }));
  app.post('/__admin/clock/advance', async (request, reply) => {
    const ms = (request.body as { ms?: unknown } | undefined)?.ms;
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) {
      return fail(reply, 422, 'VALIDATION_FAILED', 'ms must be a non-negative number of milliseconds', {
        fields: [{ field: 'ms', message: 'must be a non-negative number' }],
      });
    }
    await control.advance(ms);
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
