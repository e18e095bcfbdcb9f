import { defineCommand } from '../command-spec.js';
import type { CertifyClientArgs } from '../commands/certify-client.js';
import { port, seconds } from '../options.js';

/** `svc-harness certify-client`: the mock in certification mode grades an agency's own client. */
export const certifyClientCommand = defineCommand<CertifyClientArgs>({
  command: 'certify-client',
  describe: "start the mock in certification mode, let the agency's client run its flows against it, grade the client and write a certificate",
  builder: (y) =>
    y
      .option('run', {
        type: 'string',
        describe: 'shell command that runs the client; it gets SVC_BASE_URL, SVC_KEY_ID, SVC_SECRET, SVC_WEBHOOK_SECRET, … in its environment',
      })
      .option('timeout', { type: 'number', describe: 'longest the --run command may take, in seconds (default 120)' })
      .option('duration', {
        type: 'number',
        coerce: seconds('duration', { above: 0 }),
        describe: 'interactive mode: grade after this many seconds instead of waiting for Enter',
      })
      .option('agency', { type: 'string', describe: 'agency whose credentials the client gets (default agency-alpha)' })
      .option('report-dir', {
        type: 'string',
        default: 'reports',
        describe: 'reports go to <report-dir>/<run id>/, the certificate to <report-dir>/<run id>/certificate/',
      })
      .option('sign-key', { type: 'string', describe: 'Ed25519 private key (PEM) to sign certificate.json with' })
      .option('retry-after', { type: 'number', describe: 'Retry-After of the injected 429, in seconds (default 1)' })
      .option('quote-lifetime', { type: 'number', describe: 'quote lifetime of the mock, in seconds (default 30)' })
      .option('host', {
        type: 'string',
        describe: "interface the mock binds to (default 127.0.0.1); 0.0.0.0 lets a client in a container reach it at this machine's address",
      })
      .option('port', { type: 'number', coerce: port('port'), describe: 'service port of the mock (default: a free port)' })
      .option('client-name', { type: 'string', describe: "the client's name as the agency gives it (e.g. acme-booking), shown on the certificate" })
      .option('client-version', { type: 'string', describe: "the client's version (e.g. 2.4.1), shown on the certificate" })
      .option('hotel-port', { type: 'number', coerce: port('hotel-port'), describe: 'hotel API port of the mock (default: a free port)' }),
  run: async (args) => (await import('../commands/certify-client.js')).certifyClientCommand(args),
});
