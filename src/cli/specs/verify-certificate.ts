import { defineCommand } from '../command-spec.js';
import type { VerifyCertificateArgs } from '../commands/verify-certificate.js';

/** `svc-harness verify-certificate DIR`: checks every hash of a certificate folder and its signature. */
export const verifyCertificateCommand = defineCommand<VerifyCertificateArgs>({
  command: 'verify-certificate <dir>',
  describe: 'verify a certificate folder: every file against its SHA-256, nothing missing or extra, and the Ed25519 signature',
  builder: (y) =>
    y
      .positional('dir', { type: 'string', demandOption: true, describe: 'the certificate folder (holding certificate.json)' })
      .option('public-key', {
        type: 'string',
        describe: "the signer's public key (PEM); without it the key inside the folder is used, which does not say who signed",
      })
      .option('require-real', {
        type: 'boolean',
        describe: 'exit 1 for a practice certificate (one earned against the mock bundled with the harness)',
      }),
  run: async (args) => (await import('../commands/verify-certificate.js')).verifyCertificateCommand(args),
});
