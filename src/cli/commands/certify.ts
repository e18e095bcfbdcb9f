import { commandLine } from '../command-line.js';
import { certify } from '../../certify/certify.js';
import { generateSigningKeyPair, parseSigningKey, readPemFile } from '../../certify/certificate/signing.js';
import { terminalSafe } from '../../log/terminal-safe.js';
import type { CommandOutcome } from '../exit-codes.js';

/** Arguments of `svc-harness certify`, as the shared option parsers leave them. */
export interface CertifyArgs {
  target?: string;
  agency?: string;
  'report-dir': string;
  'sign-key'?: string;
  'generate-key'?: string;
  'max-wait'?: number;
  'receiver-host'?: string;
  'receiver-port'?: number;
  'receiver-url'?: string;
  /** Accepted so a CI job can pass the same options to every command; a certificate ignores it. */
  'known-issues'?: string;
}

/** `svc-harness certify`: runs the certification plan and writes `<report-dir>/<run id>/certificate/`; passed when the certificate is granted. */
export async function certifyCommand(args: CertifyArgs, write: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): Promise<CommandOutcome> {
  // Verdict lines quote the target: nothing it sent may drive the terminal.
  const print = (line: string): void => write(terminalSafe(line));
  if (args['known-issues'] !== undefined)
    print(`note: certify ignores --known-issues ${args['known-issues']}: a certificate is never granted over a failure, so every failure counts`);
  if (args['generate-key'] !== undefined) {
    const pair = await generateSigningKeyPair(args['generate-key']);
    print(`private key: ${pair.privateKeyFile} (keep it secret; pass it as --sign-key)`);
    print(`public key:  ${pair.publicKeyFile} (give it to whoever verifies: verify-certificate DIR --public-key ${pair.publicKeyFile})`);
    print(`public key SHA-256: ${pair.fingerprint}`);
    return { kind: 'done' };
  }
  // Read the key before a run of a minute, not after it.
  const signKey =
    args['sign-key'] !== undefined ? parseSigningKey(await readPemFile(args['sign-key'], 'signing key'), `signing key ${args['sign-key']}`) : undefined;

  const written = await certify({
    ...(args.target !== undefined ? { targetFile: args.target } : {}),
    ...(args.agency !== undefined ? { agency: args.agency } : {}),
    reportDir: args['report-dir'],
    command: commandLine(),
    ...(signKey ? { signKey } : {}),
    ...(args['max-wait'] !== undefined ? { maxWaitS: args['max-wait'] } : {}),
    receiver: {
      ...(args['receiver-host'] !== undefined ? { host: args['receiver-host'] } : {}),
      ...(args['receiver-port'] !== undefined ? { port: args['receiver-port'] } : {}),
      ...(args['receiver-url'] !== undefined ? { publicUrl: args['receiver-url'] } : {}),
    },
    onStart: (t) => print(`certifying ${t.agency} against ${t.baseUrl}${t.embedded ? ' (embedded mock)' : ''}: plan svc-agency-cert, run ${t.runId}`),
    onTest: (t) => print(`  ${t.verdict.padEnd(5)} ${t.id} ${t.title} (${(t.durationMs / 1000).toFixed(1)} s): ${t.message}`),
    log: (line) => print(`        ${line}`),
  });
  const c = written.certificate;
  const took = (c.duration_ms / 1000).toFixed(1);
  print(
    `${c.practice !== undefined ? 'PRACTICE ' : ''}certificate ${c.granted ? 'GRANTED' : `REFUSED by ${c.refused_by.join(', ')}`}${c.skipped.length > 0 ? ` (not run: ${c.skipped.join(', ')})` : ''} in ${took} s`,
  );
  if (c.practice !== undefined) print(`  ${c.practice}`);
  print(`reports in ${written.reportDir} (junit.xml included; ${args['report-dir']}/latest points there)`);
  print(
    `certificate in ${written.dir}${signKey ? `, signed (Ed25519, key SHA-256 ${c.signing?.public_key_sha256.slice(0, 16)}…)` : ', not signed (pass --sign-key to sign)'}`,
  );
  return { kind: 'verdict', passed: c.granted };
}
