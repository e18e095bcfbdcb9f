import type { FastifyInstance } from 'fastify';
import type { MockClock } from '../clock/mock-clock.js';
import { HarnessError } from '../errors/harness-error.js';
import { DefectSet } from './defects/defect-set.js';
import { MockService } from './domain/mock-service.js';
import { RequestLog } from './domain/request-log.js';
import { DEFAULT_FIXTURE } from './fixture/default-fixture.js';
import type { Fixture, FixtureAgency } from './fixture/fixture-types.js';
import { generateAgencies } from './fixture/generate-agencies.js';
import { loadFixture } from './fixture/load-fixture.js';
import { validateFixture } from './fixture/validate-fixture.js';
import { createHotelApp } from './hotel/hotel-app.js';
import { createAdminApp } from './http/admin-app.js';
import { ServicePipeline } from './http/pipeline.js';
import { createServiceApp } from './http/service-app.js';
import { resolveMockOptions, type MockOptions } from './options.js';
import { WebhookDispatcher } from './webhooks/dispatcher.js';

/** What a client of the mock needs to know about one agency: its fixture entry, less the webhook endpoints it starts with. */
export type AgencyCredentials = Omit<FixtureAgency, 'webhook_url' | 'hotel_webhook_url'>;

/** A running mock. */
export interface RunningMock {
  /** Service base URL, ending in `/v1`. */
  baseUrl: string;
  /** Partner hotel API base URL. */
  hotelBaseUrl: string;
  /** Admin API base URL, ending in `/__admin`; undefined unless `admin` was asked for. */
  adminUrl: string | undefined;
  agencies: AgencyCredentials[];
  clock: MockClock;
  defects: DefectSet;
  /** The service's domain (for in-process tests and tools). */
  service: MockService;
  /** State back to the fixture (as `POST /__admin/reset`); clock offset and defects stay. */
  reset(): Promise<void>;
  /** Moves the clock forward and waits for the webhook attempts that fell due (as `POST /__admin/clock/advance`). */
  advance(ms: number): Promise<void>;
  /** Puts the clock back to real time (as `POST /__admin/clock/reset`): what was stamped on the clock that ran ahead counts as stamped now. */
  resetClock(): void;
  /** Closes every listener. */
  close(): Promise<void>;
}

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

async function listen(app: FastifyInstance, host: string, port: number, what: string): Promise<number> {
  try {
    await app.listen({ host, port });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new HarnessError('E_PORT_IN_USE', `port ${port} (${what}) is already in use on ${host}`, { cause: err });
    if (code === 'EACCES') throw new HarnessError('E_USAGE', `no permission to listen on ${host}:${port} (${what})`, { cause: err });
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new HarnessError('E_USAGE', `cannot listen on host ${host} (${what})`, { cause: err });
    throw err;
  }
  const addr = app.server.address();
  if (!addr || typeof addr === 'string') throw new HarnessError('E_INTERNAL', `${what} listener has no port`);
  return addr.port;
}

async function resolveFixture(fixture: MockOptions['fixture']): Promise<Fixture> {
  if (fixture === undefined) return structuredClone(DEFAULT_FIXTURE) as Fixture;
  if (typeof fixture === 'string') return loadFixture(fixture);
  return validateFixture(fixture, 'fixture');
}

/**
 * Starts the mock: the service, the partner hotel API and (when asked) the
 * admin API, all fed by one clock and one set of defects.
 */
