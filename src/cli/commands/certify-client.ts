import { HarnessError } from '../../errors/harness-error.js';
import { parseSigningKey, readPemFile } from '../../certify/certificate/signing.js';
import { CERTIFY_CLIENT_DEFAULTS, certifyClient } from '../../certify/client/certify-client.js';
import { terminalSafe } from '../../log/terminal-safe.js';
import type { CommandOutcome } from '../exit-codes.js';

/** Arguments of `svc-harness certify-client`. */
export interface CertifyClientArgs {
  run?: string;
  timeout?: number;
  duration?: number;
  agency?: string;
  'report-dir': string;
  'sign-key'?: string;
  'retry-after'?: number;
  'quote-lifetime'?: number;
  host?: string;
  port?: number;
  'hotel-port'?: number;
  /** The client's name and version, shown on the certificate. */
  'client-name'?: string;
  'client-version'?: string;
}

/**
 * Interactive mode: resolves on Enter, after `durationS`, or on Ctrl-C,
 * whichever comes first.
 */
function waitForAgency(durationS: number | undefined, print: (line: string) => void): () => Promise<void> {
  return () =>
    new Promise<void>((resolve) => {
      const stdin = process.stdin;
      let timer: NodeJS.Timeout | undefined;
      const done = (): void => {
        if (timer) clearTimeout(timer);
        process.off('SIGINT', done);
        stdin.off('data', onData);
        stdin.off('end', done);
        stdin.pause();
        resolve();
      };
      const onData = (d: Buffer): void => {
        if (d.includes(10)) done();
      };
      if (durationS !== undefined) timer = setTimeout(done, durationS * 1000);
      process.on('SIGINT', done);
      if (stdin.isTTY || durationS === undefined) {
        stdin.on('data', onData);
        stdin.on('end', done);
        stdin.resume();
      }
      const how = [
        stdin.isTTY || durationS === undefined ? 'press Enter' : undefined,
        durationS !== undefined ? `wait ${durationS} s` : undefined,
        'or Ctrl-C',
      ].filter(Boolean);
      print(`point your client at the URLs above and run its flows; when done, ${how.join(', ')} to grade it`);
    });
}

/** `svc-harness certify-client`: grades an agency's client; passed when its certificate is granted. */
export async function certifyClientCommand(
  args: CertifyClientArgs,
  write: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
): Promise<CommandOutcome> {
  // Verdict lines quote the target: nothing it sent may drive the terminal.
  const print = (line: string): void => write(terminalSafe(line));
  if (args.run !== undefined && args.duration !== undefined) throw new HarnessError('E_USAGE', '--duration is for interactive runs; with --run, use --timeout');
  const signKey =
    args['sign-key'] !== undefined ? parseSigningKey(await readPemFile(args['sign-key'], 'signing key'), `signing key ${args['sign-key']}`) : undefined;
  // The client command runs in a process group of its own, out of Ctrl-C's reach: the first Ctrl-C stops it and grades what it
  // did; a second finds no listener and ends the harness as usual.
  const stop = new AbortController();
  const onSigint = (): void => stop.abort();
  if (args.run !== undefined) process.once('SIGINT', onSigint);
  const result = await certifyClient({
    ...(args.agency !== undefined ? { agency: args.agency } : {}),
    ...(args.run !== undefined ? { run: args.run } : { waitForClient: waitForAgency(args.duration, print) }),
    timeoutS: args.timeout ?? CERTIFY_CLIENT_DEFAULTS.timeoutS,
    reportDir: args['report-dir'],
    ...(signKey ? { signKey } : {}),
    ...(args['retry-after'] !== undefined ? { retryAfterS: args['retry-after'] } : {}),
    ...(args['quote-lifetime'] !== undefined ? { quoteLifetimeS: args['quote-lifetime'] } : {}),
    ...(args.host !== undefined ? { host: args.host } : {}),
    ...(args.port !== undefined ? { port: args.port } : {}),
    ...(args['hotel-port'] !== undefined ? { hotelPort: args['hotel-port'] } : {}),
    ...(args['client-name'] !== undefined || args['client-version'] !== undefined
      ? {
          client: {
            ...(args['client-name'] !== undefined ? { name: args['client-name'] } : {}),
            ...(args['client-version'] !== undefined ? { version: args['client-version'] } : {}),
          },
        }
      : {}),
    print,
    stop: stop.signal,
  }).finally(() => process.off('SIGINT', onSigint));
  for (const g of result.items) print(`  ${g.verdict.padEnd(5)} ${g.item.id} ${g.item.title}: ${g.message}`);
  const c = result.certificate.certificate;
  const named = c.client ? ` for ${[c.client.name, c.client.version].filter((v) => v !== undefined).join(' ')}` : '';
  if (c.granted) print(`client certificate${named} GRANTED (${c.summary.PASS} of ${c.summary.total} items passed)`);
  else {
    const refused = result.items.filter((g) => c.refused_by.includes(g.item.id));
    print(`client certificate${named} REFUSED by ${c.refused_by.join(', ')}:`);
    for (const g of refused) print(`  - ${g.item.id} ${g.item.title}: ${g.message}`);
  }
  print(`reports in ${result.reportDir}; certificate in ${result.certificate.dir}${signKey ? ' (signed)' : ' (not signed; pass --sign-key to sign)'}`);
  return { kind: 'verdict', passed: c.granted };
}
