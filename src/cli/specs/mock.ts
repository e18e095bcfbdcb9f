import { defineCommand } from '../command-spec.js';
import type { MockCommandArgs } from '../commands/mock.js';
import { commaList, port } from '../options.js';

/** `svc-harness mock`: runs the bundled mock until SIGINT or SIGTERM. */
export const mockCommand = defineCommand<MockCommandArgs>({
  command: 'mock',
  describe: 'run the bundled mock of the service (and the partner hotel API) until interrupted',
  builder: (y) =>
    y
      .option('port', { type: 'number', default: 8480, coerce: port('port'), describe: 'service port (0 = a free port)' })
      .option('hotel-port', { type: 'number', default: 8481, coerce: port('hotel-port'), describe: 'hotel API port (0 = a free port)' })
      .option('admin-port', { type: 'number', default: 8489, coerce: port('admin-port'), describe: 'admin API port (0 = a free port)' })
      .option('admin', { type: 'boolean', default: false, describe: 'start the admin API (loopback only)' })
      .option('host', { type: 'string', default: '127.0.0.1', describe: 'interface to bind' })
      .option('fixture', { type: 'string', describe: 'fixture file of agencies (JSON or YAML)' })
      .option('agencies', { type: 'number', default: 0, describe: 'extra generated agencies (agency-load-001, …)' })
      .option('quote-lifetime', { type: 'number', default: 900, describe: 'quote lifetime in seconds' })
      .option('webhook-base', { type: 'number', default: 5000, describe: 'delay before webhook attempt 2, ms' })
      .option('webhook-factor', { type: 'number', default: 3, describe: 'attempt 3 comes base × factor after attempt 2' })
      .option('latency-ms', { type: 'number', default: 0, describe: 'handle every request, on every port, this many ms late' })
      .option('window-s', { type: 'number', default: 60, describe: 'length of the rolling rate-limit window, seconds' })
      .option('headers-timeout-ms', { type: 'number', default: 10_000, describe: 'time a client has to send the headers of a request, ms' })
      .option('request-timeout-ms', { type: 'number', default: 30_000, describe: 'time a client has to send a whole request, ms' })
      .option('request-log-bytes', { type: 'number', default: 32 * 1024 * 1024, describe: 'bytes the admin request log may hold' })
      .option('defects', { type: 'string', coerce: commaList, default: '', defaultDescription: 'none', describe: 'defects to switch on, comma-separated' })
      .option('json', { type: 'boolean', default: false, describe: 'print one JSON line with the addresses and credentials once listening' }),
  run: async (args) => (await import('../commands/mock.js')).mockCommand(args),
});
