import { Stream, type PreconditionFailure, type PropertyFailure } from 'fast-check';
import type * as fc from 'fast-check';
import { refusedWaitOf } from '../../src/clock/max-wait.js';

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
  // A run whose wait --max-wait refused ends the case as a SKIP: shrinking would only send its requests again.
  let refused = false;
  const property: fc.IRawProperty<Ts, true> = {
    isAsync: () => true,
    generate: (mrng, runId) => inner.generate(mrng, runId),
    shrink: (value) => (refused ? Stream.nil() : inner.shrink(value)),
    run: (v) => {
      const run = inner.run(v);
      last = run.catch(() => undefined);
      return run.then((outcome) => {
        if (isRefusedWait(outcome)) refused = true;
        return outcome;
      });
    },
    runBeforeEach: () => inner.runBeforeEach(),
    runAfterEach: () => inner.runAfterEach(),
  };
  return { property, settled: () => last.then(() => undefined) };
}

/** Whether a run's outcome is a wait refused by --max-wait (a run reports a failure as an outcome, not a throw). */
function isRefusedWait(outcome: PreconditionFailure | PropertyFailure | null): boolean {
  return outcome !== null && 'error' in outcome && refusedWaitOf(outcome.error) !== undefined;
}
