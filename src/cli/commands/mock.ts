import type { CommandModule } from 'yargs';

/** Arguments of `svc-harness mock`. */
export interface MockCommandArgs {
  port: number;
  'hotel-port': number;
  'admin-port': number;
  admin: boolean;
  fixture?: string | undefined;
  'quote-lifetime': number;
  'webhook-base': number;
  'webhook-factor': number;
  defects?: string | undefined;
  agencies: number;
  host: string;
  json: boolean;
}

/** `svc-harness mock`: runs the bundled mock until SIGINT or SIGTERM. */
export const mockCommand: CommandModule<object, MockCommandArgs> = {
  command: 'mock',
  describe: 'run the bundled mock of the service (and the partner hotel API) until interrupted',
  builder: (y) =>
    y
      .option('port', { type: 'number', default: 8480, describe: 'service port (0 = a free port)' })
      .option('hotel-port', { type: 'number', default: 8481, describe: 'hotel API port (0 = a free port)' })
      .option('admin-port', { type: 'number', default: 8489, describe: 'admin API port (0 = a free port)' })
      .option('admin', { type: 'boolean', default: false, describe: 'start the admin API (loopback only)' })
      .option('host', { type: 'string', default: '127.0.0.1', describe: 'interface to bind' })
      .option('fixture', { type: 'string', describe: 'fixture file of agencies (JSON or YAML)' })
      .option('agencies', { type: 'number', default: 0, describe: 'extra generated agencies (agency-load-001, …)' })
      .option('quote-lifetime', { type: 'number', default: 900, describe: 'quote lifetime in seconds' })
      .option('webhook-base', { type: 'number', default: 5000, describe: 'delay before webhook attempt 2, ms' })
      .option('webhook-factor', { type: 'number', default: 3, describe: 'attempt 3 comes base × factor after attempt 2' })
      .option('defects', { type: 'string', describe: 'defects to switch on, comma-separated' })
      .option('json', { type: 'boolean', default: false, describe: 'print one JSON line with the addresses and credentials once listening' }),
  handler: async (args) => {
    const { serveMock } = await import('../../mock/serve-mock.js');
    await serveMock(args);
  },
};
