import type { AdminClient } from './admin-client.js';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/**
 * Puts a mock's clock back to real time once a run that moved it ends,
 * whether it passed, failed or was interrupted (REFERENCE-API.md section 11):
 * left ahead, the mock would refuse every client that signs with the real time.
 */
export class ClockRestorer {
  private moved = false;
  private restoring: Promise<void> | undefined;
  private readonly onSignal = (signal: NodeJS.Signals): void => {
    void this.restore().finally(() => {
      this.detach();
      // Nobody else handles the signal: it ends the process, as it would have without this listener.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
  };

  /** The admin client to hand the clock driver: the same, noting that the clock moved. */
  readonly admin: AdminClient;

  constructor(admin: AdminClient) {
    this.admin = {
      ...admin,
      advance: (ms) => {
        if (!this.moved) {
          this.moved = true;
          // Only once the clock has moved is there anything to put back on an interruption.
          for (const s of SIGNALS) process.once(s, this.onSignal);
        }
        return admin.advance(ms);
      },
    };
    this.resetClock = () => admin.resetClock();
  }

  private readonly resetClock: () => Promise<void>;

  /** Resets the clock if the run moved it (at most once), and stops listening for signals; never throws. */
  async restore(): Promise<void> {
    this.detach();
    if (!this.moved) return;
    this.restoring ??= this.resetClock().catch(() => undefined);
    await this.restoring;
  }

  private detach(): void {
    for (const s of SIGNALS) process.off(s, this.onSignal);
  }
}
