import { readPemFile } from '../../certify/certificate/signing.js';
import { verifyCertificate } from '../../certify/certificate/verify-certificate.js';
import type { CommandOutcome } from '../exit-codes.js';

/** Arguments of `svc-harness verify-certificate`. */
export interface VerifyCertificateArgs {
  dir: string;
  'public-key'?: string;
}

/** `svc-harness verify-certificate`: one line; passed when the folder is intact (and the signature valid), else naming the first problem. */
export async function verifyCertificateCommand(
  args: VerifyCertificateArgs,
  io: { out: (line: string) => void; err: (line: string) => void } = { out: (l) => process.stdout.write(`${l}\n`), err: (l) => process.stderr.write(`${l}\n`) },
): Promise<CommandOutcome> {
  const publicKeyPem = args['public-key'] !== undefined ? await readPemFile(args['public-key'], 'public key') : undefined;
  const result = await verifyCertificate(args.dir, publicKeyPem !== undefined ? { publicKeyPem } : {});
  if (result.ok) {
    io.out(result.summary);
    return { kind: 'verdict', passed: true };
  }
  io.err(result.summary);
  return { kind: 'verdict', passed: false };
}
