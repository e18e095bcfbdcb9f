import { isHarnessError } from '../errors/harness-error.js';
import { terminalSafe } from '../log/terminal-safe.js';
import { exitCodeOfError, isUsageError } from './exit-codes.js';

/**
 * Turns an error that reached the CLI into one line on stderr and returns
 * its exit code. A user's mistake never prints a stack; a bug prints it with a hint.
 * A message may quote the target: it is made terminal-safe.
 */
export function reportFatal(err: unknown, print: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): number {
  const write = (text: string): void => print(terminalSafe(text, { multiline: true }));
  // E_INTERNAL is a bug found by the harness itself (an invariant broken): it is reported as a bug, with its stack.
  if (isHarnessError(err) && err.code !== 'E_INTERNAL') write(`svc-harness: ${err.message}`);
  else if (isUsageError(err)) write(`svc-harness: ${err.message} (see svc-harness --help)`);
  else write(`svc-harness: internal error, please report it with the lines below\n${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  return exitCodeOfError(err);
}
