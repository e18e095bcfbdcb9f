import { isHarnessError } from '../errors/harness-error.js';

/**
 * Turns an error that reached the CLI into one line on stderr and an exit
 * code. A user's mistake never prints a stack; a bug prints it with a hint.
 */
export function reportFatal(err: unknown, write: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): number {
  if (isHarnessError(err)) {
    write(`svc-harness: ${err.message}`);
    return err.exitCode;
  }
  if (err instanceof Error && (err as { usage?: boolean }).usage) {
    write(`svc-harness: ${err.message} (see svc-harness --help)`);
    return 2;
  }
  const stack = err instanceof Error ? (err.stack ?? err.message) : String(err);
  write(`svc-harness: internal error, please report it with the lines below\n${stack}`);
  return 70;
}