export async function createMock(options: MockOptions = {}): Promise<RunningMock> {
  const o = resolveMockOptions(options);
  const defects = new DefectSet(o.defects);
  const base = await resolveFixture(o.fixture);
  const fixture: Fixture = { agencies: [...base.agencies, ...generateAgencies(o.agencies)] };
  if (o.agencies > 0) validateFixture(fixture, 'fixture with generated agencies');
  const clock = o.clock;

  const dispatcher = new WebhookDispatcher({
    clock,
    defects,
    baseMs: o.webhookBaseMs,
    factor: o.webhookFactor,
    timeoutMs: o.webhookTimeoutMs,
  });
  const service = new MockService({
    clock,
    defects,
    fixture,
    quoteLifetimeMs: o.quoteLifetimeS * 1000,
    supplierLatencyMs: o.supplierLatencyMs,
    windowMs: o.windowS * 1000,
    emit: (agency, event) => {
      dispatcher.emit({ agencyId: agency.id, url: agency.webhookUrl, webhookSecret: agency.webhookSecret, type: event.type, data: event.data });
      if (!defects.has('webhook-to-every-agency')) return;
      // Each other endpoint gets the event too, signed with its own agency's secret, as a multi-tenant fan-out gone wrong would.
      for (const other of service.agencies.values()) {
        if (other === agency || !other.webhookUrl || other.webhookUrl === agency.webhookUrl) continue;
        dispatcher.emit({ agencyId: agency.id, url: other.webhookUrl, webhookSecret: other.webhookSecret, type: event.type, data: event.data });
      }
    },
  });
  // Only the admin API lists the requests: without it, none is logged.
  const log = o.admin ? new RequestLog({ entries: o.requestLogSize, bytes: o.requestLogBytes, bodyBytes: o.requestLogBodyBytes }) : undefined;
  const limits = { headersTimeoutMs: o.headersTimeoutMs, requestTimeoutMs: o.requestTimeoutMs, latencyMs: o.latencyMs };
  const serviceApp = createServiceApp(new ServicePipeline(service, log, options.interceptor), defects, limits, options.logger);
  const hotel = createHotelApp({
    clock,
    defects,
    limits,
    webhookTimeoutMs: o.webhookTimeoutMs,
    ...(options.logger ? { logger: options.logger } : {}),
    agencies: fixture.agencies.map((a) => ({
      agencyId: a.agency_id,
      currency: a.currency,
      hotelApiKey: a.hotel_api_key,
      hotelWebhookSecret: a.hotel_webhook_secret,
      hotelWebhookUrl: a.hotel_webhook_url ?? null,
    })),
  });

  const idle = async (): Promise<void> => {
    await clock.idle();
    await Promise.all([dispatcher.idle(), hotel.idle()]);
  };
  const reset = async (): Promise<void> => {
    service.reset();
    log?.clear();
    dispatcher.reset();
    hotel.reset();
  };
  const advance = async (ms: number): Promise<void> => {
    await clock.advance(ms);
    await idle();
  };
  const resetClock = (): void => {
    clock.resetOffset();
    service.clampTo(clock.now());
  };
  const adminApp = o.admin
    ? createAdminApp(
        {
          clock,
          defects,
          reset,
          advance,
          resetClock,
          deliveries: () => [...dispatcher.deliveries(), ...hotel.deliveries()].sort((a, b) => a.at_ms - b.at_ms),
          requests: () => log?.list() ?? [],
        },
        options.logger,
        limits,
      )
    : undefined;

  const apps = [serviceApp, hotel.app, ...(adminApp ? [adminApp] : [])];
  const closeAll = async (): Promise<void> => {
    await Promise.allSettled(apps.map((a) => a.close()));
    if (!options.clock) clock.close();
  };
  try {
    const port = await listen(serviceApp, o.host, o.port, 'service');
    const hotelPort = await listen(hotel.app, o.host, o.hotelPort, 'hotel API');
    const adminHost = isLoopback(o.host) ? o.host : '127.0.0.1';
    const adminPort = adminApp ? await listen(adminApp, adminHost, o.adminPort, 'admin API') : undefined;
    const h = urlHost(o.host);
    return {
      baseUrl: `http://${h}:${port}/v1`,
      hotelBaseUrl: `http://${h}:${hotelPort}`,
      adminUrl: adminPort === undefined ? undefined : `http://${urlHost(adminHost)}:${adminPort}/__admin`,
      agencies: fixture.agencies.map((a) => ({
        agency_id: a.agency_id,
        name: a.name,
        key_id: a.key_id,
        secret: a.secret,
        webhook_secret: a.webhook_secret,
        hotel_api_key: a.hotel_api_key,
        hotel_webhook_secret: a.hotel_webhook_secret,
        products: [...a.products],
        currency: a.currency,
        wallet: a.wallet,
        limits: { ...a.limits },
      })),
      clock,
      defects,
      service,
      reset,
      advance,
      resetClock,
      close: async () => {
        await idle().catch(() => undefined);
        await closeAll();
      },
    };
  } catch (err) {
    await closeAll();
    throw err;
  }
}
