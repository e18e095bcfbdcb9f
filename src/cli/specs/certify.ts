import { defineCommand } from '../command-spec.js';
import type { CertifyArgs } from '../commands/certify.js';
import { httpUrl, port, seconds } from '../options.js';

/** `svc-harness certify`: certifies an agency's integration against a service (the embedded mock by default) and writes a certificate. */
export const certifyCommand = defineCommand<CertifyArgs>({
  command: 'certify',
  describe: "run the agency certification plan with the agency's own credentials and write a (signed) certificate",
  builder: (y) =>
    y
      .option('target', { type: 'string', describe: 'target profile (YAML or JSON); without it the embedded mock is started' })
      .option('agency', { type: 'string', describe: 'id of the agency to certify (default: the first of the profile; agency-alpha on the embedded mock)' })
      .option('report-dir', {
        type: 'string',
        default: 'reports',
        describe: 'reports (junit.xml included) go to <report-dir>/<run id>/ and <report-dir>/latest, the certificate to <report-dir>/<run id>/certificate/',
      })
      .option('sign-key', { type: 'string', describe: 'Ed25519 private key (PEM) to sign certificate.json with' })
      .option('generate-key', { type: 'string', describe: 'write a new Ed25519 key pair into this folder and exit' })
      .option('max-wait', {
        type: 'number',
        coerce: seconds('max-wait', { atLeast: 0 }),
        describe: 'longest single wait in seconds; a quote lifetime longer than this leaves the expiry test not run (default 120)',
      })
      .option('known-issues', { type: 'string', describe: 'ignored, and said so: a certificate is never granted over a failure' })
      .option('receiver-host', { type: 'string', describe: 'interface the webhook receiver binds to' })
      .option('receiver-port', { type: 'number', coerce: port('receiver-port'), describe: 'port of the webhook receiver (0 = a free port)' })
      .option('receiver-url', {
        type: 'string',
        coerce: httpUrl('receiver-url'),
        describe: 'URL the target reaches the webhook receiver at (a tunnel, a container)',
      }),
  run: async (args) => (await import('../commands/certify.js')).certifyCommand(args),
});
