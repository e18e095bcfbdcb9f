import { setMaxListeners } from 'node:events';
import type { CommandContext } from './command-spec.js';
import type { StopSignal } from './signal-latch.js';

/** What a command listening for a stop sees. */
export interface SignalStop {
  /** Aborts at the first signal: hand it to what runs so that it ends and hands back what it did. */
  readonly signal: AbortSignal;
  /** The first signal received, if any. */
  stoppedBy(): StopSignal | undefined;
  /** Stops listening (the process's default handling comes back). */
  dispose(): void;
}

/**
 * Listens for SIGINT and SIGTERM while a command runs: the first aborts
 * `signal` and says on stderr that the report of what ran is still written;
 * a second quits at once through `context.quit` (exit 130 or 143), for a
 * person who will not wait for it. A signal that came while the command was
 * starting (`context.takeSignal`) counts as the first: `signal` is then
 * aborted from the start.
 */
export function stopOnSignals(context: CommandContext, what: string, stream: Pick<NodeJS.WriteStream, 'write'> = process.stderr): SignalStop {
  const ac = new AbortController();
  // Whatever runs listens to it, every wait and check in progress: many at once, by design.
  setMaxListeners(0, ac.signal);
  let stoppedBy: StopSignal | undefined;
  const onSignal = (signal: StopSignal): void => {
    if (stoppedBy !== undefined) context.quit({ kind: 'interrupted', signal });
    stoppedBy = signal;
    stream.write(
      `\nsvc-harness: ${signal} received, stopping ${what} (${signal === 'SIGINT' ? 'Ctrl-C again' : 'a second signal'} to quit at once); the report of what ran is still written\n`,
    );
    ac.abort(new Error(`interrupted by ${signal}`));
  };
  const onSigint = (): void => onSignal('SIGINT');
  const onSigterm = (): void => onSignal('SIGTERM');
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigterm);
  const early = context.takeSignal?.();
  if (early !== undefined) onSignal(early);
  return {
    signal: ac.signal,
    stoppedBy: () => stoppedBy,
    dispose() {
      process.off('SIGINT', onSigint);
      process.off('SIGTERM', onSigterm);
    },
  };
}
