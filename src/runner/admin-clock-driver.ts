import type { ClockDriver } from './clock-driver.js';
import { createAdminClient, type AdminClient } from './admin-client.js';
import { steps, type SteppingOptions } from './_internal/stepping.js';

/**
 * Drives the clock of a mock in another process through its admin API. `now()`
 * is local time plus the offset learned from `GET /clock`, refreshed after
 * every move, so it needs no request of its own.
 */
export class AdminClockDriver implements ClockDriver {
  readonly kind = 'mock' as const;
  private offsetMs = 0;

  private constructor(
    readonly admin: AdminClient,
    private readonly stepping: SteppingOptions,
  ) {}

  /** Connects to the admin API at `adminUrl` and learns the clock's offset. */
  static async connect(adminUrl: string | AdminClient, stepping: SteppingOptions = {}): Promise<AdminClockDriver> {
    const driver = new AdminClockDriver(typeof adminUrl === 'string' ? createAdminClient(adminUrl) : adminUrl, stepping);
    await driver.sync();
    return driver;
  }

  now(): number {
    return Date.now() + this.offsetMs;
  }

  /** Moves the mock's clock by `ms` in steps of at most a second (for the first two minutes), so webhook arrivals are stamped within a second. */
  async wait(ms: number): Promise<void> {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`wait needs a duration ≥ 0 ms, got ${ms}`);
    for (const size of steps(ms, this.stepping)) {
      const answer = (await this.admin.advance(size)) as { now_ms?: unknown } | undefined;
      if (typeof answer?.now_ms === 'number') this.offsetMs = answer.now_ms - Date.now();
      else this.offsetMs += size;
    }
    if (ms > 0) await this.sync();
  }

  /** Re-reads the mock's clock; the request's midpoint is taken as the instant it answered for. */
  async sync(): Promise<void> {
    const before = Date.now();
    const { now_ms } = await this.admin.clock();
    const after = Date.now();
    this.offsetMs = now_ms - Math.round((before + after) / 2);
  }
}
