import { MockClock } from '../clock/mock-clock.js';
import { HarnessError } from '../errors/harness-error.js';
import type { Fixture } from './fixture/fixture-types.js';
import type { PipelineInterceptor } from './http/interceptor.js';
import type { Logger } from 'pino';

/** Options of `createMock`. Every field is optional. */
export interface MockOptions {
  /** Interface every listener binds to; the admin listener always binds to loopback. @defaultValue '127.0.0.1' */
  host?: string;
  /** Service port; 0 picks a free port. @defaultValue 0 (the CLI uses 8480) */
  port?: number;
  /** Hotel API port; 0 picks a free port. @defaultValue 0 (the CLI uses 8481) */
  hotelPort?: number;
  /** Admin API port; 0 picks a free port. @defaultValue 0 (the CLI uses 8489) */
  adminPort?: number;
  /** Starts the admin listener. @defaultValue false */
  admin?: boolean;
  /** A fixture file (JSON or YAML) or a fixture object. @defaultValue the default fixture */
  fixture?: string | Fixture | undefined;
  /** Extra generated agencies (`agency-load-001`, …) appended to the fixture. @defaultValue 0 */
  agencies?: number;
  /** Quote lifetime in seconds. @defaultValue 900 */
  quoteLifetimeS?: number;
  /** Delay before webhook attempt 2, in ms. @defaultValue 5000 */
  webhookBaseMs?: number;
  /** Attempt 3 comes base × factor after attempt 2. @defaultValue 3 */
  webhookFactor?: number;
  /** Real time a webhook receiver has to answer. @defaultValue 10000 */
  webhookTimeoutMs?: number;
  /** Defects switched on at start. @defaultValue none */
  defects?: Iterable<string>;
  /** Real latency of the simulated supplier behind bookings and cancellations, ms. @defaultValue 5 */
  supplierLatencyMs?: number;
  /** How many client requests the admin request log keeps (a mock without `admin` logs none: nothing could list them). @defaultValue 10000 */
  requestLogSize?: number;
  /** Bytes the admin request log may hold in all (bodies, headers, paths); the oldest entries go first. @defaultValue 33554432 (32 MiB) */
  requestLogBytes?: number;
  /** Bytes of a body the request log keeps; a longer body is kept as this prefix, its byte count and its SHA-256. @defaultValue 4096 */
  requestLogBodyBytes?: number;
  /** Every request on every listener (service, hotel, admin) is handled this many ms late, as if the mock were far away. @defaultValue 0 */
  latencyMs?: number;
  /** Length of the rolling rate-limit window, in seconds. @defaultValue 60 */
  windowS?: number;
  /** Time a client has to send a request's headers, ms, on every listener. @defaultValue 10000 */
  headersTimeoutMs?: number;
  /** Time a client has to send a whole request, headers and body, ms, on every listener. @defaultValue 30000 */
  requestTimeoutMs?: number;
  /** The clock to use (a test may share one). @defaultValue a new MockClock */
  clock?: MockClock;
  /** Logs every request of the three listeners at info level (pino); none when absent. */
  logger?: Logger;
  /** Certification mode: a hook around the service pipeline that may inject situations. @defaultValue none */
  interceptor?: PipelineInterceptor;
}

/** Options with every default filled in, validated. */
interface ResolvedMockOptions {
  host: string;
  port: number;
  hotelPort: number;
  adminPort: number;
  admin: boolean;
  fixture: string | Fixture | undefined;
  agencies: number;
  quoteLifetimeS: number;
  webhookBaseMs: number;
  webhookFactor: number;
  webhookTimeoutMs: number;
  defects: string[];
  supplierLatencyMs: number;
  requestLogSize: number;
  requestLogBytes: number;
  requestLogBodyBytes: number;
  latencyMs: number;
  windowS: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  clock: MockClock;
}

