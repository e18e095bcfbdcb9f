import type { CommandModule } from 'yargs';
import type { VerifyCertificateArgs } from '../../certify/verify-main.js';

/** `svc-harness verify-certificate DIR`: checks every hash of a certificate folder and its signature. */
export const verifyCertificateCommand: CommandModule<object, VerifyCertificateArgs> = {
  command: 'verify-certificate <dir>',
  describe: 'verify a certificate folder: every file against its SHA-256, nothing missing or extra, and the Ed25519 signature',
  builder: (y) =>
    y
      .positional('dir', { type: 'string', demandOption: true, describe: 'the certificate folder (holding certificate.json)' })
      .option('public-key', { type: 'string', describe: "the signer's public key (PEM); without it the key inside the folder is used, which does not say who signed" }),
  handler: async (args) => {
    const { verifyCertificateMain } = await import('../../certify/verify-main.js');
    process.exitCode = await verifyCertificateMain(args);
  },
};
