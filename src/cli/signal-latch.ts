/** The signals the CLI handles: Ctrl-C, and what CI runners and Kubernetes send. */
export type StopSignal = 'SIGINT' | 'SIGTERM';

/**
 * Handles SIGINT and SIGTERM from the first line of `main`, so that no
 * signal ever meets the process's default handling (an exit with no word
 * and no report). While a command listens for signals itself, the latch
 * leaves them to it. Otherwise a signal quits at once, except before a
 * command that stops cleanly has started listening (while its module loads):
 * then the first signal is kept for it, and it stops at once when it starts
 * ({@link SignalLatch.take}); a second one quits.
 */
export class SignalLatch {
  private pending: StopSignal | undefined;
  private keeping = false;
  private readonly listeners = { SIGINT: (): void => this.receive('SIGINT'), SIGTERM: (): void => this.receive('SIGTERM') };

  constructor(private readonly quit: (signal: StopSignal) => void) {}

  /** Starts listening. */
  install(): this {
    process.on('SIGINT', this.listeners.SIGINT);
    process.on('SIGTERM', this.listeners.SIGTERM);
    return this;
  }

  /** Stops listening (for tests: `main`'s latch listens as long as the process lives). */
  uninstall(): void {
    process.off('SIGINT', this.listeners.SIGINT);
    process.off('SIGTERM', this.listeners.SIGTERM);
  }

  /** A command that stops cleanly on a signal is about to start: a signal from now until it listens is kept for it. */
  keepForCommand(): void {
    this.keeping = true;
  }

  /** The signal received while the command was starting, if any; from now on the latch keeps none. */
  take(): StopSignal | undefined {
    this.keeping = false;
    const first = this.pending;
    this.pending = undefined;
    return first;
  }

  private receive(signal: StopSignal): void {
    // A command listening for signals itself handles this one.
    if (process.listenerCount(signal) > 1) return;
    if (this.keeping && this.pending === undefined) {
      this.pending = signal;
      return;
    }
    this.quit(signal);
  }
}