/** The defaults of the mock's options. */
export const MOCK_DEFAULTS = Object.freeze({
  host: '127.0.0.1',
  port: 0,
  hotelPort: 0,
  adminPort: 0,
  admin: false,
  agencies: 0,
  quoteLifetimeS: 900,
  webhookBaseMs: 5_000,
  webhookFactor: 3,
  webhookTimeoutMs: 10_000,
  supplierLatencyMs: 5,
  requestLogSize: 10_000,
  requestLogBytes: 32 * 1024 * 1024,
  requestLogBodyBytes: 4096,
  latencyMs: 0,
  windowS: 60,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
});

/** Fills defaults and validates; a wrong option is an `E_USAGE` error naming it and the value received. */
export function resolveMockOptions(options: MockOptions = {}): ResolvedMockOptions {
  const o = { ...MOCK_DEFAULTS, ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) } as Required<
    Omit<MockOptions, 'fixture' | 'clock' | 'defects' | 'interceptor' | 'logger'>
  > &
    Pick<MockOptions, 'fixture' | 'clock' | 'defects'>;
  const problems: string[] = [];
  const int = (name: string, v: number, min: number, max: number): void => {
    if (!Number.isInteger(v) || v < min || v > max) problems.push(`${name} must be an integer from ${min} to ${max}, got ${String(v)}`);
  };
  const num = (name: string, v: number, min: number): void => {
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min) problems.push(`${name} must be a number ≥ ${min}, got ${String(v)}`);
  };
  int('port', o.port, 0, 65535);
  int('hotelPort', o.hotelPort, 0, 65535);
  int('adminPort', o.adminPort, 0, 65535);
  int('agencies', o.agencies, 0, 10_000);
  num('quoteLifetimeS', o.quoteLifetimeS, 1);
  num('webhookBaseMs', o.webhookBaseMs, 0);
  num('webhookFactor', o.webhookFactor, 1);
  num('webhookTimeoutMs', o.webhookTimeoutMs, 1);
  num('supplierLatencyMs', o.supplierLatencyMs, 0);
  int('requestLogSize', o.requestLogSize, 1, 10_000_000);
  int('requestLogBytes', o.requestLogBytes, 1024, 2 ** 40);
  int('requestLogBodyBytes', o.requestLogBodyBytes, 0, 1024 * 1024);
  num('latencyMs', o.latencyMs, 0);
  int('windowS', o.windowS, 1, 86_400);
  int('headersTimeoutMs', o.headersTimeoutMs, 1, 2 ** 31 - 1);
  int('requestTimeoutMs', o.requestTimeoutMs, 1, 2 ** 31 - 1);
  // node refuses a server whose headers timeout is longer than its request timeout.
  if (o.headersTimeoutMs > o.requestTimeoutMs)
    problems.push(`headersTimeoutMs (${o.headersTimeoutMs}) must not be longer than requestTimeoutMs (${o.requestTimeoutMs})`);
  if (typeof o.host !== 'string' || o.host === '') problems.push(`host must be a non-empty string, got ${String(o.host)}`);
  if (problems.length > 0) throw new HarnessError('E_USAGE', `mock options: ${problems.join('; ')}`);
  return Object.freeze({
    host: o.host,
    port: o.port,
    hotelPort: o.hotelPort,
    adminPort: o.adminPort,
    admin: Boolean(o.admin),
    fixture: o.fixture,
    agencies: o.agencies,
    quoteLifetimeS: o.quoteLifetimeS,
    webhookBaseMs: o.webhookBaseMs,
    webhookFactor: o.webhookFactor,
    webhookTimeoutMs: o.webhookTimeoutMs,
    defects: [...(o.defects ?? [])],
    supplierLatencyMs: o.supplierLatencyMs,
    requestLogSize: o.requestLogSize,
    requestLogBytes: o.requestLogBytes,
    requestLogBodyBytes: o.requestLogBodyBytes,
    latencyMs: o.latencyMs,
    windowS: o.windowS,
    headersTimeoutMs: o.headersTimeoutMs,
    requestTimeoutMs: o.requestTimeoutMs,
    clock: o.clock ?? new MockClock(),
  });
}
