import { createMock, type RunningMock } from '../../mock/index.js';
import { logger } from '../../log/current-logger.js';
import type { CommandOutcome } from '../exit-codes.js';

/** Arguments of `svc-harness mock`, as the shared option parsers leave them. */
export interface MockCommandArgs {
  port: number;
  'hotel-port': number;
  'admin-port': number;
  admin: boolean;
  fixture?: string | undefined;
  'quote-lifetime': number;
  'webhook-base': number;
  'webhook-factor': number;
  'latency-ms': number;
  'window-s': number;
  'headers-timeout-ms': number;
  'request-timeout-ms': number;
  'request-log-bytes': number;
  defects: string[];
  agencies: number;
  host: string;
  json: boolean;
}

/** The one JSON line `mock --json` prints (REFERENCE-API.md section 11). */
function startupLine(mock: RunningMock): string {
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
function startupSummary(mock: RunningMock): string {
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
export async function mockCommand(args: MockCommandArgs, out: (text: string) => void = (t) => process.stdout.write(`${t}\n`)): Promise<CommandOutcome> {
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
    defects: args.defects,
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
  return { kind: 'done' };
}
