import type { AdminClient } from './admin-client.js';

/**
 * Puts a mock's clock back to real time once a run that moved it ends,
 * whether it passed, failed or was interrupted (REFERENCE-API.md section 11):
 * left ahead, the mock would refuse every client that signs with the real time.
 * An interruption reaches it as the run's abort signal (the CLI turns SIGINT and
 * SIGTERM into one): the reset starts at once, before the run has wound down, so
 * that a second signal, which quits at once, finds the clock already on its way back.
 */
export class ClockRestorer {
  private moved = false;
  private restoring: Promise<void> | undefined;
  private readonly onAbort = (): void => void this.restore();

  /** The admin client to hand the clock driver: the same, noting that the clock moved. */
  readonly admin: AdminClient;

  constructor(
    admin: AdminClient,
    private readonly signal?: AbortSignal,
  ) {
    this.admin = {
      ...admin,
      advance: (ms, untilMs) => {
        if (!this.moved) {
          this.moved = true;
          // Only once the clock has moved is there anything to put back on an interruption.
          this.signal?.addEventListener('abort', this.onAbort, { once: true });
        }
        return admin.advance(ms, untilMs);
      },
    };
    this.resetClock = () => admin.resetClock();
  }

  private readonly resetClock: () => Promise<void>;

  /** Resets the clock if the run moved it (at most once), and stops listening for the abort; never throws. */
  async restore(): Promise<void> {
    this.detach();
    if (!this.moved) return;
    this.restoring ??= this.resetClock().catch(() => undefined);
    await this.restoring;
  }

  private detach(): void {
    this.signal?.removeEventListener('abort', this.onAbort);
  }
}
