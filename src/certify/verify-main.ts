import { readPemFile } from './certificate/signing.js';
import { verifyCertificate } from './certificate/verify-certificate.js';

/** Arguments of `svc-harness verify-certificate`. */
export interface VerifyCertificateArgs {
  dir: string;
  'public-key'?: string | undefined;
}

/** `svc-harness verify-certificate`: one line, exit 0 when the folder is intact (and the signature valid), 1 naming the first problem. */
export async function verifyCertificateMain(
  args: VerifyCertificateArgs,
  io: { out: (line: string) => void; err: (line: string) => void } = { out: (l) => process.stdout.write(`${l}\n`), err: (l) => process.stderr.write(`${l}\n`) },
): Promise<number> {
  const publicKeyPem = args['public-key'] !== undefined ? await readPemFile(args['public-key'], 'public key') : undefined;
  const result = await verifyCertificate(args.dir, publicKeyPem !== undefined ? { publicKeyPem } : {});
  if (result.ok) {
    io.out(result.summary);
    return 0;
  }
  io.err(result.summary);
  return 1;
}
