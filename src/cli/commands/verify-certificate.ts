import { readPemFile } from '../../certify/certificate/signing.js';
import { verifyCertificate } from '../../certify/certificate/verify-certificate.js';
import type { CommandOutcome } from '../exit-codes.js';

/** Arguments of `svc-harness verify-certificate`. */
export interface VerifyCertificateArgs {
  dir: string;
  'public-key'?: string;
  'require-real'?: boolean;
}

/** Why an intact certificate verified without `--public-key` is not a yes. */
const UNPINNED_LINE = 'no signer was pinned: exit 0 means this certificate was signed by the key you trust; pass --public-key <that key>';

/**
 * `svc-harness verify-certificate`: one line, then, for a certificate that
 * could be read, what it is: its kind (PRACTICE or real), its target and its
 * subject. Exit 0 only when the folder is intact and signed by the key given
 * with `--public-key`; 1 naming the first problem, or for a practice
 * certificate under `--require-real`; 2 when the folder is intact but no key
 * was given to pin the signer (anyone can write an intact folder, and sign it
 * with a key of their own).
 */
export async function verifyCertificateCommand(
  args: VerifyCertificateArgs,
  io: { out: (line: string) => void; err: (line: string) => void } = { out: (l) => process.stdout.write(`${l}\n`), err: (l) => process.stderr.write(`${l}\n`) },
): Promise<CommandOutcome> {
  const publicKeyPem = args['public-key'] !== undefined ? await readPemFile(args['public-key'], 'public key') : undefined;
  const result = await verifyCertificate(args.dir, publicKeyPem !== undefined ? { publicKeyPem } : {});
  if (!result.ok) {
    io.err(result.summary);
    return { kind: 'verdict', passed: false };
  }
  const id = result.identity!;
  const practice = id.kind === 'practice';
  const describe = (print: (line: string) => void): void => {
    print(`  kind: ${practice ? `PRACTICE (${result.certificate!.practice ?? 'earned against the mock bundled with the harness'})` : 'real'}`);
    print(`  target: ${id.target}`);
    print(`  subject: ${id.subject}`);
  };
  if (practice && args['require-real'] === true) {
    io.err(
      `${result.summary.replace(/; pass --public-key to pin the signer$/, '')}; but --require-real: a practice certificate certifies nothing about any service`,
    );
    describe(io.err);
    return { kind: 'verdict', passed: false };
  }
  if (result.signer !== 'pinned') {
    io.err(`${result.summary.replace(/; pass --public-key to pin the signer$/, '')}; but ${UNPINNED_LINE}`);
    describe(io.err);
    return { kind: 'unpinned' };
  }
  io.out(result.summary);
  describe(io.out);
  return { kind: 'verdict', passed: true };
}
