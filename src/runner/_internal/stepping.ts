/** How a driven clock moves through a long wait. */
export interface SteppingOptions {
  /** Largest single move, so that webhook attempts falling due are stamped within a second. @defaultValue 1000 */
  stepMs?: number;
  /**
   * Only the first `fineMs` of a wait are stepped; the rest is one move. Webhook
   * schedules play out in the first seconds after an event, while long waits
   * (quote expiry, retention) need no fine grain and would cost thousands of moves.
   * @defaultValue 120000
   */
  fineMs?: number;
}

/** The sizes of the moves that make up a wait of `ms`. */
export function steps(ms: number, opts: SteppingOptions = {}): number[] {
  const step = Math.max(1, opts.stepMs ?? 1000);
  const fine = Math.max(0, opts.fineMs ?? 120_000);
  const out: number[] = [];
  let left = Math.max(0, ms);
  let done = 0;
  while (left > 0) {
    const size = done >= fine ? left : Math.min(step, left, fine - done);
    out.push(size);
    left -= size;
    done += size;
  }
  return out;
}
