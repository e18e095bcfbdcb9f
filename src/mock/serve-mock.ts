import type { MockCommandArgs } from '../cli/commands/mock.js';
import { HarnessError } from '../errors/harness-error.js';
import { createMock, type RunningMock } from './create-mock.js';
import { logger } from '../log/current-logger.js';

/** The one JSON line `mock --json` prints (REFERENCE-API.md section 11). */
export function startupLine(mock: RunningMock): string {
  return JSON.stringify({
    base_url: mock.baseUrl,
    hotel_base_url: mock.hotelBaseUrl,
    admin_url: mock.adminUrl ?? null,
    agencies: mock.agencies.map((a) => ({
      agency_id: a.agency_id,
      key_id: a.key_id,
      secret: a.secret,
      webhook_secret: a.webhook_secret,
      hotel_api_key: a.hotel_api_key,
      hotel_webhook_secret: a.hotel_webhook_secret,
    })),
  });
}

/** A short human summary of a running mock. */
export function startupSummary(mock: RunningMock): string {
  const lines = [
    `svc-harness mock listening`,
    `  service   ${mock.baseUrl}`,
    `  hotel API ${mock.hotelBaseUrl}`,
    `  admin API ${mock.adminUrl ?? 'off (start with --admin)'}`,
    `  agencies  ${mock.agencies.length} (${mock.agencies
      .slice(0, 5)
      .map((a) => `${a.agency_id}/${a.key_id}`)
      .join(', ')}${mock.agencies.length > 5 ? ', …' : ''})`,
    `  defects   ${mock.defects.list().join(', ') || 'none'}`,
    'press Ctrl-C to stop',
  ];
  return lines.join('\n');
}

/** Runs the mock for the CLI until SIGINT or SIGTERM, then closes it cleanly. */
export async function serveMock(args: MockCommandArgs, out: (text: string) => void = (t) => process.stdout.write(`${t}\n`)): Promise<void> {
  for (const [name, v] of [
    ['--port', args.port],
    ['--hotel-port', args['hotel-port']],
    ['--admin-port', args['admin-port']],
  ] as const) {
    if (!Number.isInteger(v) || v < 0 || v > 65535) throw new HarnessError('E_USAGE', `${name} must be an integer from 0 to 65535, got ${String(v)}`);
  }
  const defects = (args.defects ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const mock = await createMock({
    host: args.host,
    port: args.port,
    hotelPort: args['hotel-port'],
    adminPort: args['admin-port'],
    admin: args.admin,
    fixture: args.fixture,
    agencies: args.agencies,
    quoteLifetimeS: args['quote-lifetime'],
    webhookBaseMs: args['webhook-base'],
    webhookFactor: args['webhook-factor'],
    latencyMs: args['latency-ms'],
    windowS: args['window-s'],
    headersTimeoutMs: args['headers-timeout-ms'],
    requestTimeoutMs: args['request-timeout-ms'],
    requestLogBytes: args['request-log-bytes'],
    defects,
    logger: logger(),
  });
  out(args.json ? startupLine(mock) : startupSummary(mock));
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await mock.close();
}
