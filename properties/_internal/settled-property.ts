import type * as fc from 'fast-check';

/** A property whose run in progress can be waited for, and the way to wait. */
interface SettledProperty<Ts> {
  property: fc.IRawProperty<Ts, true>;
  /** Resolves once the last run started has ended (at once when none runs). */
  settled(): Promise<void>;
}

/**
 * Wraps `inner` so that its runs can be waited for. fast-check's time limit
 * (`interruptAfterTimeLimit`) stops waiting for the run in progress but
 * cannot stop it: without waiting, its bookings and cancellations would go on
 * after the case ended, into a wallet and buckets the runner has given to the
 * next check.
 */
export function settledProperty<Ts>(inner: fc.IRawProperty<Ts, true>): SettledProperty<Ts> {
  let last: Promise<unknown> = Promise.resolve();
  const property: fc.IRawProperty<Ts, true> = {
    isAsync: () => true,
    generate: (mrng, runId) => inner.generate(mrng, runId),
    shrink: (value) => inner.shrink(value),
    run: (v) => {
      const run = inner.run(v);
      last = run.catch(() => undefined);
      return run;
    },
    runBeforeEach: () => inner.runBeforeEach(),
    runAfterEach: () => inner.runAfterEach(),
  };
  return { property, settled: () => last.then(() => undefined) };
}
